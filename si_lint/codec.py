"""Findings and positions as plain JSON data, and back, with every field checked.

The result cache (SPEC §9) is *data only*: what it stores is JSON, and what it reads back
is turned into :class:`~si_lint.findings.Finding` / :class:`~si_lint.findings.Diag` /
:class:`~si_lint.fix.Fix` values by these functions alone — a fixed schema per class,
every field's type checked, nothing chosen by the data (no class names, no callables).
Anything that does not fit raises :class:`Invalid`, which the cache treats as a miss.
"""

from __future__ import annotations

from typing import Any

from .findings import Diag, Finding, Location, Related


class Invalid(ValueError):
    """A stored value does not have the expected shape or types."""


def _fail(what: str) -> Invalid:
    return Invalid(what)


def _str(x: Any, what: str) -> str:
    if type(x) is not str:
        raise _fail(what)
    return x


def _opt_str(x: Any, what: str) -> str | None:
    return None if x is None else _str(x, what)


def _int(x: Any, what: str) -> int:
    if type(x) is not int:
        raise _fail(what)
    return x


def _opt_int(x: Any, what: str) -> int | None:
    return None if x is None else _int(x, what)


def _list(x: Any, what: str) -> list:
    if type(x) is not list:
        raise _fail(what)
    return x


def _dict(x: Any, what: str) -> dict:
    if type(x) is not dict:
        raise _fail(what)
    return x


# ----------------------------------------------------------------------------- paths


def path_to_json(path) -> list:
    return list(path)


def path_from_json(x: Any) -> tuple:
    out = _list(x, "path")
    for part in out:
        if type(part) is not str and type(part) is not int:
            raise _fail("path part")
    return tuple(out)


# ----------------------------------------------------------------------------- fixes


def fix_to_json(fix: Any) -> Any:
    """``None``, one :class:`Fix` or a list of them; anything else is not cacheable."""
    from .fix import Fix

    if fix is None:
        return None
    if isinstance(fix, Fix):
        return {"op": fix.op, "path": path_to_json(fix.path), "value": fix.value}
    if isinstance(fix, (list, tuple)) and all(isinstance(f, Fix) for f in fix):
        return [fix_to_json(f) for f in fix]
    raise TypeError(f"fix {type(fix).__name__} is not cacheable")


def fix_from_json(x: Any) -> Any:
    from .fix import OPS, Fix

    if x is None:
        return None
    if type(x) is list:
        return [fix_from_json(_dict(f, "fix")) for f in x]
    d = _dict(x, "fix")
    if set(d) != {"op", "path", "value"} or d["op"] not in OPS:
        raise _fail("fix")
    path = path_from_json(d["path"])
    if not path:
        raise _fail("fix path")
    return Fix(d["op"], path, d["value"])  # value: JSON data (what json.loads builds)


# ----------------------------------------------------------------------------- findings

_SEVERITIES = ("error", "warning", "info")


def finding_to_json(f: Finding) -> list:
    return [f.path, f.line, f.column, f.code, f.severity, f.message, f.help, f.doc_path,
            [[r.path, r.line, r.column, r.message] for r in f.related],
            f.end_line, f.end_column, f.detail, fix_to_json(f.fix)]


def finding_from_json(x: Any) -> Finding:
    v = _list(x, "finding")
    if len(v) != 13:
        raise _fail("finding")
    related = []
    for r in _list(v[8], "related"):
        r = _list(r, "related")
        if len(r) != 4:
            raise _fail("related")
        related.append(Location(_str(r[0], "related path"), _int(r[1], "line"), _int(r[2], "column"),
                                _str(r[3], "message")))
    severity = _str(v[4], "severity")
    if severity not in _SEVERITIES:
        raise _fail("severity")
    return Finding(
        path=_str(v[0], "path"), line=_int(v[1], "line"), column=_int(v[2], "column"),
        code=_str(v[3], "code"), severity=severity, message=_str(v[5], "message"),
        help=_opt_str(v[6], "help"), doc_path=_opt_str(v[7], "doc_path"), related=tuple(related),
        end_line=_opt_int(v[9], "end_line"), end_column=_opt_int(v[10], "end_column"),
        detail=_opt_str(v[11], "detail"), fix=fix_from_json(v[12]),
    )


def findings_to_json(findings) -> list:
    return [finding_to_json(f) for f in findings]


def findings_from_json(x: Any) -> list[Finding]:
    return [finding_from_json(f) for f in _list(x, "findings")]


# ----------------------------------------------------------------------------- diags


def _related_to_json(r: Related) -> list:
    return [r.file, None if r.path is None else path_to_json(r.path), r.message, r.on, r.line, r.col]


def _related_from_json(x: Any) -> Related:
    v = _list(x, "related")
    if len(v) != 6 or v[3] not in ("key", "value"):
        raise _fail("related")
    return Related(_str(v[0], "file"), None if v[1] is None else path_from_json(v[1]),
                   _str(v[2], "message"), v[3], _opt_int(v[4], "line"), _opt_int(v[5], "col"))


def diag_to_json(d: Diag) -> list:
    return [d.code, path_to_json(d.path), d.message, d.on, d.help,
            [_related_to_json(r) for r in d.related], d.severity, d.file, d.line, d.col,
            fix_to_json(d.fix)]


def diag_from_json(x: Any) -> Diag:
    v = _list(x, "diag")
    if len(v) != 11 or v[3] not in ("key", "value"):
        raise _fail("diag")
    severity = _opt_str(v[6], "severity")
    if severity is not None and severity not in _SEVERITIES:
        raise _fail("severity")
    return Diag(
        _str(v[0], "code"), path_from_json(v[1]), _str(v[2], "message"), on=v[3],
        help=_opt_str(v[4], "help"), related=tuple(_related_from_json(r) for r in _list(v[5], "related")),
        severity=severity, file=_opt_str(v[7], "file"), line=_opt_int(v[8], "line"),
        col=_opt_int(v[9], "col"), fix=fix_from_json(v[10]),
    )


def diags_to_json(diags) -> list:
    return [diag_to_json(d) for d in diags]


def diags_from_json(x: Any) -> list[Diag]:
    return [diag_from_json(d) for d in _list(x, "diags")]


# ----------------------------------------------------------------------------- positions


def positions_to_json(table: dict) -> list:
    """A position table {path: (line, col)} as ``[[path, line, col], ...]``."""
    return [[list(p), lc[0], lc[1]] for p, lc in table.items()]


def positions_from_json(x: Any) -> dict:
    out = {}
    for item in _list(x, "positions"):
        if type(item) is not list or len(item) != 3:
            raise _fail("position")
        out[path_from_json(item[0])] = (_int(item[1], "line"), _int(item[2], "col"))
    return out


def suppressions_to_json(sups) -> list:
    return [[line, col, kind, list(codes)] for line, col, kind, codes in sups]


def suppressions_from_json(x: Any) -> list:
    out = []
    for item in _list(x, "suppressions"):
        if type(item) is not list or len(item) != 4 or item[2] not in ("line", "above", "file"):
            raise _fail("suppression")
        codes = tuple(_str(c, "code") for c in _list(item[3], "codes"))
        out.append((_int(item[0], "line"), _int(item[1], "col"), item[2], codes))
    return out
