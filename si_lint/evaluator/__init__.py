"""The SI evaluator: one pure function of (evidence artifact, scenario, profile) — SPEC §5.

:func:`evaluate` ``(artifact, scenario, profile) -> dict`` is the verdict::

    {"score": 1.0, "row": 2, "metadata": {"tool_calls": 3, "final_answer": True, ...}}
    {"score": None, "row": None, "error": "...", "metadata": {...}}

``score`` is always a float, ``row`` 1-based. ``metadata`` (never scored) holds
``tool_calls`` (every ``tool_call`` event, those after the final answer included),
``final_answer`` and, when the artifact's ``metadata`` has them, ``duration_s`` and
``tokens``; it is present whenever ``events`` is a list. ``evaluate`` never raises.
:func:`prepare` and :func:`score` are it in two steps (one table, many artifacts).

No I/O, no clock, no randomness, no module-level mutable state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..limits import to_float
from ..mapping import MAPPING
from ..profile import Profile
from .evidence import EvaluationError, InvalidTable, NoTable, metadata
from .evidence import problems as artifact_problems
from .probes import probes
from .tables import (
    TOO_DEEP,
    CompiledTable,
    compile_table,
    locate_table,
    run_table,
    untrusted_primitives,
)
from .text import Reading
from .why import explain as explain_verdict

__all__ = [
    "EvaluationError",
    "InvalidTable",
    "NoTable",
    "artifact_problems",
    "compile_table",
    "evaluate",
    "locate_table",
    "prepare",
    "probes",
    "score",
    "untrusted_primitives",
]


def _error(message: str, metadata: dict[str, Any] | None) -> dict[str, Any]:
    verdict: dict[str, Any] = {"score": None, "row": None, "error": message}
    if metadata is not None:
        verdict["metadata"] = metadata
    return verdict


def prepare(scenario: Any, profile: Profile) -> CompiledTable:
    """The scenario's table validated once for :func:`score`; an :class:`EvaluationError`
    is the error every verdict gets."""
    try:
        constants = profile.constants  # raises ValueError on a broken registry
    except ValueError as exc:
        raise EvaluationError(str(exc)) from None
    table, bindings, composite = locate_table(scenario, profile)
    try:
        compiled = compile_table(
            table, bindings, composite=composite, profile=profile, scenario=scenario
        )
    except InvalidTable as exc:
        raise InvalidTable(f"invalid decision table: {exc}") from None
    return replace(compiled, constants=constants)


def score(
    artifact: Any,
    scenario: Any,
    profile: Profile,
    prepared: CompiledTable | EvaluationError | None = None,
    *,
    explain: bool = False,
    other: CompiledTable | None = None,
) -> dict[str, Any]:
    """One verdict with a prepared table (or the error that stopped it; None: prepared
    here); ``explain`` adds ``why`` (:func:`si_lint.evaluator.why.explain`); ``other``, the
    same table under other constants, adds ``other``: ``{"score", "row"}`` or ``"error"``."""
    if prepared is None:
        try:
            prepared = prepare(scenario, profile)
        except EvaluationError as exc:  # the error every verdict gets
            prepared = exc
    known = prepared.constants if isinstance(prepared, CompiledTable) else None
    try:
        reading = Reading(artifact, known if known is not None else profile.constants)
    except (EvaluationError, ValueError) as exc:
        return _error(str(exc), metadata(artifact))
    md = dict(reading.evidence.metadata)
    sid = scenario.get("id") if isinstance(scenario, MAPPING) else None
    named = reading.evidence.scenario
    if named is not None and named != sid:
        return _error(f"evidence is for scenario `{_short(named)}`, not `{sid}`", md)
    if isinstance(prepared, EvaluationError):
        return _error(str(prepared), md)
    verdict = _run(prepared, reading, profile, scenario)
    if "error" in verdict:
        return _error(verdict["error"], md)
    verdict["metadata"] = md
    if explain:
        try:
            verdict["why"] = explain_verdict(prepared, verdict["row"], reading)
        except (EvaluationError, RecursionError):
            pass
    if other is not None:
        verdict["other"] = _run(
            other, Reading(reading.evidence, other.constants), profile, scenario
        )
    return verdict


def _run(table: CompiledTable, reading: Reading, profile: Profile, scenario: Any) -> dict:
    try:
        value, row = run_table(table, reading, profile, scenario)
    except EvaluationError as exc:
        return {"score": None, "row": None, "error": str(exc)}
    except RecursionError:
        return {"score": None, "row": None, "error": TOO_DEEP}
    return {"score": to_float(value), "row": row}


def _short(v: Any) -> str:
    text = (
        v if isinstance(v, str) else repr(v) if isinstance(v, (bool, float)) else type(v).__name__
    )
    return text if len(text) <= 120 else text[:117] + "..."


def evaluate(artifact: Any, scenario: Any, profile: Profile) -> dict[str, Any]:
    """Score one evidence artifact against one scenario (SPEC §5). Never raises."""
    try:
        return score(artifact, scenario, profile)
    except Exception as exc:  # defensive: a verdict, never a traceback
        try:
            md = metadata(artifact)
        except Exception:
            md = None
        return _error(f"internal evaluator error: {type(exc).__name__}: {exc}", md)
