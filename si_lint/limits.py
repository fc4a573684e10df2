"""The safety limits, in one place, for every input path (issue 11; SPEC §9).

Everything si-lint reads may come from a stranger's pull request: a corpus file, a
profile, evidence (``.yaml``/``.json``/``.jsonl``, one line at a time), an EIO input, a
language-server buffer. Each of them goes through :func:`read_input` (regular files only,
never more than :data:`MAX_BYTES` + 1 bytes) or :func:`check_text`, and then through the
loader (:mod:`si_lint.loader`) or :func:`parse_json`, which enforce depth, alias expansion
and number size while parsing. Findings of these limits are SI005.
"""

from __future__ import annotations

import json
from typing import Any

#: the largest file (or buffer, or ``.jsonl`` line) read, in bytes
MAX_BYTES = 5 * 1024 * 1024
#: the deepest nesting of mappings and lists
MAX_DEPTH = 64
#: the most nodes (scalars, mappings, lists; aliases count what they expand to) in one file
MAX_NODES = 50_000
#: the most nodes aliases may expand to (a "billion laughs" file)
MAX_ALIAS_NODES = 10_000
#: the most digits of an integer literal (Python's own default for int/str conversion);
#: a longer one is kept as its text, with an SI005 finding
MAX_INT_DIGITS = 4_300
#: findings reported for one file; the rest are counted in one SI005 finding
MAX_FINDINGS_PER_FILE = 1_000
#: the most findings the cache stores for one run (per-file entries and the corpus-wide
#: entry each): a run with more is checked again next time rather than read back whole
#: from a cache file of hundreds of megabytes (SPEC §9 "Output is bounded")
MAX_CACHED_FINDINGS = 100_000
#: a profile value (e.g. the ``profile`` setting) longer than this is a configuration error
MAX_SETTING_CHARS = 4_096


def read_input(
    path, limit: int = MAX_BYTES, st=None, opened: list | None = None
) -> tuple[bytes | None, str | None]:
    """``(bytes, None)`` — at most ``limit + 1`` bytes, so that a caller (the loader) sees
    the file is over the limit — or ``(None, reason)``. Only regular files are opened: a
    FIFO, socket or device is never opened (it could block forever). ``st``: the caller's
    fresh ``os.stat`` of ``path``; ``opened``: gets the ``fstat`` of the descriptor read
    (:func:`si_lint.fsutil.read_regular`)."""
    from .fsutil import read_regular

    return read_regular(path, limit, st=st, opened=opened)


def too_big(size: int, limit: int = MAX_BYTES) -> str | None:
    """The SI005 message for ``size`` bytes, or None when it is within the limit."""
    if size > limit:
        return f"larger than the {limit:,}-byte safety limit; not read"
    return None


def depth_of(value: Any, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of plain data, counted iteratively, stopping past ``limit``
    (only containers are visited: a scalar adds no level)."""
    deepest = 0
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        v, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        for x in v.values() if isinstance(v, dict) else v:
            if isinstance(x, (dict, list)):
                stack.append((x, d + 1))
    return deepest


def parse_json(text: str | bytes, limit: int = MAX_BYTES) -> tuple[Any, str | None]:
    """One JSON document (e.g. a ``.jsonl`` line) within the limits: ``(data, None)`` or
    ``(None, why)`` — too long, nested too deeply, an integer too long, not JSON. Never
    raises."""
    if len(text) > limit:
        return None, too_big(len(text), limit)
    try:
        data = json.loads(text)
    except RecursionError:
        return None, f"nesting deeper than {MAX_DEPTH} levels; not read"
    except ValueError as exc:  # includes an integer longer than Python's digit limit
        return None, f"not valid JSON: {exc}"
    if depth_of(data) > MAX_DEPTH:
        return None, f"nesting deeper than {MAX_DEPTH} levels; not read"
    return data, None


def to_float(value) -> float:
    """``float(value)`` for a number of any size: an integer beyond the float range is
    ±inf instead of an OverflowError (issue 11 item 6: integers are values, not crashes)."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")
