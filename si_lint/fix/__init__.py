"""Safe fixes: the data a check attaches to a finding (``Diag(fix=...)``) and ``--fix``/``--diff``.

A :class:`Fix` is plain data -- an operation on one document path -- so checks stay pure:

- ``Fix("set", path, value)``       replace the value at ``path`` (a mapping key or a list index);
                                    a list value replaces a list's items in place (flow style and
                                    comments of the list survive), a string keeps the old quoting
- ``Fix("delete", path)``           remove the key (or list item) at ``path``
- ``Fix("replace_item", path, v)``  alias of ``set`` for a list item
- ``Fix("set_list", path, items)``  alias of ``set`` for a whole list
- ``Fix("rename_key", path, name)`` rename the mapping key at ``path`` in place (order kept)
- ``Fix("lift", path)``             replace the mapping key at ``path`` by the items of its
                                    mapping value, where it stood (their comments kept); nothing
                                    is done when a lifted key already exists beside it

Checks build them with the factories :func:`set_value`, :func:`delete_key`,
:func:`replace_item`, :func:`set_list` and :func:`rename_key` (or ``Fix("lift", path)``).
``Diag.fix`` may also hold a tuple of ``Fix`` when one finding needs several edits. Paths
are document paths as in ``si_lint.findings`` (tuples of ``str`` keys and ``int`` list
indexes), always into the document the finding is reported on.

The package: :mod:`.model` (``Fix`` and its JSON form), :mod:`.apply` (a fix applied to a
loaded document), :mod:`.roundtrip` (the two renderings of a file), :mod:`.patch` (their
difference carried back into the original text), :mod:`.text` (:func:`fix_text`,
:func:`fix_stream`) and :mod:`.files` (``--fix``/``--diff`` over the files).
"""

from .model import (
    OPS,
    Fix,
    FixError,
    delete_key,
    fix_from_data,
    fix_to_data,
    fixes_of,
    rename_key,
    replace_item,
    set_list,
    set_value,
)

#: what the package gives from its heavier modules, imported on first use: the checks
#: build fixes (``model``) on every run, ``--fix`` and the reports apply them
_LAZY = {
    "apply_to": "apply",
    "SAFE_FIX_CODES": "files",
    "UNSAFE_FIX_CODES": "files",
    "FixReport": "files",
    "fix_files": "files",
    "fixable": "files",
    "is_safe": "files",
    "plan": "files",
    "fix_stream": "text",
    "fix_text": "text",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "OPS",
    "SAFE_FIX_CODES",
    "UNSAFE_FIX_CODES",
    "Fix",
    "FixError",
    "FixReport",
    "apply_to",
    "delete_key",
    "fix_files",
    "fix_from_data",
    "fix_stream",
    "fix_text",
    "fix_to_data",
    "fixable",
    "fixes_of",
    "is_safe",
    "plan",
    "rename_key",
    "replace_item",
    "set_list",
    "set_value",
]
