"""The safety limits for every input path (SPEC §9): everything si-lint reads may come from
a stranger's pull request. Findings of these limits are SI005.
"""

from __future__ import annotations

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
#: a setting's value (``profile``, ``extend``) longer than this is a configuration error
MAX_SETTING_CHARS = 4_096


def too_big(size: int) -> str | None:
    if size > MAX_BYTES:
        return f"larger than the {MAX_BYTES:,}-byte safety limit; not read"
    return None


def to_float(value) -> float:
    """``float(value)`` for a number of any size: an integer beyond the float range is
    ±inf instead of an OverflowError (integers are values, not crashes)."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")
