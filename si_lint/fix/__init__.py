"""Fixes: the data a check attaches to a finding (``Diag(fix=...)``) and its JSON form (cache,
workers); ``--fix`` and ``--diff`` are :mod:`.files`.

A :class:`Fix` is plain data -- an operation on one document path -- so checks stay pure:

- ``Fix("set", path, value)``       replace the value at ``path`` (a mapping key or a list index);
                                    a list value replaces a list's items in place (flow style and
                                    comments of the list survive), a string keeps the old quoting
- ``Fix("delete", path)``           remove the key (or list item) at ``path``
- ``Fix("rename_key", path, name)`` rename the mapping key at ``path`` in place (order kept)
- ``Fix("lift", path)``             replace the mapping key at ``path`` by the items of its
                                    mapping value, where it stood (their comments kept); nothing
                                    is done when a lifted key already exists beside it

``Diag.fix`` may also hold a tuple of ``Fix`` when one finding needs several edits. Paths
are document paths as in ``si_lint.findings`` (tuples of ``str`` keys and ``int`` list
indexes), always into the document the finding is reported on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPS = ("set", "delete", "rename_key", "lift")


@dataclass(frozen=True, eq=True)
class Fix:
    op: str
    path: tuple
    value: Any = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown fix op {self.op!r} (one of {', '.join(OPS)})")
        object.__setattr__(self, "path", tuple(self.path))
        if not self.path:
            raise ValueError("a fix needs a non-empty document path")

    # value may be a list: unhashable (typeshed's object.__hash__ is a method)
    __hash__ = None  # type: ignore[assignment]


def set_value(path, value: Any) -> Fix:
    return Fix("set", tuple(path), value)


def delete_key(path) -> Fix:
    return Fix("delete", tuple(path))


def rename_key(path, name: str) -> Fix:
    return Fix("rename_key", tuple(path), name)


def fix_to_data(obj: Any) -> Any:
    return [[f.op, list(f.path), f.value] for f in fixes_of(obj)]


def fix_from_data(data: Any) -> tuple[Fix, ...] | None:
    """The inverse of :func:`fix_to_data`; raises ``ValueError`` on anything else."""
    if not isinstance(data, list) or not all(
        isinstance(item, list)
        and len(item) == 3
        and isinstance(item[1], list)
        and all(type(p) in (str, int) for p in item[1])
        for item in data
    ):
        raise ValueError("not a fix")
    # Fix refuses an unknown op or an empty path
    return tuple(Fix(op, tuple(path), value) for op, path, value in data) or None


def fixes_of(obj: Any) -> list[Fix]:
    if isinstance(obj, Fix):
        return [obj]
    if isinstance(obj, (list, tuple)) and all(isinstance(x, Fix) for x in obj):
        return list(obj)
    return []


class FixError(Exception):
    """The file cannot be fixed safely (it is left alone)."""
