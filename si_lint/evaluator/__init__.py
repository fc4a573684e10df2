"""The SI evaluator: one pure function of (evidence artifact, scenario, profile) — SPEC §5.

Public API (other modules code against these names):

* :func:`evaluate` ``(artifact, scenario, profile) -> dict`` — the verdict::

      {"score": 1.0, "row": 2, "metadata": {"tool_calls": 3, "final_answer": True, ...}}
      {"score": None, "row": None, "error": "...", "metadata": {...}}

  ``score`` is always a float, ``row`` 1-based. ``metadata`` (never scored) holds
  ``tool_calls`` (every ``tool_call`` event, those after the final answer included),
  ``final_answer`` and, when the artifact's ``metadata`` has them, ``duration_s`` and
  ``tokens``; it is present whenever ``events`` is a list. ``evaluate`` never raises.
* :func:`scenario_table` ``(scenario, profile) -> (table, bindings)``; :class:`NoTable`
  (an :class:`EvaluationError` saying why) when the scenario has no table to evaluate.
* :func:`prepare` ``(scenario, profile) -> CompiledTable`` (or an :class:`EvaluationError`:
  the error every verdict gets) and :func:`score` ``(artifact, scenario, profile, prepared)``
  — :func:`evaluate` in two steps, the table prepared once for many artifacts.
* :func:`artifact_problems` ``(artifact) -> [(path, message)]`` — structural problems that
  make evidence unevaluable (SI408); ``path`` is a tuple such as ``("events", 2, "text")``.
* :func:`probes` ``(scenario, profile) -> [Probe]`` — SI404–SI407 (see :mod:`.probes`).
* :func:`untrusted_primitives` ``(scenario, profile) -> [name]`` — what would stop an
  evaluation for want of a trusted implementation (SI409).
* :func:`normalize`, :func:`occurs`, :func:`split_sentences` — the pinned text rules.

No I/O, no clock, no randomness, no module-level mutable state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from si_lint.limits import to_float

from ..mapping import MAPPING
from ..profile import Profile
from .errors import EvaluationError, InvalidTable, NoTable
from .evidence import Evidence, project
from .evidence import metadata as evidence_metadata
from .evidence import problems as evidence_problems
from .locate import locate_table, untrusted_primitives
from .primitives import factor_identified, named_in_output, within_step_budget
from .probes import Probe, probes
from .tables import CompiledTable, compile_table, run_table
from .text import Reading, normalize, occurs, split_sentences
from .why import explain as explain_verdict

__all__ = [
    "Evidence",
    "EvaluationError",
    "InvalidTable",
    "NoTable",
    "Reading",
    "prepare",
    "project",
    "score",
    "Probe",
    "artifact_problems",
    "evaluate",
    "factor_identified",
    "named_in_output",
    "normalize",
    "occurs",
    "probes",
    "scenario_table",
    "split_sentences",
    "untrusted_primitives",
    "within_step_budget",
    "CompiledTable",
    "compile_table",
]

Path = tuple


def artifact_problems(artifact: Any) -> list[tuple[Path, str]]:
    """Structural problems that make ``artifact`` (either evidence form) unevaluable, in
    document order (SI408 at lint time)."""
    return evidence_problems(artifact)


def _metadata(artifact: Any) -> dict[str, Any] | None:
    return evidence_metadata(artifact)


def _error(message: str, metadata: dict[str, Any] | None) -> dict[str, Any]:
    verdict: dict[str, Any] = {"score": None, "row": None, "error": message}
    if metadata is not None:
        verdict["metadata"] = metadata
    return verdict


def scenario_table(scenario: Any, profile: Profile) -> tuple[list, dict]:
    """The decision table of ``scenario`` (its template's, or its composite's) and the
    bindings its role references resolve against (``{}`` for a composite); :class:`NoTable`
    when it has none."""
    table, bindings, _composite = locate_table(scenario, profile)
    return table, bindings


def prepare(scenario: Any, profile: Profile) -> CompiledTable:
    """The scenario's decision table located and validated once: what :func:`score` needs
    for each artifact. An :class:`EvaluationError` is the error every verdict gets (a
    broken registry, :class:`NoTable`, :class:`InvalidTable`)."""
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
    """One verdict with a prepared table (``prepare(scenario, profile)``, or the error that
    stopped it; None: prepared here); ``explain`` adds ``why`` (the row that fired and, for
    a lower band, the clause that failed: :func:`si_lint.evaluator.why.explain`'s data,
    its ``text`` the one line); ``other``, the same table under other constants, adds
    ``other``: ``{"score", "row"}`` (or ``"error"``) of the evidence read so."""
    if prepared is None:
        try:
            prepared = prepare(scenario, profile)
        except EvaluationError as exc:  # the error every verdict gets
            prepared = exc
    known = prepared.constants if isinstance(prepared, CompiledTable) else None
    try:
        reading = Reading(artifact, known if known is not None else profile.constants)
    except (EvaluationError, ValueError) as exc:
        return _error(str(exc), _metadata(artifact))
    metadata = dict(reading.evidence.metadata) if reading.evidence.metadata is not None else None
    sid = scenario.get("id") if isinstance(scenario, MAPPING) else None
    named = reading.evidence.scenario
    if named is not None and named != sid:
        return _error(f"evidence is for scenario `{_short(named)}`, not `{sid}`", metadata)
    if isinstance(prepared, EvaluationError):
        return _error(str(prepared), metadata)
    try:
        value, row = run_table(prepared, reading, artifact, profile, scenario)
    except EvaluationError as exc:
        return _error(str(exc), metadata)
    except RecursionError:
        return _error("the decision table is nested too deeply", metadata)
    verdict: dict[str, Any] = {"score": to_float(value), "row": row}
    if metadata is not None:
        verdict["metadata"] = metadata
    if explain:
        try:
            verdict["why"] = explain_verdict(prepared, row, reading)
        except (EvaluationError, RecursionError):
            pass
    if other is not None:
        verdict["other"] = _other(other, reading, artifact, profile, scenario)
    return verdict


def _other(table: CompiledTable, reading: Reading, artifact, profile, scenario) -> dict:
    """The verdict of ``table`` (another reading of the same table) on the same evidence."""
    try:
        value, row = run_table(
            table, reading.with_constants(table.constants), artifact, profile, scenario
        )
    except EvaluationError as exc:
        return {"score": None, "row": None, "error": str(exc)}
    except RecursionError:
        return {"score": None, "row": None, "error": "the decision table is nested too deeply"}
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
            metadata = _metadata(artifact)
        except Exception:
            metadata = None
        return _error(f"internal evaluator error: {type(exc).__name__}: {exc}", metadata)
