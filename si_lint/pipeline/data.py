"""Located findings as plain JSON-able data (dicts, lists, str, int, float, bool, None)
for the cache (per-file entries, whole runs), and back. Reading back validates every
field: a cache can arrive in a pull request, so anything unexpected is ``ValueError``.
(Check results, ``Diag``, go through :mod:`si_lint.codec`.)"""

from __future__ import annotations

from typing import Any

from ..findings import Finding, Location


def finding_to_data(self: Finding) -> dict:
    """A located :class:`Finding` as plain data."""
    out: dict = {
        "path": self.path,
        "line": self.line,
        "column": self.column,
        "code": self.code,
        "severity": self.severity,
        "message": self.message,
    }
    for key in ("help", "doc_path", "end_line", "end_column", "detail", "document"):
        value = getattr(self, key)
        if value is not None:
            out[key] = value
    if self.related:
        out["related"] = [[r.path, r.line, r.column, r.message] for r in self.related]
    if self.fix is not None:
        from ..fix import fix_to_data

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
    for key, typ in (
        ("help", str),
        ("doc_path", str),
        ("end_line", int),
        ("end_column", int),
        ("detail", str),
        ("document", int),
    ):
        value = d.get(key)
        if value is not None:
            if type(value) is not typ:
                raise ValueError(f"bad {key}")
            opt[key] = value
    related = []
    for r in d.get("related") or ():
        if not (
            isinstance(r, list)
            and len(r) == 4
            and isinstance(r[0], str)
            and type(r[1]) is int
            and type(r[2]) is int
            and isinstance(r[3], str)
        ):
            raise ValueError("bad related location")
        related.append(Location(*r))
    fix = None
    if d.get("fix") is not None:
        from ..fix import fix_from_data

        fix = fix_from_data(d["fix"])
    return Finding(
        d["path"],
        d["line"],
        d["column"],
        d["code"],
        d["severity"],
        d["message"],
        related=tuple(related),
        fix=fix,
        **opt,
    )
