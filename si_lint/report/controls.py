"""Control characters in reports (SPEC §9 "Trust boundaries", docs/security.md): any
string a report prints may come from a pull request. Text, GitHub annotations and JUnit
show them as visible escapes (:func:`printable`), the JSON formats as JSON escapes
(:func:`json_safe`), so the value a program reads is exact."""

from __future__ import annotations

import re

_BIDI = "\u202a-\u202e\u2066-\u2069"
#: C0 (but tab), DEL, C1 and the bidirectional overrides and isolates: an ESC or OSC
#: sequence could rewrite a terminal, a bidi override reorder what a reader sees
CONTROL = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}]")
#: the same but ``\\r`` and ``\\n``, and the tab: what GitHub's runner cannot carry raw
#: (it takes ``\\r`` and ``\\n`` as ``%0D``, ``%0A``)
GITHUB = re.compile(f"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")
#: :data:`CONTROL` and what XML 1.0 cannot carry (U+FFFE, U+FFFF, surrogates)
XML = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}\ufffe\uffff\ud800-\udfff]")
#: what ``json.dumps(..., ensure_ascii=False)`` leaves raw (it escapes C0 itself): DEL, C1,
#: the bidi controls and the line and paragraph separators
_JSON_RAW = re.compile(f"[\x7f-\x9f{_BIDI}\u2028\u2029]")


def printable(text: str, pattern: re.Pattern = CONTROL) -> str:
    """``text`` with the characters ``pattern`` matches shown as escapes (``\\x1b``)."""
    if text.isprintable():  # no control character, no tab, no bidi control
        return text
    return pattern.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def json_safe(dumped: str) -> str:
    """The output of ``json.dumps(..., ensure_ascii=False)`` with the control characters it
    leaves raw written as ``\\uXXXX`` escapes: they occur only inside its strings, so the
    JSON reads back to the same values."""
    if dumped.isascii():
        return dumped
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
