"""The loader's findings (SI001, SI002, SI003, SI005–SI008), each message built here once,
at ``line``/``col`` (1-based, inside the file): the loader has no document path for them."""

from __future__ import annotations

from ..findings import Diag, Related
from ..limits import MAX_ALIAS_NODES, MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, MAX_NODES

CODES = ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007", "SI008")

_SPLIT = "split the file; scenario documents are small"
_GLUED = "invalid YAML: a comment needs white space before its `#`"
#: name → (code, message, help); the message's ``{fields}`` come from :func:`diag`'s keywords
_DIAGS = {
    "glued_comment": ("SI001", _GLUED, "put a space before `#`"),
    "glued_header": ("SI001", _GLUED, None),
    "directive_after_document": (
        "SI001",
        "invalid YAML: a directive after a document needs the document end marker `...` before it",
        "add a line `...` before the directive",
    ),
    "unknown_alias": ("SI001", "unknown alias *{anchor}", None),
    "complex_key": (
        "SI003",
        "complex mapping key (a mapping or list used as a key) is not allowed",
        None,
    ),
    "too_large": (
        "SI005",
        f"file is larger than the {MAX_BYTES:,}-byte safety limit; not read",
        _SPLIT,
    ),
    "too_deep": (
        "SI005",
        f"nesting deeper than {MAX_DEPTH} levels; not read",
        "flatten the document",
    ),
    "too_many_nodes": (
        "SI005",
        f"more than {MAX_NODES:,} nodes (values, keys, list items) in one file; not read",
        _SPLIT,
    ),
    "alias_bomb": (
        "SI005",
        f"alias expansion exceeds {MAX_ALIAS_NODES:,} nodes (an alias bomb?); not read",
        "avoid aliases that expand recursively",
    ),
    "huge_int": (
        "SI005",
        f"integer literal of {{digits:,}} characters is over the {MAX_INT_DIGITS:,}-digit "
        "safety limit; read as a string",
        "no scenario value needs an integer this long",
    ),
    "not_utf8": (
        "SI006",
        "file is not UTF-8: byte 0x{byte:02x} at offset {offset} cannot be decoded",
        "re-encode the file as UTF-8",
    ),
    "lone_surrogate": (
        "SI006",
        "string holds a lone surrogate (an escape such as `\\ud800`), which is not a character "
        "and cannot be written as UTF-8; read as U+FFFD",
        "remove the escape, or write the character it stands for",
    ),
    "non_core_tag": (
        "SI007",
        "YAML tag {tag!r} is outside the YAML 1.2 core schema and is not accepted",
        "remove the tag; si-lint reads plain data only",
    ),
    "tag_mismatch": ("SI007", "value {value!r} does not fit its tag !!{kind}", None),
    "marker_in_scalar": (
        "SI008",
        "a line `---` inside a {kind}: oasisctl splits the file there, so it reads this "
        "document differently than YAML does",
        "reword the line (e.g. `- - -` or `───`), or indent it with other text on the line",
    ),
}


def diag(name: str, line: int = 1, col: int = 1, **fields) -> Diag:
    code, message, help_ = _DIAGS[name]
    return Diag(code, (), message.format(**fields), line=line, col=col, help=help_)


def invalid_yaml(problem: str, line: int, col: int) -> Diag:
    # the parsers' problem names the character '\t' at a tab
    tab = "YAML forbids tabs for indentation; use spaces" if "'\\t'" in problem else None
    return Diag("SI001", (), f"invalid YAML: {problem}", line=line, col=col, help=tab)


def duplicate_key(key: str, first: tuple[int, int] | None, line: int, col: int) -> Diag:
    """SI002 at the second occurrence; the first (when known) is its related location
    (``file=""``: this file, filled in when the finding is located)."""
    where = f" (first at line {first[0]}, column {first[1]})" if first else ""
    related = (Related("", None, "first", line=first[0], col=first[1]),) if first else ()
    help_ = "remove one of the two keys; YAML readers disagree on which wins"
    message = f"duplicate mapping key {key!r}{where}"
    return Diag("SI002", (), message, line=line, col=col, help=help_, related=related)
