"""Source text of reported files and token ends (shared by the reports and ``--fix``)."""

from __future__ import annotations

import functools
import re

from .fsutil import read_regular

#: at most this much of a reported file is read for source lines
MAX_SOURCE = 6 * 1024 * 1024


def read_source(path: str, *, follow_symlinks: bool = True) -> bytes | None:
    """None for anything but a regular file (never opened: a report never blocks)."""
    return read_regular(path, MAX_SOURCE - 1, follow=follow_symlinks)[0]


def _lines(path: str) -> list[str] | None:
    raw = read_source(path, follow_symlinks=False)
    if raw is None:
        return None
    return [ln.rstrip("\r") for ln in raw.decode("utf-8", "replace").split("\n")]


class SourceCache:
    """Lines of the 16 reported files used last. A link is never read (a link that leaves
    the corpus must never be printed: SPEC §9 "Trust boundaries")."""

    def __init__(self) -> None:
        self.lines = functools.lru_cache(maxsize=16)(_lines)

    def line(self, path: str, line: int) -> str | None:
        lines = self.lines(path)
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


#: a quoted scalar (``''`` in single quotes, a backslash and the next character in double
#: quotes escape); possessive, so an unclosed one runs to the end of the line
_QUOTED = {"'": re.compile(r"'(?:[^']|'')*+'"), '"': re.compile(r'"(?:[^"\\]|\\.)*+"', re.S)}

#: what ends a plain scalar: a ``:`` before a blank or the end, a comment; inside a flow
#: collection also ``,``, ``]`` and ``}``
_PLAIN_END = re.compile(r":(?=[ \t]|\Z)|[ \t]#")
_FLOW_PLAIN_END = re.compile(r":(?=[ \t]|\Z)|[ \t]#|[,\]}]")


def token_end(src: str | None, col: int) -> int:
    """The exclusive, 1-based end column of the YAML token that starts at ``col``."""
    if src is None or not 1 <= col <= len(src):
        return col + 1
    i = col - 1
    ch = src[i]
    if ch in "\"'":
        m = _QUOTED[ch].match(src, i)
        return m.end() + 1 if m else len(src) + 1
    if ch in "[{":  # a flow collection: to its matching bracket on this line
        depth = 0
        for j in range(i, len(src)):
            if src[j] in "[{":
                depth += 1
            elif src[j] in "]}":
                depth -= 1
                if depth == 0:
                    return j + 2
        return len(src.rstrip()) + 1
    if ch == "-" and (i + 1 == len(src) or src[i + 1] == " "):
        return max(len(src.rstrip()) + 1, col + 1)
    in_flow = sum((c in "[{") - (c in "]}") for c in src[:i]) > 0
    m = (_FLOW_PLAIN_END if in_flow else _PLAIN_END).search(src, i)
    return max(len(src[: m.start() if m else len(src)].rstrip()) + 1, col + 1)


def finding_end(
    src: str | None, line: int, col: int, end_line: int | None = None, end_col: int | None = None
) -> tuple[int, int]:
    """A finding's end (exclusive column, code points): its own when after its start, else
    the token's. The editor and the JSON, SARIF and GitHub reports all use it."""
    if end_line is None or end_col is None or (end_line, end_col) <= (line, col):
        return line, token_end(src, col)
    return end_line, end_col
