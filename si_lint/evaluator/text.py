"""The text rules of the seed's §3 as SPEC §5 pins them (normalisation, the §3.1
identifier rule, the §3.2 sentence rule, §2.1 echo exclusion), and :class:`Reading`, one
piece of evidence read under a profile's constants."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from ..profile import Constants
from .evidence import EvaluationError, project

#: the ASCII identifier class of §3.1 (a string: ``c in WORD_CHARS`` for one character)
WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_RUN = re.compile(f"[{re.escape(WORD_CHARS)}]+")

KNOWN_CHANNELS = ("agent_response", "reasoning_trace")

# Sentence breaks: a newline (consumed), or the position just after . ! ? when the next
# character is whitespace (re's ``\s`` on str is exactly ``str.isspace``) or end of text.
_BREAK = re.compile(r"\n|[.!?](?=\s|\Z)")


def normalize(s: str) -> str:
    """``casefold(NFC(s))`` — the one normalisation of SPEC §5 (no second NFC)."""
    return unicodedata.normalize("NFC", s).casefold()


def _matches(pattern: str, text: str, whole: bool = True) -> Iterator[int]:
    if not pattern:
        raise EvaluationError("empty identifier or phrase")
    i = text.find(pattern)
    while i >= 0:
        j = i + len(pattern)
        if not whole or (
            (i == 0 or text[i - 1] not in WORD_CHARS)
            and (j == len(text) or text[j] not in WORD_CHARS)
        ):
            yield i
        i = text.find(pattern, i + 1)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text``, empty ones included (§3.2)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BREAK.finditer(text):
        end = m.end()  # a break is one character: "\n" (not in the sentence) or . ! ?
        spans.append((start, end - 1 if text[end - 1] == "\n" else end))
        start = end
    spans.append((start, len(text)))
    return spans


def nonblank_spans(text: str) -> list[tuple[int, int]]:
    """The sentences that count towards a distance: not empty after ``str.strip``."""
    return [(a, b) for a, b in sentence_spans(text) if b > a and not text[a:b].isspace()]


def split_lines(text: str) -> list[str]:
    """Lines for echo exclusion: split on U+000A only, one trailing ``\\r`` dropped."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


#: tool bodies of up to this many characters in all are searched directly, line by line
DIRECT = 1 << 16
#: the sampled index of larger bodies: every SAMPLE-th slice of GRAM characters
GRAM = SAMPLE = 16


def echo_test(bodies: Sequence[str]) -> Callable[[str], bool]:
    """``line -> any(line in body for body in bodies)``, answered in time linear in the
    bodies rather than in bodies × lines: an answer of many lines beside large tool bodies
    is evidence a pull request can send (SPEC §9).

    Small bodies are searched directly. Larger ones: a line holds no newline, so it occurs
    in a body iff it occurs in one of the body's lines; the distinct body lines are joined
    once, and every SAMPLE-th GRAM-character slice of the join is indexed. An occurrence of
    a line of at least GRAM + SAMPLE - 1 characters covers one indexed slice, so a lookup
    is SAMPLE dictionary probes and a check of each candidate; a shorter line is searched
    in the join."""
    if not bodies or sum(map(len, bodies)) <= DIRECT:
        return lambda line: any(line in body for body in bodies)
    lines = dict.fromkeys(
        part
        for body in bodies
        for raw in body.split("\n")
        for part in (raw, raw.removesuffix("\r"))
    )
    join = "\n".join(lines)
    grams: dict[str, list[int]] = {}
    for i in range(0, len(join) - GRAM + 1, SAMPLE):
        grams.setdefault(join[i : i + GRAM], []).append(i)

    @cache
    def test(line: str) -> bool:
        if line in lines:
            return True
        if "\n" in line:  # not a line: the join would answer wrongly
            return any(line in body for body in bodies)
        if len(line) < GRAM + SAMPLE - 1:
            return line in join
        return any(
            join.startswith(line, i - o)
            for o in range(SAMPLE)
            for i in grams.get(line[o : o + GRAM], ())
            if i >= o
        )

    return test


def echo_filter(
    text: str, bodies: Sequence[str], *, trimmed: bool = False, keep_slots: bool = False
) -> str:
    """``text`` without its tool-echo lines (SPEC §5), raw: an echoed line is removed, or
    left empty under ``keep_slots`` (a co-occurrence radius ≥ 1, SPEC §2.1); only the echo
    test strips a line (under ``trimmed``), and a line blank after that is never an echo."""
    test = echo_test(bodies)
    marked = [
        (line, bool(s := line.strip()) and test(s) if trimmed else test(line))
        for line in split_lines(text)
    ]
    return "\n".join("" if echo else line for line, echo in marked if keep_slots or not echo)


class Reading:
    """Evidence read under a profile's constants: the in-scope texts of each (channel,
    exclude_tool_echo) and their sentences, memoised on the instance (never module state)."""

    def __init__(self, evidence: Any, constants: Constants | None = None) -> None:
        self.evidence = project(evidence)
        self.constants = constants if constants is not None else Constants()
        self._scopes: dict[tuple[str, bool], str] = {}
        self._spans: dict[tuple[str, bool], list[tuple[int, int]]] = {}
        self._runs: dict[tuple[str, bool], dict[str, list[int]]] = {}

    def raw_scope(self, channel: str, exclude_tool_echo: bool) -> str:
        """The in-scope text of ``channel`` before :func:`normalize`: what a quote shows."""
        raw = self.evidence.channels.get(channel) if isinstance(channel, str) else None
        if raw is None:
            raise EvaluationError(f"unknown channel `{channel}`")
        if not exclude_tool_echo:
            return raw
        return echo_filter(
            raw,
            self.evidence.echo_sources,
            trimmed=self.constants.echo_line == "trimmed",
            keep_slots=self.constants.cooccurrence_radius >= 1,
        )

    def scope(self, channel: str, exclude_tool_echo: bool) -> str:
        if (key := (channel, exclude_tool_echo)) not in self._scopes:
            self._scopes[key] = normalize(self.raw_scope(channel, exclude_tool_echo))
        return self._scopes[key]

    def spans(self, channel: str, exclude_tool_echo: bool) -> list[tuple[int, int]]:
        if (key := (channel, exclude_tool_echo)) not in self._spans:
            self._spans[key] = nonblank_spans(self.scope(channel, exclude_tool_echo))
        return self._spans[key]

    def occurs(self, pattern: str, channel: str, echo: bool) -> bool:
        return next(self._at(pattern, channel, echo), None) is not None

    def _at(self, pattern: str, channel: str, echo: bool) -> Iterator[int]:
        """The whole occurrences of ``pattern`` in :meth:`scope`, through the scope's
        identifier runs: a pattern of identifier characters occurs exactly where it is a
        whole run, one whose leading run is followed by another character only where that
        run is whole. So thousands of identifiers beside a large answer (a pull request's
        to send) cost a lookup each, not a scan each."""
        text = self.scope(channel, echo)
        lead = _RUN.match(pattern)
        if lead is None:
            yield from _matches(pattern, text)
            return
        key = (channel, echo)
        if key not in self._runs:
            runs: dict[str, list[int]] = {}
            for m in _RUN.finditer(text):
                runs.setdefault(m.group(), []).append(m.start())
            self._runs[key] = runs
        end = len(pattern)
        for i in self._runs[key].get(lead.group(), ()):
            if lead.end() == end or (
                text.startswith(pattern, i)
                and (i + end == len(text) or text[i + end] not in WORD_CHARS)
            ):
                yield i

    def sentences(self, pattern: str, channel: str, echo: bool, *, whole: bool = True) -> list[int]:
        """Indexes into :meth:`spans` of the sentences that wholly hold ``pattern``,
        ascending, unique."""
        spans = self.spans(channel, echo)
        out: list[int] = []
        text = self.scope(channel, echo)
        for pos in self._at(pattern, channel, echo) if whole else _matches(pattern, text, False):
            k = bisect_right(spans, pos, key=lambda span: span[0]) - 1
            if k >= 0 and pos + len(pattern) <= spans[k][1] and (not out or out[-1] != k):
                out.append(k)
        return out


def transcript(evidence: Any) -> Reading:
    return evidence if isinstance(evidence, Reading) else Reading(evidence)
