"""Safe fixes: the data a check attaches to a finding (``Diag(fix=...)``) and ``--fix``/``--diff``.

A :class:`Fix` is plain data -- an operation on one document path -- so checks stay pure:

- ``Fix("set", path, value)``       replace the value at ``path`` (a mapping key or a list index);
                                    a list value replaces a list's items in place (flow style and
                                    comments of the list survive), a string keeps the old quoting
- ``Fix("delete", path)``           remove the key (or list item) at ``path``
- ``Fix("replace_item", path, v)``  alias of ``set`` for a list item
- ``Fix("set_list", path, items)``  alias of ``set`` for a whole list
- ``Fix("rename_key", path, name)`` rename the mapping key at ``path`` in place (order kept)

Checks build them with the factories :func:`set_value`, :func:`delete_key`,
:func:`replace_item`, :func:`set_list` and :func:`rename_key`. ``Diag.fix`` may also hold a
tuple of ``Fix`` when one finding needs several edits. Paths are document paths as in
``si_lint.findings`` (tuples of ``str`` keys and ``int`` list indexes), always into the
document the finding is reported on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPS = ("set", "delete", "replace_item", "set_list", "rename_key")


@dataclass(frozen=True, eq=True)
class Fix:
    """One safe, data-only rewrite of one document path."""

    op: str
    path: tuple
    value: Any = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown fix op {self.op!r} (one of {', '.join(OPS)})")
        object.__setattr__(self, "path", tuple(self.path))
        if not self.path:
            raise ValueError("a fix needs a non-empty document path")

    __hash__ = None  # value may be a list


def set_value(path, value: Any) -> Fix:
    return Fix("set", tuple(path), value)


def delete_key(path) -> Fix:
    return Fix("delete", tuple(path))


def replace_item(path, value: Any) -> Fix:
    return Fix("replace_item", tuple(path), value)


def set_list(path, items) -> Fix:
    return Fix("set_list", tuple(path), list(items))


def rename_key(path, name: str) -> Fix:
    return Fix("rename_key", tuple(path), name)


def fixes_of(obj: Any) -> list[Fix]:
    """The ``Fix`` objects a finding carries (``None``, one ``Fix`` or a sequence of them)."""
    if isinstance(obj, Fix):
        return [obj]
    if isinstance(obj, (list, tuple)) and all(isinstance(x, Fix) for x in obj):
        return list(obj)
    return []


def apply_fixes(result, *, write: bool, show_diff: bool, rerun, diff_stream=None):
    """Placeholder until the round-trip writer lands: nothing is changed."""
    return result
