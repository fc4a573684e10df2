"""The ``fix`` of a finding in `--format json`, as ruff writes it (docs/integration.md):
the finding's fix applied alone to the file's text in memory (what ``--fix`` runs),
compared with the text. A file whose bytes are not the ones checked (stdin, a file
changed since) gives no ``fix``."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable
from functools import lru_cache, partial

from ..fix.files import is_safe, read_text
from ..fix.model import FixError, fixes_of
from ..fix.text import fix_scalars_in_place, fix_stream


def fix_edits(corpus) -> Callable:
    """``edit(f)``: a finding's ``fix``, or None (findings come by path: one file is kept)."""
    read = lru_cache(maxsize=1)(partial(_read_text, corpus))

    def edit(f) -> dict | None:
        fixes = fixes_of(f.fix)
        text = read(f.path) if fixes else None
        if text is None:
            return None
        new = _fixed(text, f, fixes)
        if new is None or new == text:
            return None
        return {
            "applicability": "safe" if is_safe(f) else "unsafe",
            "message": f.help or None,
            "edits": edits(text, new),
        }

    return edit


def _fixed(text: str, f, fixes: list) -> str | None:
    """The fixed text (in place when only scalars change: two quick loads, else by the
    round trip ``--fix`` runs); None when the fix does not apply."""
    json_file = f.path.endswith(".json")
    if not json_file:
        new = fix_scalars_in_place(text, f.document, fixes)
        if new is not None:
            return new
    try:
        new, applied = fix_stream(text, {f.document: fixes}, json_file=json_file)
    except Exception:  # FixError, or a fix the file cannot take: --fix skips it too
        return None
    return new if applied else None


def _read_text(corpus, path: str) -> str | None:
    try:
        return read_text(path, corpus, checked=True)[1]
    except FixError:  # not the text checked (stdin's, or the file changed since): no edits
        return None


def edits(old: str, new: str) -> list[dict]:
    a, b = _lines(old), _lines(new)
    out = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        was, now = "".join(a[i1:i2]), "".join(b[j1:j2])
        head = _shared(was, now, len(was))
        tail = _shared(was[::-1], now[::-1], min(len(was), len(now)) - head)
        start = _location(i1, was[:head])
        end = _location(i1, was[: len(was) - tail])
        out.append({"content": now[head : len(now) - tail], "location": start, "end_location": end})
    return out


def _shared(a: str, b: str, limit: int) -> int:
    """How many of their first ``limit`` characters ``a`` and ``b`` share, less a word cut
    in two: a word is replaced whole (`false` → `true`, not `fals` → `tru`)."""
    n = len(os.path.commonprefix([a[:limit], b[:limit]]))
    while n and _word(a, n - 1) and (_word(a, n) or _word(b, n)):
        n -= 1
    return n


def _word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] == "_")


def _lines(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+", text)


def _location(row: int, before: str) -> dict:
    """Where ``before`` (text from the start of line ``row``, 0-based) ends."""
    return {"row": row + 1 + before.count("\n"), "column": len(before) - before.rfind("\n")}
