"""The loader's findings (SI001, SI002, SI003, SI005–SI008), each message built here once.

Every function returns a :class:`~si_lint.findings.Diag` with ``line``/``col`` (1-based,
inside the file): the loader has no document path for them."""

from __future__ import annotations

from ..findings import Diag, Related
from ..limits import MAX_ALIAS_NODES, MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, MAX_NODES

CODES = ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007", "SI008")

_GLUED = "invalid YAML: a comment needs white space before its `#`"


#: the help of a parse error at a tab (the parsers' problem names the character '\t')
TAB_HELP = "YAML forbids tabs for indentation; use spaces"


def invalid_yaml(problem: str, line: int, col: int) -> Diag:
    help_ = TAB_HELP if "'\\t'" in problem else None
    return Diag("SI001", (), f"invalid YAML: {problem}", line=line, col=col, help=help_)


def glued_comment(line: int, col: int, *, with_help: bool = True) -> Diag:
    return Diag(
        "SI001",
        (),
        _GLUED,
        line=line,
        col=col,
        help="put a space before `#`" if with_help else None,
    )


def directive_after_document(line: int) -> Diag:
    return Diag(
        "SI001",
        (),
        "invalid YAML: a directive after a document needs the document end marker `...` before it",
        line=line,
        col=1,
        help="add a line `...` before the directive",
    )


def unknown_alias(anchor: str, line: int, col: int) -> Diag:
    return Diag("SI001", (), f"unknown alias *{anchor}", line=line, col=col)


def duplicate_key(key: str, first: tuple[int, int] | None, line: int, col: int) -> Diag:
    """SI002 at the second occurrence; the first (when known) is its related location
    (``file=""``: this file, filled in when the finding is located)."""
    where = f" (first at line {first[0]}, column {first[1]})" if first else ""
    related = (Related("", None, "first", line=first[0], col=first[1]),) if first else ()
    return Diag(
        "SI002",
        (),
        f"duplicate mapping key {key!r}{where}",
        line=line,
        col=col,
        help="remove one of the two keys; YAML readers disagree on which wins",
        related=related,
    )


def complex_key(line: int, col: int) -> Diag:
    return Diag(
        "SI003",
        (),
        "complex mapping key (a mapping or list used as a key) is not allowed",
        line=line,
        col=col,
    )


def too_large() -> Diag:
    return Diag(
        "SI005",
        (),
        f"file is larger than the {MAX_BYTES:,}-byte safety limit; not read",
        line=1,
        col=1,
        help="split the file; scenario documents are small",
    )


def too_deep(line: int, col: int) -> Diag:
    return Diag(
        "SI005",
        (),
        f"nesting deeper than {MAX_DEPTH} levels; not read",
        line=line,
        col=col,
        help="flatten the document",
    )


def too_many_nodes(line: int, col: int) -> Diag:
    return Diag(
        "SI005",
        (),
        f"more than {MAX_NODES:,} nodes (values, keys, list items) in one file; not read",
        line=line,
        col=col,
        help="split the file; scenario documents are small",
    )


def alias_bomb(line: int, col: int) -> Diag:
    return Diag(
        "SI005",
        (),
        f"alias expansion exceeds {MAX_ALIAS_NODES:,} nodes (an alias bomb?); not read",
        line=line,
        col=col,
        help="avoid aliases that expand recursively",
    )


def huge_int(text: str, line: int, col: int) -> Diag:
    return Diag(
        "SI005",
        (),
        f"integer literal of {len(text):,} characters is over the "
        f"{MAX_INT_DIGITS:,}-digit safety limit; read as a string",
        line=line,
        col=col,
        help="no scenario value needs an integer this long",
    )


def not_utf8(byte: int, offset: int, line: int, col: int) -> Diag:
    return Diag(
        "SI006",
        (),
        f"file is not UTF-8: byte 0x{byte:02x} at offset {offset} cannot be decoded",
        line=line,
        col=col,
        help="re-encode the file as UTF-8",
    )


def lone_surrogate(line: int, col: int) -> Diag:
    return Diag(
        "SI006",
        (),
        "string holds a lone surrogate (an escape such as `\\ud800`), which "
        "is not a character and cannot be written as UTF-8; read as U+FFFD",
        line=line,
        col=col,
        help="remove the escape, or write the character it stands for",
    )


def non_core_tag(tag: str, line: int, col: int) -> Diag:
    return Diag(
        "SI007",
        (),
        f"YAML tag {tag!r} is outside the YAML 1.2 core schema and is not accepted",
        line=line,
        col=col,
        help="remove the tag; si-lint reads plain data only",
    )


def tag_mismatch(value: str, kind: str, line: int, col: int) -> Diag:
    return Diag("SI007", (), f"value {value!r} does not fit its tag !!{kind}", line=line, col=col)


def marker_in_scalar(kind: str, line: int, col: int) -> Diag:
    return Diag(
        "SI008",
        (),
        f"a line `---` inside a {kind}: oasisctl splits the file there, so "
        "it reads this document differently than YAML does",
        line=line,
        col=col,
        help="reword the line (e.g. `- - -` or `───`), or indent it with other text on the line",
    )
