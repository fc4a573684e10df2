"""Carrying the changed hunks of a round trip back into the original text, touching only
the changed lines (comments, spacing and quoting of everything else are kept)."""

from __future__ import annotations

import difflib
import re

from . import FixError

_REFORMATTED = "the change falls in a part of the file the round trip reformats"


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _realign_comment(old: str, new: str) -> str:
    """Keep the gap before an end-of-line comment that both lines share (the dumper keeps
    the comment's old column, which leaves odd padding after a shorter value)."""
    idx = len(old)
    while True:
        idx = old.rfind("#", 0, idx)
        if idx <= 0:
            return new
        if old[idx - 1] in " \t":
            break
    suffix = old[idx:]
    if not new.endswith(suffix) or len(new) == len(suffix):
        return new
    code_old = old[:idx]
    gap = len(code_old) - len(code_old.rstrip())
    code_new = new[: len(new) - len(suffix)].rstrip()
    if not code_new.strip():
        return new
    return code_new + code_old[len(code_old.rstrip()) :][:gap] + suffix


def _replace_block(removed: list[str], added: list[str], realign: bool) -> list[str]:
    if realign and removed and added:
        added = list(added)
        matcher = difflib.SequenceMatcher(None, removed, added, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "replace":
                continue
            if i2 - i1 == j2 - j1:
                pairs = [(i1 + k, j1 + k) for k in range(i2 - i1)]
            else:  # pair lines that set the same key
                pairs, free = [], [i for i in range(i1, i2) if ":" in removed[i]]
                for j in range(j1, j2):
                    head = added[j].split(":", 1)[0]
                    i = next((i for i in free if removed[i].split(":", 1)[0] == head), None)
                    if i is not None:
                        free.remove(i)
                        pairs.append((i, j))
            for i, j in pairs:
                added[j] = _realign_comment(removed[i], added[j])
    # comment lines at the end of the removed block that belong to what follows it (indented
    # no deeper than the block's first line): a deletion must not take them along
    content = [i for i, line in enumerate(removed) if line.strip() and not _is_comment(line)]
    if not content:
        return added
    first_indent = _indent(removed[content[0]])
    tail = removed[content[-1] + 1 :]
    deep = [i for i, line in enumerate(tail) if _is_comment(line) and _indent(line) > first_indent]
    if deep:
        tail = tail[deep[-1] + 1 :]
    if not any(_is_comment(line) for line in tail) or any(
        line in added for line in tail if line.strip()
    ):
        return added
    return added + tail


def _region(mapped: dict, i1: int, i2: int, n_base: int, n_orig: int) -> tuple[int, int]:
    """The lines of the original that base lines [i1, i2) stand for."""
    if i1 in mapped and i1 < i2:
        start = mapped[i1]
    elif i1 - 1 in mapped:
        start = mapped[i1 - 1] + 1
    elif i1 == 0:
        start = 0
    else:
        raise FixError(_REFORMATTED)
    if i2 > i1 and i2 - 1 in mapped:
        end = mapped[i2 - 1] + 1
    elif i2 in mapped:
        end = mapped[i2]
    elif i2 == n_base:
        end = n_orig
    elif i2 == i1:
        end = start
    else:
        raise FixError(_REFORMATTED)
    return start, end


def _patch_line(orig: str, base: str, mod: str) -> str | None:
    """Apply the edit base→mod to ``orig``, a line that differs from ``base`` only in the
    amount of white space; None when the two lines are not alike in that way."""
    if orig.split() != base.split() or orig[:1].isspace() != base[:1].isspace():
        return None
    pb = [i for i, c in enumerate(base) if not c.isspace()]
    po = [i for i, c in enumerate(orig) if not c.isspace()]
    where = {b: o for b, o in zip(pb, po)}

    def at(i: int) -> int:
        if i in where:
            return where[i]
        prev = max((b for b in pb if b < i), default=None)
        nxt = min((b for b in pb if b >= i), default=None)
        pos = (where[prev] + 1 + (i - prev - 1)) if prev is not None else i
        limit = where[nxt] if nxt is not None else len(orig.rstrip("\r\n"))
        return min(pos, limit)

    out = orig
    ops = difflib.SequenceMatcher(None, base, mod, autojunk=False).get_opcodes()
    for tag, a1, a2, b1, b2 in reversed(ops):
        if tag != "equal":
            o1, o2 = at(a1), at(a2)
            if o2 < o1:
                return None
            out = out[:o1] + mod[b1:b2] + out[o2:]
    return out


_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?[^#\s][^:]*:(?:\s|$)")


def _line_map(o_lines: list[str], b_lines: list[str]) -> tuple[dict[int, int], dict[int, int]]:
    """Which original line each base line stands for: ``mapped`` (the same text) and
    ``loose`` (lines the round trip rewrote one for one)."""
    mapped: dict[int, int] = {}
    loose: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, o_lines, b_lines, autojunk=False
    ).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            (mapped if tag == "equal" else loose).update((j1 + k, i1 + k) for k in range(i2 - i1))
    return mapped, loose


def _respaced(o_lines, b_lines, m_lines, maps, span, realign: bool):
    """(start, end, new original lines): lines the round trip re-spaces (aligned values),
    the edit of each carried over character by character when its original is known."""
    mapped, loose = maps
    i1, i2, j1, _j2 = span
    origin = [mapped.get(i, loose.get(i)) for i in range(i1, i2)]
    if i2 - i1 == 1 and origin[0] is None:  # neighbours pin a single line down
        start = mapped[i1 - 1] + 1 if i1 - 1 in mapped else (0 if i1 == 0 else None)
        end = mapped[i2] if i2 in mapped else (len(o_lines) if i2 == len(b_lines) else None)
        origin = [start] if start is not None and end == start + 1 else [None]
    if None in origin or origin != list(range(origin[0], origin[0] + len(origin))):
        raise FixError(_REFORMATTED)
    lines = []
    for k, o in enumerate(origin):
        patched = _patch_line(o_lines[o], b_lines[i1 + k], m_lines[j1 + k])
        if patched is None:
            raise FixError(_REFORMATTED)
        lines.append(_realign_comment(o_lines[o], patched) if realign else patched)
    return origin[0], origin[-1] + 1, lines


def patch(orig: str, base: str, mod: str, realign: bool = True) -> str:
    """Carry the differences base→mod (two renderings by the same dumper) into ``orig``
    (which ``base`` renders, perhaps imperfectly), touching only the changed lines."""
    o_lines = orig.splitlines(keepends=True)
    b_lines = base.splitlines(keepends=True)
    m_lines = mod.splitlines(keepends=True)
    maps = _line_map(o_lines, b_lines)
    mapped = maps[0]
    out: list[str] = []
    pos = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, b_lines, m_lines, autojunk=False
    ).get_opcodes():
        if tag == "equal":
            continue
        lines = None
        if tag == "replace" and i2 - i1 == j2 - j1 and any(i not in mapped for i in range(i1, i2)):
            span = (i1, i2, j1, j2)
            start, end, lines = _respaced(o_lines, b_lines, m_lines, maps, span, realign)
        else:
            start, end = _region(mapped, i1, i2, len(b_lines), len(o_lines))
        if start < pos or end < start:
            raise FixError("overlapping changes")
        key = _KEY_LINE.match(o_lines[start]) if tag == "delete" and start < len(o_lines) else None
        if key:  # a deleted key takes the comment lines directly above it (at its indent) along
            above = start
            while (
                above > pos
                and _is_comment(o_lines[above - 1])
                and _indent(o_lines[above - 1]) == len(key.group(1))
            ):
                above -= 1
            start = above or start  # a comment block that opens the file is its header: it stays
        out.extend(o_lines[pos:start])
        if lines is None:
            lines = _replace_block(o_lines[start:end], m_lines[j1:j2], realign)
        out.extend(lines)
        pos = end
    out.extend(o_lines[pos:])
    return "".join(out)
