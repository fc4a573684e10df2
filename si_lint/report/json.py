"""`--format json` (SPEC §7; its fields: docs/integration.md; its JSON Schema:
``schemas/report.schema.json``). Written one diagnostic at a time: byte for byte what
``json.dumps(doc, indent=2, ensure_ascii=False)`` gives for the whole document, but with
DEL, C1 and the bidi controls as ``\\u`` escapes too (:func:`.controls.json_safe`).

A finding's ``fix``, as ruff writes it, is its fix applied alone to the file's text in memory
(what ``--fix`` runs), compared with the text; a file whose bytes are not the ones checked
(stdin, a file changed since) gives none."""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable
from functools import lru_cache

from .. import rule_url
from ..fix import FixError, fixes_of
from ..fix.files import fixable, is_safe, read_text
from ..fix.text import fix_scalars_in_place, fix_stream, lines_of
from ..source import SourceCache, token_end
from .controls import json_safe
from .text import code_counts, summary_counts


def diagnostic(f, cache: SourceCache, fix_of) -> dict:
    out = f.as_json()
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        src = cache.line(f.path, f.line)
        if src is not None:
            end_line, end_col = f.line, token_end(src, f.column)
    if end_line is not None and end_col is not None:
        out["end_line"] = int(end_line)
        out["end_column"] = int(end_col)
    out["url"] = rule_url(f.code)
    fix = fix_of(f) if f.fix is not None else None
    if fix is not None:
        out["fix"] = fix
    return out


def dump_items(items, out, indent: str, *, sort_keys: bool = False) -> None:
    """A JSON array of ``items`` (each dumped alone) written to ``out`` as
    ``json.dumps(..., indent=2)`` writes it ``indent`` deep: ``[]`` when empty."""
    first = True
    inner = indent + "  "
    for item in items:
        text = json.dumps(item, indent=2, sort_keys=sort_keys, ensure_ascii=False)
        out.write(("[\n" if first else ",\n") + inner + json_safe(text.replace("\n", "\n" + inner)))
        first = False
    out.write("[]" if first else "\n" + indent + "]")


def write(result, out, statistics: bool = False, unsafe_fixes: bool = False, **_options) -> None:
    out.write('{\n  "version": 1,\n')
    if statistics:
        fixable_codes = {f.code for f in result.findings if fixable(f, unsafe_fixes)}
        out.write('  "statistics": ')
        stats = (
            {"code": code, "name": name, "count": n, "fixable": code in fixable_codes}
            for code, n, name in code_counts(result.findings)
        )
        dump_items(stats, out, "  ")
    else:
        cache = SourceCache()
        fix_of = fix_edits(getattr(result, "corpus", None))
        out.write('  "diagnostics": ')
        dump_items((diagnostic(f, cache, fix_of) for f in result.findings), out, "  ")
    summary = {"files": result.files, **summary_counts(result.findings)}
    text = json.dumps({"summary": summary}, indent=2, ensure_ascii=False)
    out.write(",\n" + text[2:] + "\n")


def fix_edits(corpus) -> Callable:
    """``edit(f)``: a finding's ``fix``, or None (findings come by path: one file is kept)."""

    @lru_cache(maxsize=1)
    def read(path: str) -> str | None:
        try:
            return read_text(path, corpus, checked=True)[1]
        except FixError:  # not the text checked (stdin's, or the file changed since): no edits
            return None

    def edit(f) -> dict | None:
        fixes = fixes_of(f.fix)
        text = read(f.path) if fixes else None
        if text is None:
            return None
        json_file = f.path.endswith(".json")
        # in place when only scalars change (quick), else by --fix's way
        new = None if json_file else fix_scalars_in_place(text, f.document, fixes)
        if new is None:
            try:
                new = fix_stream(text, {f.document: fixes}, json_file=json_file)[0]
            except Exception:  # FixError, or a fix the file cannot take: --fix skips it too
                return None
        if new == text:
            return None
        return {
            "applicability": "safe" if is_safe(f) else "unsafe",
            "message": f.help or None,
            "edits": edits(text, new),
        }

    return edit


def edits(old: str, new: str) -> list[dict]:
    a, b = lines_of(old), lines_of(new)
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


def _location(row: int, before: str) -> dict:
    """Where ``before`` (text from the start of line ``row``, 0-based) ends."""
    return {"row": row + 1 + before.count("\n"), "column": len(before) - before.rfind("\n")}
