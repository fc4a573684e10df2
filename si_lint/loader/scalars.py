"""Scalars under the YAML 1.2 core schema: the tags the loader accepts, how an untagged
plain scalar resolves, the integer digit limit and encodable strings (no lone surrogate)."""

from __future__ import annotations

import math
import re
from typing import Any

from ..limits import MAX_INT_DIGITS

CORE = "tag:yaml.org,2002:"
#: the exact types a scalar tagged with a kind may resolve to (a boolean is no int or float)
KIND_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "bool": (bool,),
    "null": (type(None),),
}
#: explicit tag → the core-schema kind it asks for
CORE_TAGS = {p + kind: kind for kind in ("str", *KIND_TYPES, "map", "seq") for p in (CORE, "!!")}
CORE_TAGS["!"] = "str"

#: the nulls (the empty scalar one too), booleans, infinities and NaNs a plain scalar spells
_WORDS = {
    **dict.fromkeys(("", "~", "null", "Null", "NULL")),
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **{s + w: math.inf for w in (".inf", ".Inf", ".INF") for s in ("", "+")},
    **{"-" + w: -math.inf for w in (".inf", ".Inf", ".INF")},
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
}
#: integer literals: (pattern, base, characters before the digits, decimal digits a digit
#: stands for: a base-8/16 literal has more than its length)
_INTS = (
    (re.compile(r"[-+]?[0-9]+\Z"), 10, 0, 1.0),
    (re.compile(r"0o[0-7]+\Z"), 8, 2, 0.904),
    (re.compile(r"0x[0-9a-fA-F]+\Z"), 16, 2, 1.205),
)
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
#: the characters a number starts with
_NUMBER_START = frozenset("0123456789+-.")

#: keys and string values up to this long are interned: a corpus repeats them thousands of
#: times (``kind``, ``tool_call``, ``agent_response`` …)
INTERN_MAX = 40

#: the shortest literal that can be over the digit limit (a hex one: 1.2 digits a character)
HUGE_MIN = int(MAX_INT_DIGITS / 1.205)

_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> tuple[str, bool]:
    """``text`` with its lone surrogates (from ``\\ud800``-style escapes, which no UTF-8
    file can hold) replaced by U+FFFD, and whether there were any; an escaped surrogate
    *pair* becomes the one character it encodes. Every string the loader returns is
    encodable, so no report can fail on it."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text, False
    out = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return out, out.count("\ufffd") > text.count("\ufffd")  # a pair alone: no finding


def resolve_plain(text: str) -> Any:
    """A plain scalar under the YAML 1.2 core schema; an over-long integer stays text (SI005)."""
    if text in _WORDS:
        return _WORDS[text]
    if text[0] not in _NUMBER_START:  # most scalars: text
        return text
    for pattern, base, skip, per_digit in _INTS:
        if pattern.match(text):
            if len(text.lstrip("+-")[skip:]) * per_digit > MAX_INT_DIGITS:
                return text
            return int(text[skip:], base)
    return float(text) if _FLOAT.match(text) else text


def is_int(text: str) -> bool:
    return any(pattern.match(text) for pattern, *_ in _INTS)
