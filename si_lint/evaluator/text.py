"""Text handling for the SI evaluator, exactly as SPEC §5 pins it.

* :func:`normalize` — ``casefold(NFC(s))``, nothing more.
* :func:`match_positions` / :func:`occurs` — the §3.1 identifier rule: a normalised pattern
  occurs at ``i`` iff the characters just before ``i`` and just after ``i + len(p)`` are not
  in the ASCII class ``[A-Za-z0-9_-]`` (text edges count as delimiters). Every start index
  is tried, overlapping occurrences included. Synonym phrases (§3.3) use the same rule.
* :func:`sentence_spans` / :func:`split_sentences` — the §3.2 rule: split on ``"\\n"`` and
  after every ``.``, ``!``, ``?`` followed by whitespace (``str.isspace``) or end of text.
* :func:`echo_filter` — §2.1 echo exclusion on the raw (un-normalised) in-scope text.
* :class:`Transcript` — the evidence artifact read once: channel texts, tool responses,
  the final answer; in-scope normalised text per (channel, exclude_tool_echo), memoised on
  the instance (never module state).

Everything here is a pure function of its arguments: no I/O, no clock, no randomness and no
module-level mutable state.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from .errors import EvaluationError

#: the ASCII identifier class of §3.1 (a string: ``c in WORD_CHARS`` for one character)
WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

#: the output channels this evaluator can read
KNOWN_CHANNELS = ("agent_response", "reasoning_trace")

# Sentence breaks: a newline (consumed), or the position just after . ! ? when the next
# character is whitespace (re's ``\s`` on str is exactly ``str.isspace``) or end of text.
_BREAK = re.compile(r"\n|[.!?](?=\s|\Z)")


def normalize(s: str) -> str:
    """``casefold(NFC(s))`` — the one normalisation of SPEC §5 (no second NFC)."""
    return unicodedata.normalize("NFC", s).casefold()


def _delimited(text: str, start: int, end: int) -> bool:
    if start > 0 and text[start - 1] in WORD_CHARS:
        return False
    if end < len(text) and text[end] in WORD_CHARS:
        return False
    return True


def match_positions(pattern: str, text: str) -> list[int]:
    """Every start index at which normalised ``pattern`` occurs in normalised ``text``.

    Overlapping occurrences are included. ``pattern`` must not be empty.
    """
    if not pattern:
        raise EvaluationError("empty identifier or phrase")
    out: list[int] = []
    n = len(pattern)
    i = text.find(pattern)
    while i >= 0:
        if _delimited(text, i, i + n):
            out.append(i)
        i = text.find(pattern, i + 1)
    return out


def occurs(pattern: str, text: str) -> bool:
    """True iff normalised ``pattern`` occurs in normalised ``text`` under the §3.1 rule."""
    if not pattern:
        raise EvaluationError("empty identifier or phrase")
    n = len(pattern)
    i = text.find(pattern)
    while i >= 0:
        if _delimited(text, i, i + n):
            return True
        i = text.find(pattern, i + 1)
    return False


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text`` (empty sentences included)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BREAK.finditer(text):
        if m.group() == "\n":
            spans.append((start, m.start()))
            start = m.end()
        else:
            spans.append((start, m.end()))
            start = m.end()
    spans.append((start, len(text)))
    return spans


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (§3.2), empty ones dropped."""
    return [text[a:b] for a, b in sentence_spans(text) if b > a]


def split_lines(text: str) -> list[str]:
    """Lines for echo exclusion: split on U+000A only, one trailing ``\\r`` dropped."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


class EchoSources:
    """The raw ``response`` texts of an artifact's tool calls, prepared for the echo test.

    ``is_echo(line)`` is true iff ``line`` occurs verbatim (un-normalised) as a substring of
    some response. Whole response lines are kept in a lookup table first (a line that equals
    a response line, with or without its ``\\r``, is a substring without any scan).
    """

    __slots__ = ("responses", "lines", "haystack")

    def __init__(self, responses: list[str]) -> None:
        # de-duplicated, order kept (dict preserves insertion order)
        self.responses = list(dict.fromkeys(responses))
        lines: dict[str, None] = {}
        for r in self.responses:
            for raw in r.split("\n"):
                lines[raw] = None
                if raw.endswith("\r"):
                    lines[raw[:-1]] = None
        self.lines = lines
        # A line never holds "\n", so it is a substring of some response iff it is a
        # substring of the responses joined by "\n" (no match can straddle a join).
        self.haystack = "\n".join(self.responses)

    def is_echo(self, line: str) -> bool:
        if not self.responses:
            return False
        if line in self.lines:
            return True
        return line in self.haystack


def echo_filter(text: str, sources: EchoSources) -> str:
    """The in-scope text of a channel with tool-echo lines removed (SPEC §5).

    Lines are split on ``"\\n"`` only, exactly one trailing ``"\\r"`` is dropped, lines are
    not stripped; a line found verbatim in a tool response is removed; the rest are joined
    by ``"\\n"``. The result is raw: callers normalise it afterwards.
    """
    return "\n".join(line for line in split_lines(text) if not sources.is_echo(line))


def _text_of(event: Mapping[str, Any], key: str, index: int) -> str:
    value = event.get(key, "")
    if not isinstance(value, str):
        raise EvaluationError(
            f"events[{index}].{key} is not a string (got {type(value).__name__})"
        )
    return value


class Transcript:
    """An evidence artifact (SPEC §4) read once for evaluation.

    Raises :class:`EvaluationError` when the artifact cannot be read (see
    :func:`si_lint.evaluator.artifact_problems` for the full list of structural problems).
    """

    __slots__ = (
        "agent_texts",
        "reasoning_texts",
        "responses",
        "final_index",
        "tool_calls",
        "tool_calls_before_final",
        "_echo",
        "_scopes",
        "_spans",
    )

    def __init__(self, evidence: Any) -> None:
        if not isinstance(evidence, Mapping):
            raise EvaluationError("evidence is not a mapping")
        events = evidence.get("events")
        if not isinstance(events, list):
            raise EvaluationError("evidence has no `events` list")
        all_agent: list[str] = []
        upto_final: list[str] = []
        reasoning: list[str] = []
        responses: list[str] = []
        final_index: int | None = None
        tool_calls = 0
        before_final = 0
        for i, ev in enumerate(events):
            if not isinstance(ev, Mapping):
                raise EvaluationError(f"events[{i}] is not a mapping")
            kind = ev.get("kind")
            if kind is None:
                raise EvaluationError(f"events[{i}] has no `kind`")
            if not isinstance(kind, str):
                raise EvaluationError(f"events[{i}].kind is not a string")
            if kind == "tool_call":
                responses.append(_text_of(ev, "response", i))
                tool_calls += 1
                if final_index is None:
                    before_final += 1
            elif kind == "agent_response":
                text = _text_of(ev, "text", i)
                all_agent.append(text)
                if final_index is None:
                    upto_final.append(text)
                    if ev.get("final") is True:
                        final_index = i
            elif kind == "reasoning":
                reasoning.append(_text_of(ev, "text", i))
            # any other kind: ignored (no channel text, not a step)
        self.agent_texts = upto_final if final_index is not None else all_agent
        self.reasoning_texts = reasoning
        self.responses = responses
        self.final_index = final_index
        self.tool_calls = tool_calls
        self.tool_calls_before_final = before_final
        self._echo: EchoSources | None = None
        self._scopes: dict[tuple[str, bool], str] = {}
        self._spans: dict[tuple[str, bool], list[tuple[int, int]]] = {}

    @property
    def has_final(self) -> bool:
        return self.final_index is not None

    def raw_channel(self, channel: str) -> str:
        """The raw (un-normalised, un-filtered) in-scope text of ``channel``."""
        if channel == "agent_response":
            return "\n".join(self.agent_texts)
        if channel == "reasoning_trace":
            return "\n".join(self.reasoning_texts)
        raise EvaluationError(f"unknown channel `{channel}`")

    def scope(self, channel: str, exclude_tool_echo: bool) -> str:
        """The normalised in-scope text of ``channel`` (echo lines removed when asked)."""
        key = (channel, exclude_tool_echo)
        cached = self._scopes.get(key)
        if cached is not None:
            return cached
        raw = self.raw_channel(channel)
        if exclude_tool_echo:
            if self._echo is None:
                self._echo = EchoSources(self.responses)
            raw = echo_filter(raw, self._echo)
        text = normalize(raw)
        self._scopes[key] = text
        return text

    def spans(self, channel: str, exclude_tool_echo: bool) -> list[tuple[int, int]]:
        """Sentence spans of :meth:`scope` (memoised)."""
        key = (channel, exclude_tool_echo)
        cached = self._spans.get(key)
        if cached is None:
            cached = sentence_spans(self.scope(channel, exclude_tool_echo))
            self._spans[key] = cached
        return cached


def sentences_with(
    pattern: str, text: str, spans: list[tuple[int, int]]
) -> list[int]:
    """Indexes of the sentences (``spans`` of ``text``) in which ``pattern`` occurs.

    A match counts only when it lies wholly inside one sentence. Sentence edges in ``text``
    sit next to a newline, a ``.``/``!``/``?`` or whitespace — none in the identifier
    class — so a boundary check on the whole text equals one on the sentence alone.
    """
    starts = [a for a, _ in spans]
    out: list[int] = []
    n = len(pattern)
    for pos in match_positions(pattern, text):
        k = bisect_right(starts, pos) - 1
        if k >= 0 and pos + n <= spans[k][1]:
            if not out or out[-1] != k:
                out.append(k)
    return out


def transcript(evidence: Any) -> Transcript:
    """``evidence`` read as a :class:`Transcript` (returned as is when it already is one)."""
    if isinstance(evidence, Transcript):
        return evidence
    return Transcript(evidence)
