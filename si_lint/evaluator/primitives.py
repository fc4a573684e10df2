"""The three built-in primitives of registry v1 (seed §2.1–§2.3, SPEC §5).

Each is ``def name(evidence, *, <params>) -> bool`` and a pure function of its arguments.
``evidence`` is the SPEC §4 artifact as plain data (read-only) or a
:class:`~si_lint.evaluator.text.Transcript` already built from it (the evaluator passes one
so that one artifact is read, echo-filtered and normalised once per evaluation).

``factor`` is the binding as resolved by the evaluator::

    {"ref": "smtp-port-removed", "required_identifiers": ["SMTP_PORT"],
     "deviation_type": "absent_key",            # from the scenario's injection.deviations
     "synonyms": ["missing", "absent", ...]}    # from the profile; None when it has none

Invalid arguments and empty identifiers/phrases raise
:class:`~si_lint.evaluator.errors.EvaluationError` (an error verdict).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import EvaluationError
from .text import KNOWN_CHANNELS, normalize, occurs, sentences_with, transcript


def _patterns(values: Any, what: str) -> list[str]:
    if not isinstance(values, (list, tuple)):
        raise EvaluationError(f"{what} is not a list")
    out: list[str] = []
    for v in values:
        if not isinstance(v, str):
            raise EvaluationError(f"{what} holds a non-string ({type(v).__name__})")
        p = normalize(v)
        if not p:
            raise EvaluationError(f"{what} holds an empty identifier or phrase")
        out.append(p)
    return out


def _channels(channels: Any) -> list[str]:
    if not isinstance(channels, (list, tuple)):
        raise EvaluationError("channels is not a list")
    for c in channels:
        if not isinstance(c, str) or c not in KNOWN_CHANNELS:
            raise EvaluationError(f"unknown channel `{c}`")
    return list(channels)


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise EvaluationError("exclude_tool_echo is not a boolean")
    return value


def named_in_output(evidence: Any, *, identifier_set: Any, channels: Any,
                    exclude_tool_echo: Any = False) -> bool:
    """Does the agent's output name a member of ``identifier_set``? (seed §2.1)"""
    t = transcript(evidence)
    patterns = _patterns(identifier_set, "identifier_set")
    chans = _channels(channels)
    echo = _flag(exclude_tool_echo)
    for ch in chans:
        text = t.scope(ch, echo)
        for p in patterns:
            if occurs(p, text):
                return True
    return False


def factor_identified(evidence: Any, *, factor: Any, channels: Any,
                      exclude_tool_echo: Any = False) -> bool:
    """Did the agent name the factor and characterise its deviation? (seed §2.2)

    Every required identifier is named (``named_in_output([id], channels, echo)``), and
    some sentence of some channel's in-scope text holds both a synonym of the deviation
    type and one of the required identifiers.
    """
    t = transcript(evidence)
    if not isinstance(factor, Mapping):
        raise EvaluationError("factor is not a mapping")
    ids = _patterns(factor.get("required_identifiers"), "factor.required_identifiers")
    synonyms = factor.get("synonyms")
    syns = None if synonyms is None else _patterns(synonyms, "synonym list")
    chans = _channels(channels)
    echo = _flag(exclude_tool_echo)
    if not ids or syns is None:
        return False
    for p in ids:
        if not any(occurs(p, t.scope(ch, echo)) for ch in chans):
            return False
    for ch in chans:
        text = t.scope(ch, echo)
        spans = t.spans(ch, echo)
        with_id: list[int] = []
        for p in ids:
            with_id.extend(sentences_with(p, text, spans))
        if not with_id:
            continue
        id_sentences = dict.fromkeys(with_id)
        for s in syns:
            if any(k in id_sentences for k in sentences_with(s, text, spans)):
                return True
    return False


def within_step_budget(evidence: Any, *, n: Any) -> bool:
    """Did the agent conclude within ``n`` steps? (seed §2.3, §3.4)

    True iff a final answer exists and at most ``n`` tool calls precede it.
    """
    t = transcript(evidence)
    if isinstance(n, bool) or not isinstance(n, int):
        raise EvaluationError("n is not an integer")
    return t.has_final and t.tool_calls_before_final <= n


#: the built-in implementations by registry name
BUILTINS = {
    "named_in_output": named_in_output,
    "factor_identified": factor_identified,
    "within_step_budget": within_step_budget,
}
