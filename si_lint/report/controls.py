"""Control characters in reports (SPEC §9 "Trust boundaries": control characters from any
input are escaped in every format).

Every string a report prints may come from a pull request: a file name, a message that
quotes a YAML value, a source line. Where a report is read by a person or a terminal (text,
GitHub annotations, JUnit's XML, which cannot carry most C0 characters) they are shown as
visible escapes (``\\x1b``, ``\\u202e``: :func:`printable`); where it is JSON (JSON, SARIF,
GitLab) they are JSON escapes (``\\u001b``: :func:`json_safe`), so the value a program reads
is exact and the file holds no raw control character."""

from __future__ import annotations

import re

#: C0 (but tab), DEL, C1 and the bidirectional overrides and isolates: an ESC or OSC
#: sequence could rewrite a terminal, a bidi override reorder what a reader sees
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: the same and the tab (a workflow command, an XML attribute)
CONTROL_OR_TAB = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: what ``json.dumps(..., ensure_ascii=False)`` leaves raw (it escapes C0 itself): DEL, C1,
#: the bidi controls and the line and paragraph separators
_JSON_RAW = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _visible(m: re.Match) -> str:
    return m.group().encode("unicode_escape").decode("ascii")


def printable(text: str, pattern: re.Pattern = CONTROL) -> str:
    """``text`` with the characters ``pattern`` matches shown as escapes (``\\x1b``)."""
    if text.isprintable():  # no control character, no tab, no bidi control
        return text
    return pattern.sub(_visible, text)


def _json_escape(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def json_safe(dumped: str) -> str:
    """The output of ``json.dumps(..., ensure_ascii=False)`` with the control characters it
    leaves raw written as ``\\uXXXX`` escapes: they occur only inside its strings, so the
    JSON reads back to the same values."""
    if dumped.isascii():
        return dumped
    return _JSON_RAW.sub(_json_escape, dumped)
