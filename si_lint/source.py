"""Source text of reported files and token ends (shared by the reports and ``--fix``).

:class:`SourceCache` reads each reported file once (keeping the few in use); :func:`token_end` finds where the YAML
token that starts at a column ends (for end positions in SARIF, GitHub and JSON)."""

from __future__ import annotations

#: at most this much of a reported file is read for source lines
MAX_SOURCE = 6 * 1024 * 1024


def read_source(path: str, *, follow_symlinks: bool = True) -> bytes | None:
    """The first bytes of a regular file (None for anything else: a FIFO, a device, a
    directory or an unreadable path is never opened, so a report never blocks; with
    ``follow_symlinks=False`` a symbolic link is not followed either)."""
    from .fsutil import read_regular

    raw, _why = read_regular(path, MAX_SOURCE - 1, follow=follow_symlinks)
    return raw


class SourceCache:
    """Lines of the reported files, read once while they are in use (``None`` for a file
    that cannot be read): the ``keep`` files used last are kept, so a report over a large
    corpus holds a few files' lines, not the corpus (the reports go through the findings
    file by file). ``follow_symlinks=False`` (the default): a link is never read (the text
    report prints the lines, and a link that leaves the corpus must never be printed nor
    read: SI010 points at a profile's link that leads out of it, SPEC §9 "Trust
    boundaries")."""

    def __init__(self, *, follow_symlinks: bool = False, keep: int = 16) -> None:
        self._lines: dict[str, list[str] | None] = {}
        self._follow = follow_symlinks
        self._keep = max(keep, 1)
        self._last: str | None = None

    def lines(self, path: str) -> list[str] | None:
        if path == self._last:
            return self._lines[path]
        if path in self._lines:
            lines = self._lines[path] = self._lines.pop(path)  # the most recently used
        else:
            raw = read_source(path, follow_symlinks=self._follow)
            lines = None
            if raw is not None:
                text = raw.decode("utf-8", "replace")
                lines = [ln.rstrip("\r") for ln in text.split("\n")]
            self._lines[path] = lines
            if len(self._lines) > self._keep:
                del self._lines[next(iter(self._lines))]  # the least recently used
        self._last = path
        return lines

    def line(self, path: str, line: int) -> str | None:
        lines = self.lines(path)
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


def token_end(src: str | None, col: int) -> int:
    """The (exclusive, 1-based) end column of the YAML token that starts at ``col``:
    a quoted scalar to its closing quote, a key to its ``:``, a plain scalar to the end of
    the line (before a comment) or to the flow indicator that ends it."""
    if src is None or not 1 <= col <= len(src):
        return col + 1
    i = col - 1
    ch = src[i]
    if ch in "\"'":
        j = i + 1
        while j < len(src):
            if src[j] == ch:
                if ch == "'" and j + 1 < len(src) and src[j + 1] == "'":
                    j += 2
                    continue
                return j + 2
            if ch == '"' and src[j] == "\\":
                j += 1
            j += 1
        return len(src) + 1
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
    j = i
    while j < len(src):
        c = src[j]
        if c == ":" and (j + 1 == len(src) or src[j + 1] in " \t"):
            break
        if c == "#" and j > i and src[j - 1] in " \t":
            break
        if c in ",]}" and _in_flow(src, i):
            break
        j += 1
    end = len(src[:j].rstrip()) + 1
    return max(end, col + 1)


def _in_flow(src: str, upto: int) -> bool:
    depth = 0
    for c in src[:upto]:
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
    return depth > 0
