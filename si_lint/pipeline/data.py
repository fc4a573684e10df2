"""Findings and diagnostics as plain JSON-able data (dicts, lists, str, int, float, bool,
None) for the cache and for worker processes, and back. Reading back validates every
field: a cache can arrive in a pull request, so anything unexpected is ``ValueError``."""

from __future__ import annotations

from typing import Any

from ..findings import Diag, Finding, Location, Related
from ..fix import fix_from_data, fix_to_data


def finding_to_data(self: Finding) -> dict:
    """A located :class:`Finding` as plain data."""
    out: dict = {"path": self.path, "line": self.line, "column": self.column,
                 "code": self.code, "severity": self.severity, "message": self.message}
    for key in ("help", "doc_path", "end_line", "end_column", "detail", "document"):
        value = getattr(self, key)
        if value is not None:
            out[key] = value
    if self.related:
        out["related"] = [[r.path, r.line, r.column, r.message] for r in self.related]
    if self.fix is not None:
        out["fix"] = fix_to_data(self.fix)
    return out


def finding_from_data(d: Any) -> Finding:
    """The inverse of :func:`finding_to_data`; raises ``ValueError`` on anything else."""
    if not isinstance(d, dict):
        raise ValueError("not a finding")
    str_keys = ("path", "code", "severity", "message")
    if not all(isinstance(d.get(k), str) for k in str_keys) or not all(
        type(d.get(k)) is int for k in ("line", "column")
    ):
        raise ValueError("not a finding")
    opt = {}
    for key, typ in (("help", str), ("doc_path", str), ("end_line", int),
                     ("end_column", int), ("detail", str), ("document", int)):
        value = d.get(key)
        if value is not None:
            if type(value) is not typ:
                raise ValueError(f"bad {key}")
            opt[key] = value
    related = []
    for r in d.get("related") or ():
        if not (isinstance(r, list) and len(r) == 4 and isinstance(r[0], str)
                and type(r[1]) is int and type(r[2]) is int and isinstance(r[3], str)):
            raise ValueError("bad related location")
        related.append(Location(*r))
    fix = fix_from_data(d["fix"]) if d.get("fix") is not None else None
    return Finding(d["path"], d["line"], d["column"], d["code"], d["severity"], d["message"],
                   related=tuple(related), fix=fix, **opt)


def _path_data(path) -> list:
    return list(path)


def _path_from(data) -> tuple:
    if not (isinstance(data, list) and all(type(p) in (str, int) for p in data)):
        raise ValueError("not a document path")
    return tuple(data)


def _opt(d: dict, key: str, typ) -> Any:
    value = d.get(key)
    if value is not None and type(value) is not typ:
        raise ValueError(f"bad {key}")
    return value


def diag_to_data(diag: Diag) -> dict:
    """A :class:`Diag` as plain JSON-able data (memoised cross-file results)."""
    out: dict = {"code": diag.code, "path": _path_data(diag.path), "message": diag.message}
    for key in ("help", "severity", "file", "line", "col", "document", "detail"):
        value = getattr(diag, key)
        if value is not None:
            out[key] = value
    if diag.on != "key":
        out["on"] = diag.on
    if diag.related:
        out["related"] = [
            {k: v for k, v in (("file", r.file), ("path", None if r.path is None else list(r.path)),
                               ("message", r.message), ("on", r.on), ("line", r.line),
                               ("col", r.col), ("document", r.document)) if v is not None}
            for r in diag.related
        ]
    if diag.fix is not None:
        out["fix"] = fix_to_data(diag.fix)
    return out


def diag_from_data(d: Any) -> Diag:
    """The inverse of :func:`diag_to_data`; raises ``ValueError`` on anything else."""
    if not (isinstance(d, dict) and isinstance(d.get("code"), str) and isinstance(d.get("message"), str)):
        raise ValueError("not a diagnostic")
    on = d.get("on", "key")
    if on not in ("key", "value"):
        raise ValueError("bad on")
    related = []
    for r in d.get("related") or ():
        if not (isinstance(r, dict) and isinstance(r.get("file"), str)):
            raise ValueError("bad related")
        ron = r.get("on", "key")
        if ron not in ("key", "value"):
            raise ValueError("bad on")
        related.append(Related(r["file"], None if r.get("path") is None else _path_from(r["path"]),
                               _opt(r, "message", str) or "", ron, _opt(r, "line", int),
                               _opt(r, "col", int), _opt(r, "document", int)))
    return Diag(d["code"], _path_from(d.get("path")), d["message"], on=on,
                help=_opt(d, "help", str), related=tuple(related), severity=_opt(d, "severity", str),
                file=_opt(d, "file", str), line=_opt(d, "line", int), col=_opt(d, "col", int),
                fix=fix_from_data(d["fix"]) if d.get("fix") is not None else None,
                document=_opt(d, "document", int), detail=_opt(d, "detail", str))
