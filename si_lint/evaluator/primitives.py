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

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..mapping import MAPPING
from .errors import EvaluationError
from .text import INDEX_THRESHOLD, KNOWN_CHANNELS, normalize, transcript


def patterns_of(values: Any, what: str) -> list[str]:
    if not isinstance(values, (list, tuple)):
        raise EvaluationError(f"{what} is not a list")
    if set(map(type, values)) <= _STR:  # every value a plain str (C speed: no generator)
        hit = _normalized(tuple(values))  # the same table arguments score every artifact
        if hit is not None:
            return list(hit)
    out: list[str] = []
    for v in values:
        if not isinstance(v, str):
            raise EvaluationError(f"{what} holds a non-string ({type(v).__name__})")
        p = normalize(v)
        if not p:
            raise EvaluationError(f"{what} holds an empty identifier or phrase")
        out.append(p)
    return out


_STR = frozenset((str,))


@lru_cache(maxsize=4096)
def _normalized(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """The normalised strings, or None when one normalises to nothing (an error)."""
    out = tuple(normalize(v) for v in values)
    return None if not all(out) else out


def channels_of(channels: Any) -> list[str]:
    if not isinstance(channels, (list, tuple)):
        raise EvaluationError("channels is not a list")
    for c in channels:
        if not isinstance(c, str) or c not in KNOWN_CHANNELS:
            raise EvaluationError(f"unknown channel `{c}`")
    return list(channels)


def flag_of(value: Any) -> bool:
    if not isinstance(value, bool):
        raise EvaluationError("exclude_tool_echo is not a boolean")
    return value


def named_args(identifier_set: Any, channels: Any, exclude_tool_echo: Any = False) -> tuple:
    """``named_in_output``'s arguments checked and normalised (what :func:`named_core`
    takes); raises :class:`EvaluationError` for an invalid one."""
    return (
        patterns_of(identifier_set, "identifier_set"),
        channels_of(channels),
        flag_of(exclude_tool_echo),
    )


def named_core(t: Any, patterns: list[str], chans: list[str], echo: bool) -> bool:
    for ch in chans:
        if t.names_any(patterns, ch, echo):
            return True
    return False


def named_in_output(
    evidence: Any, *, identifier_set: Any, channels: Any, exclude_tool_echo: Any = False
) -> bool:
    """Does the agent's output name a member of ``identifier_set``? (seed §2.1)

    One pass over each channel's in-scope text for the whole set (a token index when the
    set is large), not one scan per identifier."""
    t = transcript(evidence)
    return named_core(t, *named_args(identifier_set, channels, exclude_tool_echo))


def _window(a: list[int], b: list[int], radius: int) -> tuple[int, int] | None:
    """The first ``(i, j)`` (``i`` from ``a``, ``j`` from ``b``, both ascending) with
    ``|i - j| <= radius``, or None."""
    if not a or not b:
        return None
    k = 0
    for i in a:
        while k < len(b) and b[k] < i - radius:
            k += 1
        if k < len(b) and b[k] <= i + radius:
            return i, b[k]
    return None


def factor_args(factor: Any, channels: Any, exclude_tool_echo: Any) -> tuple:
    """``factor_identified``'s arguments checked and normalised (what
    :func:`factor_core` takes); raises :class:`EvaluationError` for an invalid one."""
    if type(factor) is not dict and not isinstance(factor, MAPPING):
        raise EvaluationError("factor is not a mapping")
    ids = patterns_of(factor.get("required_identifiers"), "factor.required_identifiers")
    synonyms = factor.get("synonyms")
    syns = None if synonyms is None else patterns_of(synonyms, "synonym list")
    chans = channels_of(channels)
    echo = flag_of(exclude_tool_echo)
    return ids, syns, chans, echo, factor.get("deviation_type") if syns is None else None


def factor_check(t: Any, factor: Any, channels: Any, exclude_tool_echo: Any):
    """What ``factor_identified`` decides, with the evidence for it: ``(True, (channel,
    identifier sentence, synonym sentence, identifier, synonym))``, or ``(False, reason)``
    where ``reason`` is ``("unnamed", id)`` / ``("no-synonyms", type)`` /
    ``("no-window", None)`` (see :mod:`si_lint.evaluator.why`)."""
    t = transcript(t)
    return factor_core(t, *factor_args(factor, channels, exclude_tool_echo))


def factor_core(t: Any, ids: list, syns: list | None, chans: list, echo: bool, dtype: Any):
    """:func:`factor_check` with its arguments checked (:func:`factor_args`)."""
    if not ids:
        return False, ("no-identifiers", None)
    if syns is None:
        return False, ("no-synonyms", dtype)
    many = len(ids) > INDEX_THRESHOLD
    for p in ids:
        if not any(t.occurs(p, ch, echo, many=many) for ch in chans):
            return False, ("unnamed", p)
    radius = t.constants.cooccurrence_radius
    substring = t.constants.synonym_match == "substring"
    for ch in chans:
        text = t.scope(ch, echo)  # a pattern not in it is in no sentence (C-speed test)
        with_id: dict[int, str] = {}
        for p in ids:
            if p in text:
                for k in t.sentences(p, ch, echo, many=many):
                    with_id.setdefault(k, p)
        if not with_id:
            continue
        id_sents = sorted(with_id)
        best = None
        for syn in [syn for syn in syns if syn in text]:
            hit = _window(id_sents, t.sentences(syn, ch, echo, substring=substring), radius)
            if hit is not None and (best is None or hit < best[:2]):
                best = (hit[0], hit[1], syn)
        if best is not None:
            return True, (ch, best[0], best[1], with_id[best[0]], best[2])
    return False, ("no-window", None)


def factor_identified(
    evidence: Any, *, factor: Any, channels: Any, exclude_tool_echo: Any = False
) -> bool:
    """Did the agent name the factor and characterise its deviation? (seed §2.2)

    Every required identifier is named (``named_in_output([id], channels, echo)``), and
    some sentence of some channel's in-scope text holds one of the required identifiers
    while it, or a non-blank sentence at most ``cooccurrence_radius`` sentences before or
    after it (the profile's constant; the seed's is 0: the same sentence), holds a synonym
    of the deviation type (whole tokens, or anywhere under ``synonym_match: substring``).
    """
    return factor_check(evidence, factor, channels, exclude_tool_echo)[0]


def factor_decides(t: Any, *args: Any) -> bool:
    return factor_core(t, *args)[0]


def budget_args(n: Any) -> tuple:
    if isinstance(n, bool) or not isinstance(n, int):
        raise EvaluationError("n is not an integer")
    return (n,)


def budget_core(t: Any, n: int) -> bool:
    ev = t.evidence
    return ev.has_final and ev.steps <= n


def within_step_budget(evidence: Any, *, n: Any) -> bool:
    """Did the agent conclude within ``n`` steps? (seed §2.3, §3.4)

    True iff a final answer exists and the steps (artifact: ``len(actions)``; transcript:
    the tool calls before the final answer) are at most ``n``.
    """
    t = transcript(evidence)
    return budget_core(t, *budget_args(n))


#: the built-in implementations by registry name
BUILTINS: dict[str, Callable[..., bool]] = {
    "named_in_output": named_in_output,
    "factor_identified": factor_identified,
    "within_step_budget": within_step_budget,
}

#: a built-in's arguments checked once (``prepare(**arguments)``, raising what the
#: built-in would raise) and its decision on a Reading (``decide(reading, *prepared)``):
#: a compiled table checks a row's arguments once, not once per artifact
PREPARED: dict[str, tuple[Callable[..., tuple], Callable[..., bool]]] = {
    "named_in_output": (named_args, named_core),
    "factor_identified": (factor_args, factor_decides),
    "within_step_budget": (budget_args, budget_core),
}
