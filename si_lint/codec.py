"""Check results (:class:`~si_lint.findings.Diag`) as plain JSON data, and back, with
every field checked — what the result cache's ``memo`` table stores (fixture dry runs).

The result cache (SPEC §9) is *data only*: what it stores is JSON, and what it reads back
becomes a ``Diag`` (a located ``Finding``: :mod:`si_lint.pipeline.data`) through a fixed
schema alone — every field's type checked, nothing chosen by the data (no class names, no
callables). Anything that does not fit raises :class:`Invalid` (a ``ValueError``), which
the cache treats as a miss.
"""

from __future__ import annotations

from typing import Any

from .findings import Diag, Related


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
    """``None``, one :class:`~si_lint.fix.Fix` or a sequence of them (``fix.fix_to_data``);
    anything else (e.g. SI000's traceback) is not cacheable."""
    from .fix import fix_to_data, fixes_of

    if fix is None:
        return None
    if not fixes_of(fix):
        raise TypeError(f"fix {type(fix).__name__} is not cacheable")
    return fix_to_data(fix)


def fix_from_json(x: Any) -> Any:
    from .fix import fix_from_data

    return None if x is None else fix_from_data(x)


_SEVERITIES = ("error", "warning", "info")


# ----------------------------------------------------------------------------- diags
#
# one (encode, decode) pair per field; a value equal to the field's default is
# left out. A field missing here makes encoding raise (the value is then not cached), and
# tests/test_cache_hostile.py checks that every field of Diag and Related is listed.


def _on(x: Any, what: str = "on") -> str:
    if x not in ("key", "value"):
        raise _fail(what)
    return x


def _severity(x: Any, what: str = "severity") -> str | None:
    if x is not None and x not in _SEVERITIES:
        raise _fail(what)
    return x


def _same(x: Any) -> Any:
    return x


def _opt_path_from_json(x: Any, what: str = "path") -> tuple | None:
    return None if x is None else path_from_json(x)


_RELATED_FIELDS = {
    "file": (_same, _str),
    "path": (lambda p: None if p is None else path_to_json(p), _opt_path_from_json),
    "message": (_same, _str),
    "on": (_same, _on),
    "line": (_same, _opt_int),
    "col": (_same, _opt_int),
    "document": (_same, _opt_int),
}


def _record_to_json(obj: Any, table: dict) -> dict:
    out = {}
    defaults = obj._field_defaults
    for name, value in zip(obj._fields, obj):
        if name in defaults:
            default = defaults[name]
            if value == default and type(value) is type(default):
                continue
        if name not in table:
            raise TypeError(f"{type(obj).__name__}.{name} has no cache codec")
        out[name] = table[name][0](value)
    return out


def _record_from_json(cls, x: Any, table: dict):
    d = _dict(x, cls.__name__)
    kwargs = {}
    for name, value in d.items():
        codec = table.get(name)
        if codec is None:
            raise _fail(f"{cls.__name__}.{name}")
        kwargs[name] = (
            codec[1](value, name) if codec[1] is not fix_from_json else fix_from_json(value)
        )
    try:
        return cls(**kwargs)
    except TypeError as exc:  # a required field missing
        raise _fail(str(exc)) from exc


def _related_list_to_json(related) -> list:
    return [_record_to_json(r, _RELATED_FIELDS) for r in related]


def _related_list_from_json(x: Any, what: str = "related") -> tuple:
    return tuple(_record_from_json(Related, r, _RELATED_FIELDS) for r in _list(x, what))


_DIAG_FIELDS = {
    "code": (_same, _str),
    "path": (path_to_json, lambda x, what="path": path_from_json(x)),
    "message": (_same, _str),
    "on": (_same, _on),
    "help": (_same, _opt_str),
    "related": (_related_list_to_json, _related_list_from_json),
    "severity": (_same, _severity),
    "file": (_same, _opt_str),
    "line": (_same, _opt_int),
    "col": (_same, _opt_int),
    "fix": (fix_to_json, fix_from_json),
    "document": (_same, _opt_int),
    "detail": (_same, _opt_str),
}


def diag_to_json(d: Diag) -> dict:
    return _record_to_json(d, _DIAG_FIELDS)


def diag_from_json(x: Any) -> Diag:
    return _record_from_json(Diag, x, _DIAG_FIELDS)


def diags_to_json(diags) -> list:
    return [diag_to_json(d) for d in diags]


def diags_from_json(x: Any) -> list[Diag]:
    return [diag_from_json(d) for d in _list(x, "diags")]
