"""The echo sources of an artifact: the raw tool bodies an answer may repeat, indexed once
(SPEC §2.1 echo exclusion; :func:`si_lint.evaluator.text.echo_filter` removes the lines
they hold). Pure: the index lives on the instance, never in module state.
"""

from __future__ import annotations

from typing import Any


class EchoSources:
    """The raw tool bodies of an artifact (its echo sources), indexed once per artifact.

    ``is_echo(line)`` is true iff ``line`` occurs verbatim (un-normalised) as a substring of
    some body (under ``trimmed``: the line stripped of surrounding whitespace; a line that
    is empty after trimming is never an echo). A line holds no ``"\\n"``, so it is a
    substring of a body iff it is a substring of one of the body's lines: the index keeps
    the *distinct* body lines (a set: a whole-line echo — the usual case — is one lookup)
    and their join (a line can never straddle a join). A line that is not a whole body line
    is found through a sampled k-gram index of the join (every ``SAMPLE``-th position's
    ``GRAM``-character slice): an occurrence of a line of at least ``GRAM + SAMPLE - 1``
    characters covers one sampled slice, so a lookup costs ``SAMPLE`` dictionary probes and
    a verification per candidate, not a scan of the bodies. Shorter lines are searched in
    the join (C speed), and every line is searched in each body when the bodies hold at
    most ``DIRECT`` characters (no index is built then: searching costs less than
    indexing). Answers are memoised per distinct line. Built lazily.
    """

    GRAM = 16
    SAMPLE = 16
    #: bodies up to this many characters are searched directly (``line in haystack``,
    #: C speed: building the index would cost more than every lookup of an artifact)
    DIRECT = 1 << 16

    __slots__ = ("responses", "lines", "haystack", "_grams", "_seen")

    def __init__(self, responses) -> None:
        responses = list(responses)
        if sum(map(len, responses)) + len(responses) > self.DIRECT:
            responses = list(dict.fromkeys(responses))  # a repeated body, indexed once
        self.responses = responses
        self._grams: dict[str, Any] | None = None
        self._seen: dict[str, bool] = {}
        #: the indexed form (None: small bodies, searched one by one)
        self.lines: dict[str, None] | None = None
        self.haystack: str | None = None
        if sum(map(len, responses)) + len(responses) <= self.DIRECT:
            # small bodies (the usual artifact): one substring search per body and line,
            # at C speed (neither joined nor de-duplicated: copying or hashing every body
            # would cost more than the searches; a repeated body changes no answer)
            return
        lines: dict[str, None] = {}
        for r in self.responses:
            for raw in r.split("\n"):
                lines[raw] = None
                if raw.endswith("\r"):
                    lines[raw[:-1]] = None
        self.lines = lines
        self.haystack = "\n".join(lines)

    def _haystack(self) -> str:
        """The bodies' join (the indexed form only: ``is_echo`` searches small bodies one
        by one)."""
        assert self.haystack is not None
        return self.haystack

    def _index(self) -> dict[str, Any]:
        if self._grams is None:
            h, k, s = self._haystack(), self.GRAM, self.SAMPLE
            grams: dict[str, Any] = {}
            for i in range(0, len(h) - k + 1, s):
                g = h[i : i + k]
                prev = grams.get(g)
                if prev is None:
                    grams[g] = i
                elif isinstance(prev, int):
                    grams[g] = [prev, i]
                else:
                    prev.append(i)
            self._grams = grams
        return self._grams

    def _substring(self, line: str) -> bool:
        k, s = self.GRAM, self.SAMPLE
        h = self._haystack()
        if len(line) < k + s - 1:
            return line in h
        grams = self._index()
        for o in range(s):
            hit = grams.get(line[o : o + k])
            if hit is None:
                continue
            for i in (hit,) if isinstance(hit, int) else hit:
                j = i - o
                if j >= 0 and h.startswith(line, j):
                    return True
        return False

    def is_echo(self, line: str, trimmed: bool = False) -> bool:
        if not self.responses:
            return False
        if trimmed:
            line = line.strip()
            if not line:
                return False
        if self.lines is None:
            if "\n" in line:  # not a line: what the bodies' join would answer
                return line in "\n".join(self.responses)
            for body in self.responses:
                if line in body:
                    return True
            return False
        if line in self.lines:
            return True
        seen = self._seen.get(line)
        if seen is None:
            seen = self._seen[line] = self._substring(line)
        return seen
