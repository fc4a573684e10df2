"""A text libyaml rejected, read by ruamel's pure-Python parser (about a megabyte a second)
at the speed of its structure, not of its length: the parser is asked first about a text
whose runs of more than :data:`LONG` ASCII letters have their middle replaced by
:data:`MARK` letters spelling its digest (runs that differ stay different). Letters cannot
end, start or break a token, and a shortened run is still longer than YAML's 1,024-character
simple key, so only the columns after a run move, and the error's marks are moved back.
When that parser *reads* the shortened text, or stops on anything but a parse error with
marks, or its message could hold a shortened run, or an indentation past :data:`INDENT`
could cross a moved column, the whole text is read: the answer is always the whole text's."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

#: a run of ASCII letters longer than this is shortened
LONG = 4096
#: letters kept at each end of a shortened run
KEEP = 1100
#: letters that stand for a run's middle (a sha256 digest, hex digits as letters)
MARK = 64
#: no text is shortened where a line has this many characters before its first word
#: character or quote: an indentation that deep could lie between a column and its move
INDENT = 1024

_RUN = re.compile(f"[A-Za-z]{{{LONG + 1},}}")
_DEEP = re.compile(f"^[^\\w\\n'\"]{{{INDENT}}}", re.M)
#: what a parser message holding a shortened run holds
LETTERS = re.compile(f"[A-Za-z]{{{KEEP}}}")
_AS_LETTERS = str.maketrans("0123456789", "ghijklmnop")


@dataclass
class Short:
    """``cuts``: (start of a digest in ``text``, characters removed there), in order."""

    text: str
    cuts: list[tuple[int, int]]

    def moved(self, mark) -> bool:
        """Move a parser mark of the shortened text to the whole text's place (its index
        and column; lines do not move). False where the mark lies in a run's digest or
        kept end (no error stops there: the caller reads the whole text)."""
        index = mark.index
        line_start = max(self.text.rfind("\n", 0, index), self.text.rfind("\r", 0, index))
        shift = column = 0
        for start, removed in self.cuts:
            if start >= index:
                break
            if index < start + MARK + KEEP:
                return False
            shift += removed
            if start > line_start:
                column += removed
        mark.index += shift
        mark.column += column
        return True


def shorten(text: str) -> Short | None:
    """``text`` with its long runs of letters shortened, or None when it has none or may
    not be shortened (line breaks other than ``\\n`` and ``\\r`` count differently for
    YAML 1.1 than for 1.2; an indentation past :data:`INDENT`)."""
    if _RUN.search(text) is None:
        return None
    if any(c in text for c in "\x85\u2028\u2029") or _DEEP.search(text):
        return None
    parts: list[str] = []
    cuts: list[tuple[int, int]] = []
    done = size = 0
    for m in _RUN.finditer(text):
        run = m.group()
        middle = run[KEEP:-KEEP]
        digest = hashlib.sha256(middle.encode()).hexdigest().translate(_AS_LETTERS)
        parts += (text[done : m.start()], run[:KEEP], digest, run[-KEEP:])
        size += m.start() - done + KEEP
        cuts.append((size, len(middle) - MARK))
        size += MARK + KEEP
        done = m.end()
    parts.append(text[done:])
    return Short("".join(parts), cuts)
