"""Text handling for the SI evaluator, exactly as SPEC §5 pins it.

* :func:`normalize` — ``casefold(NFC(s))``, nothing more.
* :func:`match_positions` / :func:`occurs` — the §3.1 identifier rule: a normalised pattern
  occurs at ``i`` iff the characters just before ``i`` and just after ``i + len(p)`` are not
  in the ASCII class ``[A-Za-z0-9_-]`` (text edges count as delimiters). Every start index
  is tried, overlapping occurrences included. Synonym phrases (§3.3) use the same rule.
* :func:`sentence_spans` / :func:`split_sentences` — the §3.2 rule: split on ``"\\n"`` and
  after every ``.``, ``!``, ``?`` followed by whitespace (``str.isspace``) or end of text.
* :func:`echo_filter` — §2.1 echo exclusion on the raw (un-normalised) in-scope text, with
  the tool bodies indexed once per artifact (:class:`si_lint.evaluator.echo.EchoSources`).
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
from typing import Any

from .echo import EchoSources
from .errors import EvaluationError
from .evidence import project

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
    end = len(text)
    find = text.find
    i = find(pattern)
    while i >= 0:
        j = i + n
        if (i == 0 or text[i - 1] not in WORD_CHARS) and (j == end or text[j] not in WORD_CHARS):
            out.append(i)
        i = find(pattern, i + 1)
    return out


def occurs(pattern: str, text: str) -> bool:
    """True iff normalised ``pattern`` occurs in normalised ``text`` under the §3.1 rule."""
    if not pattern:
        raise EvaluationError("empty identifier or phrase")
    n = len(pattern)
    end = len(text)
    find = text.find
    i = find(pattern)
    while i >= 0:
        j = i + n
        if (i == 0 or text[i - 1] not in WORD_CHARS) and (j == end or text[j] not in WORD_CHARS):
            return True
        i = find(pattern, i + 1)
    return False


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text`` (empty sentences included)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BREAK.finditer(text):
        end = m.end()  # a break is one character: "\n" (not in the sentence) or . ! ?
        spans.append((start, end - 1 if text[end - 1] == "\n" else end))
        start = end
    spans.append((start, len(text)))
    return spans


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (§3.2), empty ones dropped."""
    return [text[a:b] for a, b in sentence_spans(text) if b > a]


def split_lines(text: str) -> list[str]:
    """Lines for echo exclusion: split on U+000A only, one trailing ``\\r`` dropped."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def echo_filter(
    text: str, sources: EchoSources, *, trimmed: bool = False, keep_slots: bool = False
) -> str:
    """The in-scope text of a channel with tool-echo lines removed (SPEC §5).

    Lines are split on ``"\\n"`` only, exactly one trailing ``"\\r"`` is dropped, lines are
    not stripped (under ``trimmed`` only the echo test strips them); an echoed line is
    removed, or left as an empty line when ``keep_slots`` (a co-occurrence radius ≥ 1,
    SPEC §2.1); the rest are joined by ``"\\n"``. The result is raw: callers normalise it.
    """
    out: list[str] = []
    is_echo = sources.is_echo
    for line in text.split("\n"):
        if line.endswith("\r"):  # exactly one (split_lines)
            line = line[:-1]
        if is_echo(line, trimmed):
            if keep_slots:
                out.append("")
        else:
            out.append(line)
    return "\n".join(out)


#: a maximal run of the §3.1 identifier class
_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


class TokenIndex:
    """Every maximal run of ``[A-Za-z0-9_-]`` of a normalised text with its start
    positions: built in one pass, it answers the §3.1 rule for a whole identifier set.

    A pattern made only of identifier characters occurs (delimited) exactly where it is a
    whole run; a pattern whose leading run ``w`` is followed by another character can only
    occur where ``w`` is a whole run, so only those positions are verified. A pattern that
    starts with a non-identifier character falls back to :func:`match_positions`.
    """

    __slots__ = ("text", "runs")

    def __init__(self, text: str) -> None:
        self.text = text
        runs: dict[str, list[int]] = {}
        for m in _TOKEN.finditer(text):
            runs.setdefault(m.group(), []).append(m.start())
        self.runs = runs

    def positions(self, pattern: str) -> list[int]:
        if not pattern:
            raise EvaluationError("empty identifier or phrase")
        m = _TOKEN.match(pattern)
        if m is None:
            return match_positions(pattern, self.text)
        lead = m.group()
        starts = self.runs.get(lead, ())
        if len(lead) == len(pattern):
            return list(starts)
        text, n = self.text, len(pattern)
        return [i for i in starts if text.startswith(pattern, i) and _delimited(text, i, i + n)]

    def occurs(self, pattern: str) -> bool:
        if not pattern:
            raise EvaluationError("empty identifier or phrase")
        m = _TOKEN.match(pattern)
        if m is None:
            return occurs(pattern, self.text)
        lead = m.group()
        if len(lead) == len(pattern):
            return lead in self.runs
        text, n = self.text, len(pattern)
        return any(
            text.startswith(pattern, i) and _delimited(text, i, i + n)
            for i in self.runs.get(lead, ())
        )


#: identifier sets larger than this are matched through a :class:`TokenIndex`
INDEX_THRESHOLD = 8


def substring_positions(phrase: str, text: str) -> list[int]:
    """Every start index of ``phrase`` in ``text`` (``synonym_match: substring``)."""
    if not phrase:
        raise EvaluationError("empty identifier or phrase")
    out: list[int] = []
    i = text.find(phrase)
    while i >= 0:
        out.append(i)
        i = text.find(phrase, i + 1)
    return out


class Reading:
    """One :class:`~si_lint.evaluator.evidence.Evidence` read for one evaluation under a
    profile's constants: the in-scope normalised text per (channel, exclude_tool_echo),
    its non-blank sentences and its token index, memoised on the instance (never module
    state). ``Transcript`` is the same class (its former name)."""

    __slots__ = ("evidence", "constants", "_echo", "_scopes", "_spans", "_starts", "_index")

    def __init__(self, evidence: Any, constants: Any = None) -> None:
        self.evidence = project(evidence)
        if constants is None:
            from ..profile import Constants

            constants = Constants()
        self.constants = constants
        self._echo: EchoSources | None = None
        self._scopes: dict[tuple[str, bool], str] = {}
        self._spans: dict[tuple[str, bool], list[tuple[int, int]]] = {}
        self._starts: dict[tuple[str, bool], list[int]] = {}
        self._index: dict[tuple[str, bool], TokenIndex] = {}

    def with_constants(self, constants: Any) -> Reading:
        """The same evidence read under other ``constants``: the projection, the echo
        index and the texts that do not depend on the constants (no echo exclusion, or
        the same echo reading) are shared, not recomputed."""
        other = Reading.__new__(Reading)
        other.evidence, other.constants, other._echo = self.evidence, constants, self._echo
        other._scopes, other._spans, other._starts, other._index = {}, {}, {}, {}
        mine = self.constants
        same_echo = mine.echo_line == constants.echo_line and (mine.cooccurrence_radius >= 1) == (
            constants.cooccurrence_radius >= 1
        )
        for store in ("_scopes", "_spans", "_starts", "_index"):
            src, dst = getattr(self, store), getattr(other, store)
            for key, value in src.items():
                if not key[1] or same_echo:
                    dst[key] = value
        return other

    # the projection ------------------------------------------------------------------
    @property
    def has_final(self) -> bool:
        return self.evidence.has_final

    @property
    def steps(self) -> int:
        return self.evidence.steps

    tool_calls_before_final = steps

    @property
    def responses(self) -> tuple[str, ...]:
        return self.evidence.echo_sources

    def raw_channel(self, channel: str) -> str:
        """The raw (un-normalised, un-filtered) in-scope text of ``channel``."""
        text = self.evidence.channels.get(channel) if isinstance(channel, str) else None
        if text is None:
            raise EvaluationError(f"unknown channel `{channel}`")
        return text

    def echo_sources(self) -> EchoSources:
        if self._echo is None:
            self._echo = EchoSources(self.evidence.echo_sources)
        return self._echo

    def raw_scope(self, channel: str, exclude_tool_echo: bool) -> str:
        """The in-scope text of ``channel`` as the artifact wrote it (echo lines removed
        when asked), before :func:`normalize`: what a quote shows (not memoised)."""
        raw = self.raw_channel(channel)
        if exclude_tool_echo:
            raw = echo_filter(
                raw,
                self.echo_sources(),
                trimmed=self.constants.echo_line == "trimmed",
                keep_slots=self.constants.cooccurrence_radius >= 1,
            )
        return raw

    def scope(self, channel: str, exclude_tool_echo: bool) -> str:
        """The normalised in-scope text of ``channel`` (echo lines removed when asked)."""
        key = (channel, exclude_tool_echo)
        cached = self._scopes.get(key)
        if cached is not None:
            return cached
        text = normalize(self.raw_scope(channel, exclude_tool_echo))
        self._scopes[key] = text
        return text

    def spans(self, channel: str, exclude_tool_echo: bool) -> list[tuple[int, int]]:
        """The non-blank sentences of :meth:`scope` (blank = empty after ``str.strip``;
        they never count towards a distance), memoised."""
        key = (channel, exclude_tool_echo)
        cached = self._spans.get(key)
        if cached is None:
            text = self.scope(channel, exclude_tool_echo)
            cached = [(a, b) for a, b in sentence_spans(text) if not text[a:b].isspace() and b > a]
            self._spans[key] = cached
            self._starts[key] = [a for a, _ in cached]
        return cached

    def index(self, channel: str, exclude_tool_echo: bool) -> TokenIndex:
        key = (channel, exclude_tool_echo)
        cached = self._index.get(key)
        if cached is None:
            cached = self._index[key] = TokenIndex(self.scope(channel, exclude_tool_echo))
        return cached

    # matching ------------------------------------------------------------------------
    def names_any(self, patterns: list[str], channel: str, echo: bool) -> bool:
        """Some normalised pattern occurs (§3.1) in the channel's in-scope text."""
        if len(patterns) > INDEX_THRESHOLD:
            idx = self.index(channel, echo)
            return any(idx.occurs(p) for p in patterns)
        text = self.scope(channel, echo)
        return any(occurs(p, text) for p in patterns)

    def occurs(self, pattern: str, channel: str, echo: bool, *, many: bool = False) -> bool:
        """``pattern`` occurs (§3.1); ``many``: one of a large set (use the token index)."""
        if many:
            return self.index(channel, echo).occurs(pattern)
        return occurs(pattern, self.scope(channel, echo))

    def positions(
        self, pattern: str, channel: str, echo: bool, *, substring: bool = False, many: bool = False
    ) -> list[int]:
        """Start indexes of ``pattern`` in the in-scope text: under the §3.1 rule, or
        anywhere (``substring``: ``synonym_match: substring``)."""
        if substring:
            return substring_positions(pattern, self.scope(channel, echo))
        if many:
            return self.index(channel, echo).positions(pattern)
        return match_positions(pattern, self.scope(channel, echo))

    def sentences(
        self, pattern: str, channel: str, echo: bool, *, substring: bool = False, many: bool = False
    ) -> list[int]:
        """Indexes (into :meth:`spans`) of the non-blank sentences that hold a whole
        occurrence of ``pattern``, ascending, unique."""
        text = self.scope(channel, echo)
        if pattern not in text:  # the common case, at C speed
            return []
        spans = self.spans(channel, echo)
        if substring:
            found = substring_positions(pattern, text)
        elif many:
            found = self.index(channel, echo).positions(pattern)
        else:
            found = match_positions(pattern, text)
        return sentence_indexes(found, len(pattern), spans, self._starts[(channel, echo)])


Transcript = Reading


def sentence_indexes(
    positions: list[int], n: int, spans: list[tuple[int, int]], starts: list[int] | None = None
) -> list[int]:
    """Indexes of the ``spans`` that wholly hold a match of length ``n`` at one of
    ``positions`` (ascending positions give ascending, unique indexes)."""
    if starts is None:
        starts = [a for a, _ in spans]
    out: list[int] = []
    for pos in positions:
        k = bisect_right(starts, pos) - 1
        if k >= 0 and pos + n <= spans[k][1]:
            if not out or out[-1] != k:
                out.append(k)
    return out


def transcript(evidence: Any) -> Reading:
    """``evidence`` read as a :class:`Reading` (returned as is when it already is one)."""
    if isinstance(evidence, Reading):
        return evidence
    return Reading(evidence)
