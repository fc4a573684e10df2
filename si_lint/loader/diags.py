"""The loader's findings (SI001, SI002, SI003, SI005–SI008), each message built here once,
at ``line``/``col`` (1-based, inside the file): the loader has no document path for them."""

from __future__ import annotations

from ..findings import Diag, Related
from ..limits import MAX_ALIAS_NODES, MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, MAX_NODES

CODES = ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007", "SI008")

_SPLIT = "split the file; scenario documents are small"


def _at(code: str, message: str, line: int, col: int, help_: str | None = None, **kw) -> Diag:
    return Diag(code, (), message, line=line, col=col, help=help_, **kw)


def invalid_yaml(problem: str, line: int, col: int) -> Diag:
    # the parsers' problem names the character '\t' at a tab
    tab = "YAML forbids tabs for indentation; use spaces" if "'\\t'" in problem else None
    return _at("SI001", f"invalid YAML: {problem}", line, col, tab)


def glued_comment(line: int, col: int, *, with_help: bool = True) -> Diag:
    message = "invalid YAML: a comment needs white space before its `#`"
    return _at("SI001", message, line, col, "put a space before `#`" if with_help else None)


def directive_after_document(line: int) -> Diag:
    message = (
        "invalid YAML: a directive after a document needs the document end marker `...` before it"
    )
    return _at("SI001", message, line, 1, "add a line `...` before the directive")


def unknown_alias(anchor: str, line: int, col: int) -> Diag:
    return _at("SI001", f"unknown alias *{anchor}", line, col)


def duplicate_key(key: str, first: tuple[int, int] | None, line: int, col: int) -> Diag:
    """SI002 at the second occurrence; the first (when known) is its related location
    (``file=""``: this file, filled in when the finding is located)."""
    where = f" (first at line {first[0]}, column {first[1]})" if first else ""
    related = (Related("", None, "first", line=first[0], col=first[1]),) if first else ()
    help_ = "remove one of the two keys; YAML readers disagree on which wins"
    return _at("SI002", f"duplicate mapping key {key!r}{where}", line, col, help_, related=related)


def complex_key(line: int, col: int) -> Diag:
    message = "complex mapping key (a mapping or list used as a key) is not allowed"
    return _at("SI003", message, line, col)


def too_large() -> Diag:
    message = f"file is larger than the {MAX_BYTES:,}-byte safety limit; not read"
    return _at("SI005", message, 1, 1, _SPLIT)


def too_deep(line: int, col: int) -> Diag:
    message = f"nesting deeper than {MAX_DEPTH} levels; not read"
    return _at("SI005", message, line, col, "flatten the document")


def too_many_nodes(line: int, col: int) -> Diag:
    message = f"more than {MAX_NODES:,} nodes (values, keys, list items) in one file; not read"
    return _at("SI005", message, line, col, _SPLIT)


def alias_bomb(line: int, col: int) -> Diag:
    message = f"alias expansion exceeds {MAX_ALIAS_NODES:,} nodes (an alias bomb?); not read"
    return _at("SI005", message, line, col, "avoid aliases that expand recursively")


def huge_int(text: str, line: int, col: int) -> Diag:
    message = (
        f"integer literal of {len(text):,} characters is over the "
        f"{MAX_INT_DIGITS:,}-digit safety limit; read as a string"
    )
    return _at("SI005", message, line, col, "no scenario value needs an integer this long")


def not_utf8(byte: int, offset: int, line: int, col: int) -> Diag:
    message = f"file is not UTF-8: byte 0x{byte:02x} at offset {offset} cannot be decoded"
    return _at("SI006", message, line, col, "re-encode the file as UTF-8")


def lone_surrogate(line: int, col: int) -> Diag:
    message = (
        "string holds a lone surrogate (an escape such as `\\ud800`), which "
        "is not a character and cannot be written as UTF-8; read as U+FFFD"
    )
    help_ = "remove the escape, or write the character it stands for"
    return _at("SI006", message, line, col, help_)


def non_core_tag(tag: str, line: int, col: int) -> Diag:
    message = f"YAML tag {tag!r} is outside the YAML 1.2 core schema and is not accepted"
    return _at("SI007", message, line, col, "remove the tag; si-lint reads plain data only")


def tag_mismatch(value: str, kind: str, line: int, col: int) -> Diag:
    return _at("SI007", f"value {value!r} does not fit its tag !!{kind}", line, col)


def marker_in_scalar(kind: str, line: int, col: int) -> Diag:
    message = (
        f"a line `---` inside a {kind}: oasisctl splits the file there, so "
        "it reads this document differently than YAML does"
    )
    help_ = "reword the line (e.g. `- - -` or `───`), or indent it with other text on the line"
    return _at("SI008", message, line, col, help_)
