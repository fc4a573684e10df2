"""Diags as plain JSON data and back, as the result cache stores them. The cache (SPEC §9)
is *data only*: what it reads back becomes a ``Diag`` through a fixed schema alone, every
field's type checked, nothing chosen by the data; what does not fit raises :class:`Invalid`
(a miss)."""

from __future__ import annotations

from typing import Any

from .findings import SEVERITIES, Diag, Related
from .fix import fix_from_data, fix_to_data, fixes_of


class Invalid(ValueError):
    """A stored value does not have the expected shape or types."""


def _of(*types: type):
    def decode(x: Any, what: str) -> Any:
        if type(x) not in types:
            raise Invalid(what)
        return x

    return decode


def _one_of(*values: Any):
    def decode(x: Any, what: str) -> Any:
        if x not in values:
            raise Invalid(what)
        return x

    return decode


def _path(x: Any, what: str) -> tuple:
    if type(x) is not list or any(type(p) not in (str, int) for p in x):
        raise Invalid(what)
    return tuple(x)


def _fix_to_json(fix: Any) -> Any:
    """Anything but ``None`` or Fixes (e.g. SI000's traceback) is not cacheable."""
    if fix is not None and not fixes_of(fix):
        raise TypeError(f"fix {type(fix).__name__} is not cacheable")
    return None if fix is None else fix_to_data(fix)


_STR, _OPT_STR, _OPT_INT = _of(str), _of(str, type(None)), _of(int, type(None))
_ON = _one_of("key", "value")

# one decoder per field (tests/test_cache_hostile.py checks that every field of Diag and
# Related is listed); a field missing here makes encoding raise (the value is then not
# cached). A value equal to the field's default is left out.
_RELATED_FIELDS = {
    "file": _STR,
    "path": lambda x, what: None if x is None else _path(x, what),
    "message": _STR,
    "on": _ON,
    "line": _OPT_INT,
    "col": _OPT_INT,
    "document": _OPT_INT,
}
_DIAG_FIELDS = {
    "code": _STR,
    "path": _path,
    "message": _STR,
    "on": _ON,
    "help": _OPT_STR,
    "related": lambda x, what: tuple(
        _from_json(Related, r, _RELATED_FIELDS) for r in _of(list)(x, what)
    ),
    "severity": _one_of(None, *SEVERITIES),
    "file": _OPT_STR,
    "line": _OPT_INT,
    "col": _OPT_INT,
    "fix": lambda x, what: None if x is None else fix_from_data(x),
    "document": _OPT_INT,
    "detail": _OPT_STR,
}
_ENCODE = {
    "path": list,
    "related": lambda rs: [_to_json(r, _RELATED_FIELDS) for r in rs],
    "fix": _fix_to_json,
}


def _to_json(obj: Any, table: dict) -> dict:
    out = {}
    defaults = obj._field_defaults
    for name, value in zip(obj._fields, obj):
        if name in defaults and value == defaults[name] and type(value) is type(defaults[name]):
            continue
        if name not in table:
            raise TypeError(f"{type(obj).__name__}.{name} has no cache codec")
        out[name] = _ENCODE[name](value) if name in _ENCODE else value
    return out


def _from_json(cls, x: Any, table: dict):
    kwargs = {}
    for name, value in _of(dict)(x, cls.__name__).items():
        if name not in table:
            raise Invalid(f"{cls.__name__}.{name}")
        kwargs[name] = table[name](value, name)
    try:
        return cls(**kwargs)
    except TypeError as exc:  # a required field missing
        raise Invalid(str(exc)) from exc


def diags_to_json(diags) -> list:
    return [_to_json(d, _DIAG_FIELDS) for d in diags]


def diags_from_json(x: Any) -> list[Diag]:
    return [_from_json(Diag, d, _DIAG_FIELDS) for d in _of(list)(x, "diags")]
