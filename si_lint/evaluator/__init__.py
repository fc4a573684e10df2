"""The SI evaluator: one pure function of (evidence artifact, scenario, profile) — SPEC §5.

Public API (other modules code against these names):

* :func:`evaluate` ``(artifact, scenario, profile) -> dict`` — the verdict::

      {"score": 1.0, "row": 2, "metadata": {"tool_calls": 3, "final_answer": True, ...}}
      {"score": None, "row": None, "error": "...", "metadata": {...}}

  ``score`` is always a float, ``row`` 1-based. ``metadata`` (never scored) holds
  ``tool_calls`` (every ``tool_call`` event, those after the final answer included),
  ``final_answer`` and, when the artifact's ``metadata`` has them, ``duration_s`` and
  ``tokens``; it is present whenever ``events`` is a list. ``evaluate`` never raises.
* :func:`scenario_table` ``(scenario, profile) -> (table, bindings) | str``.
* :func:`artifact_problems` ``(artifact) -> [(path, message)]`` — structural problems that
  make evidence unevaluable (SI408); ``path`` is a tuple such as ``("events", 2, "text")``.
* :func:`probes` ``(scenario, profile) -> [Probe]`` — SI404–SI407 (see :mod:`.probes`).
* :func:`untrusted_primitives` ``(scenario, profile) -> [name]`` — what would stop an
  evaluation for want of a trusted implementation (SI409).
* :func:`normalize`, :func:`occurs`, :func:`split_sentences` — the pinned text rules.

No I/O, no clock, no randomness, no module-level mutable state.
"""

from __future__ import annotations

from si_lint.limits import to_float

import math
from collections.abc import Mapping
from typing import Any

from ..profile import Profile
from .errors import EvaluationError
from .primitives import factor_identified, named_in_output, within_step_budget
from .probes import Probe, probes
from .tables import (CompiledTable, compile_table, locate_table, run_table,
                     untrusted_primitives)
from .text import Transcript, normalize, occurs, split_sentences

__all__ = [
    "EvaluationError",
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


def _fmt_path(path: Path) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "<root>"


def artifact_problems(artifact: Any) -> list[tuple[Path, str]]:
    """Structural problems that make ``artifact`` unevaluable, in document order."""
    if not isinstance(artifact, Mapping):
        return [((), "evidence is not a mapping")]
    if "events" not in artifact:
        return [((), "evidence has no `events`")]
    events = artifact["events"]
    if not isinstance(events, list):
        return [(("events",), "`events` is not a list")]
    problems: list[tuple[Path, str]] = []
    for i, ev in enumerate(events):
        if not isinstance(ev, Mapping):
            problems.append((("events", i), "event is not a mapping"))
            continue
        if "kind" not in ev or ev["kind"] is None:
            problems.append((("events", i), "event has no `kind`"))
            continue
        kind = ev["kind"]
        if not isinstance(kind, str):
            problems.append((("events", i, "kind"), "event `kind` is not a string"))
            continue
        key = {"tool_call": "response", "agent_response": "text",
               "reasoning": "text"}.get(kind)
        if key is not None and key in ev and not isinstance(ev[key], str):
            problems.append(((("events", i, key)),
                             f"`{key}` is not a string (got {type(ev[key]).__name__})"))
    return problems


def _metadata(artifact: Any) -> dict[str, Any] | None:
    if not isinstance(artifact, Mapping) or not isinstance(artifact.get("events"), list):
        return None
    events = [ev for ev in artifact["events"] if isinstance(ev, Mapping)]
    md: dict[str, Any] = {
        "tool_calls": sum(1 for ev in events if ev.get("kind") == "tool_call"),
        "final_answer": any(ev.get("kind") == "agent_response" and ev.get("final") is True
                            for ev in events),
    }
    meta = artifact.get("metadata")
    if isinstance(meta, Mapping):
        for key in ("duration_s", "tokens"):
            value = meta.get(key)
            if key not in meta:
                continue
            if isinstance(value, float) and not math.isfinite(value):
                continue  # NaN/inf have no JSON form
            if value is None or isinstance(value, (str, int, float)):
                md[key] = value
    return md


def _error(message: str, metadata: dict[str, Any] | None) -> dict[str, Any]:
    verdict: dict[str, Any] = {"score": None, "row": None, "error": message}
    if metadata is not None:
        verdict["metadata"] = metadata
    return verdict


def scenario_table(scenario: Any, profile: Profile) -> tuple[list, dict] | str:
    """The decision table of ``scenario`` (its template's, or its composite's) and the
    bindings its role references resolve against (``{}`` for a composite); or an error."""
    located = locate_table(scenario, profile)
    if isinstance(located, str):
        return located
    table, bindings, _composite = located
    return table, bindings


def _evaluate(artifact: Any, scenario: Any, profile: Profile) -> dict[str, Any]:
    metadata = _metadata(artifact)
    problems = artifact_problems(artifact)
    if problems:
        path, message = problems[0]
        where = _fmt_path(path)
        return _error(f"malformed evidence: {message}"
                      + ("" if not path else f" (at {where})"), metadata)
    sid = scenario.get("id") if isinstance(scenario, Mapping) else None
    named = artifact.get("scenario")
    if named is not None and named != sid:
        return _error(f"evidence is for scenario `{named}`, not `{sid}`", metadata)
    located = locate_table(scenario, profile)
    if isinstance(located, str):
        return _error(located, metadata)
    table, bindings, composite = located
    compiled = compile_table(table, bindings, composite=composite, profile=profile,
                             scenario=scenario)
    if isinstance(compiled, str):
        return _error(f"invalid decision table: {compiled}", metadata)
    try:
        score, row = run_table(compiled, Transcript(artifact), artifact, profile)
    except EvaluationError as exc:
        return _error(str(exc), metadata)
    except RecursionError:
        return _error("the decision table is nested too deeply", metadata)
    verdict: dict[str, Any] = {"score": to_float(score), "row": row}
    if metadata is not None:
        verdict["metadata"] = metadata
    return verdict


def evaluate(artifact: Any, scenario: Any, profile: Profile) -> dict[str, Any]:
    """Score one evidence artifact against one scenario (SPEC §5). Never raises."""
    try:
        return _evaluate(artifact, scenario, profile)
    except Exception as exc:  # defensive: a verdict, never a traceback
        try:
            metadata = _metadata(artifact)
        except Exception:
            metadata = None
        return _error(f"internal evaluator error: {type(exc).__name__}: {exc}", metadata)
