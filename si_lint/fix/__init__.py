"""Safe fixes: the data a check attaches to a finding (``Diag(fix=...)``) and ``--fix``/``--diff``.

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

from .files import SAFE_FIX_CODES, UNSAFE_FIX_CODES, fix_files, fixable, is_safe
from .model import (
    Fix,
    FixError,
    delete_key,
    fix_from_data,
    fix_to_data,
    fixes_of,
    rename_key,
    set_value,
)
from .text import fix_stream, fix_text

__all__ = [
    "SAFE_FIX_CODES",
    "UNSAFE_FIX_CODES",
    "Fix",
    "FixError",
    "delete_key",
    "fix_files",
    "fix_from_data",
    "fix_stream",
    "fix_text",
    "fix_to_data",
    "fixable",
    "fixes_of",
    "is_safe",
    "rename_key",
    "set_value",
]
