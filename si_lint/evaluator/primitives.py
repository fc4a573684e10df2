"""The three built-in primitives of registry v1 (seed §2.1–§2.3, SPEC §5), each a pure
``def name(evidence, *, <params>) -> bool``. ``evidence`` is the SPEC §4 artifact as plain
data or a :class:`~si_lint.evaluator.text.Reading` of it (one reading per evaluation);
``factor`` is the binding as the evaluator resolves it::

    {"ref": "smtp-port-removed", "required_identifiers": ["SMTP_PORT"],
     "deviation_type": "absent_key",            # from the scenario's injection.deviations
     "synonyms": ["missing", "absent", ...]}    # from the profile; None when it has none

Invalid arguments and empty identifiers/phrases raise :class:`EvaluationError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..mapping import MAPPING
from .evidence import EvaluationError
from .text import KNOWN_CHANNELS, normalize, transcript


def patterns_of(values: Any, what: str) -> list[str]:
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


def named_in_output(
    evidence: Any, *, identifier_set: Any, channels: Any, exclude_tool_echo: Any = False
) -> bool:
    """Does the agent's output name a member of ``identifier_set``? (seed §2.1)"""
    t = transcript(evidence)
    ids = patterns_of(identifier_set, "identifier_set")
    chans = channels_of(channels)
    echo = flag_of(exclude_tool_echo)
    return any(t.occurs(p, ch, echo) for ch in chans for p in ids)


def _window(a: list[int], b: list[int], radius: int) -> tuple[int, int] | None:
    """The first ``(i, j)`` (``i`` from ``a``, ``j`` from ``b``, both ascending) with
    ``|i - j| <= radius``, or None."""
    k = 0
    for i in a:
        while k < len(b) and b[k] < i - radius:
            k += 1
        if k < len(b) and b[k] <= i + radius:
            return i, b[k]
    return None


def factor_check(evidence: Any, factor: Any, channels: Any, exclude_tool_echo: Any = False):
    """What ``factor_identified`` decides, with the evidence for it: ``(True, (channel,
    identifier sentence, synonym sentence, identifier, synonym))``, or ``(False, reason)``
    where ``reason`` is ``("no-identifiers", None)`` / ``("no-synonyms", type)`` /
    ``("unnamed", id)`` / ``("no-window", None)`` (see :mod:`si_lint.evaluator.why`)."""
    t = transcript(evidence)
    if not isinstance(factor, MAPPING):
        raise EvaluationError("factor is not a mapping")
    ids = patterns_of(factor.get("required_identifiers"), "factor.required_identifiers")
    synonyms = factor.get("synonyms")
    syns = None if synonyms is None else patterns_of(synonyms, "synonym list")
    chans = channels_of(channels)
    echo = flag_of(exclude_tool_echo)
    if not ids:
        return False, ("no-identifiers", None)
    if syns is None:
        return False, ("no-synonyms", factor.get("deviation_type"))
    # clause 1, the identifier conjunction: every required identifier is named
    for p in ids:
        if not any(t.occurs(p, ch, echo) for ch in chans):
            return False, ("unnamed", p)
    # clause 2, the deviation-type co-occurrence: a synonym (whole tokens, or anywhere
    # under `synonym_match: substring`) in an identifier's sentence or a non-blank one at
    # most the profile's cooccurrence_radius away (the seed's radius is 0)
    radius = t.constants.cooccurrence_radius
    whole = t.constants.synonym_match != "substring"
    for ch in chans:
        with_id: dict[int, str] = {}
        for p in ids:
            for k in t.sentences(p, ch, echo):
                with_id.setdefault(k, p)
        id_sentences = sorted(with_id)
        best = None
        for syn in syns:
            hit = _window(id_sentences, t.sentences(syn, ch, echo, whole=whole), radius)
            if hit is not None and (best is None or hit < best[:2]):
                best = (*hit, syn)
        if best is not None:
            return True, (ch, best[0], best[1], with_id[best[0]], best[2])
    return False, ("no-window", None)


def factor_identified(
    evidence: Any, *, factor: Any, channels: Any, exclude_tool_echo: Any = False
) -> bool:
    """Did the agent name the factor and characterise its deviation? (seed §2.2; the two
    clauses: :func:`factor_check`)"""
    return factor_check(evidence, factor, channels, exclude_tool_echo)[0]


def within_step_budget(evidence: Any, *, n: Any) -> bool:
    """Did the agent conclude (a final answer) within ``n`` steps? (seed §2.3, §3.4)"""
    ev = transcript(evidence).evidence
    if isinstance(n, bool) or not isinstance(n, int):
        raise EvaluationError("n is not an integer")
    return ev.has_final and ev.steps <= n


BUILTINS: dict[str, Callable[..., bool]] = {
    "named_in_output": named_in_output,
    "factor_identified": factor_identified,
    "within_step_budget": within_step_budget,
}
