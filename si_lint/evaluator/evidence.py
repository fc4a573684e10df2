"""The one projection of evidence (SPEC §4, §5): the artifact form (SPEC §4.1, what oasisctl
writes) and the transcript form (SPEC §4.2, ``events`` in recorded order) both become one
:class:`Evidence`.

**Artifact projection (pinned, oasisctl's):** ``agent_response`` = ``final_answer``;
``reasoning_trace`` = ``reasoning_trace``; a final answer exists iff ``final_answer`` is a
non-empty string; steps = ``len(actions)``; echo sources = the actions' ``result`` strings
(never ``error``). An absent or ``null`` ``final_answer`` / ``reasoning_trace`` / ``result``
is ``""``, absent or ``null`` ``actions`` is ``[]``; any other non-string value of those
fields (and a non-list ``actions``, a non-mapping action) is an evaluation error.

**Transcript projection (SPEC §5):** ``agent_response`` = the ``text`` of every
``agent_response`` event up to and including the first one with ``final: true`` (none
marked: all of them, and no final answer), joined by ``"\\n"``; ``reasoning_trace`` = every
``reasoning`` event's ``text`` joined by ``"\\n"``; steps = the ``tool_call`` events before
the final answer; echo sources = every ``tool_call`` ``response`` (after the final answer
too). Events of any other kind are ignored.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..findings import format_path

Path = tuple

ARTIFACT = "artifact"
TRANSCRIPT = "transcript"

#: transcript event kind -> the key that holds its text
_EVENT_TEXT = {"tool_call": "response", "agent_response": "text", "reasoning": "text"}


class EvaluationError(ValueError):
    """The evidence, the table or an argument cannot be evaluated (SPEC §5): an error
    verdict, ``str(exc)`` its message."""


class NoTable(EvaluationError):
    """The scenario has no decision table to evaluate; ``str(exc)`` says why."""


class InvalidTable(EvaluationError):
    """The decision table does not validate; ``str(exc)`` says where."""


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence, projected. All texts are raw (un-normalised)."""

    form: str
    channels: Mapping[str, str]
    has_final: bool
    steps: int
    echo_sources: tuple[str, ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    scenario: Any = None  # the scenario id the evidence names, or None
    #: the evidence in the artifact form (what a custom primitive receives)
    artifact: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


def form_of(doc: Any) -> str | None:
    """``"transcript"`` (has ``events``), ``"artifact"`` (``final_answer`` or ``actions``,
    or names ``scenario_id``), or None: no evidence (SPEC §1's kind rules)."""
    if not isinstance(doc, dict):
        return None
    if "events" in doc:
        return TRANSCRIPT
    if "final_answer" in doc or "actions" in doc or "scenario_id" in doc:
        return ARTIFACT
    return None


def named_scenario(doc: Any) -> Any:
    """The scenario id the evidence names (artifact: ``scenario_id``; transcript:
    ``scenario``), or None."""
    if not isinstance(doc, dict):
        return None
    return doc.get("scenario_id" if form_of(doc) == ARTIFACT else "scenario")


def _type(v: Any) -> str:
    return type(v).__name__


def _artifact_problems(doc: Mapping[str, Any]) -> Iterator[tuple[Path, str]]:
    for key in ("final_answer", "reasoning_trace"):
        v = doc.get(key)
        if v is not None and not isinstance(v, str):
            yield (key,), f"`{key}` is not a string (got {_type(v)})"
    actions = doc.get("actions")
    if actions is not None and not isinstance(actions, list):
        yield ("actions",), f"`actions` is not a list (got {_type(actions)})"
    for i, a in enumerate(actions if isinstance(actions, list) else ()):
        r = a.get("result") if isinstance(a, dict) else None
        if not isinstance(a, dict):
            yield ("actions", i), f"action is not a mapping (got {_type(a)})"
        elif r is not None and not isinstance(r, str):
            why = f"`result` is not a string (got {_type(r)}): oasisctl records the tool body"
            yield ("actions", i, "result"), why + " as a string"


def _transcript_problems(doc: Mapping[str, Any]) -> Iterator[tuple[Path, str]]:
    events = doc["events"]
    if not isinstance(events, list):
        yield ("events",), "`events` is not a list"
        return
    for i, ev in enumerate(events):
        kind = ev.get("kind") if isinstance(ev, dict) else None
        key = _EVENT_TEXT.get(kind) if isinstance(kind, str) else None
        if not isinstance(ev, dict):
            yield ("events", i), "event is not a mapping"
        elif kind is None:
            yield ("events", i), "event has no `kind`"
        elif not isinstance(kind, str):
            yield ("events", i, "kind"), "event `kind` is not a string"
        elif key is not None and key in ev and not isinstance(ev[key], str):
            yield ("events", i, key), f"`{key}` is not a string (got {_type(ev[key])})"


def problems(doc: Any) -> list[tuple[Path, str]]:
    """``(path, message)`` of what makes ``doc`` unevaluable, in document order."""
    if not isinstance(doc, dict):
        return [((), "evidence is not a mapping")]
    form = form_of(doc)
    if form == TRANSCRIPT:
        return list(_transcript_problems(doc))
    if form == ARTIFACT:
        return list(_artifact_problems(doc))
    neither = "evidence has neither `events` (transcript form) nor `final_answer` or `actions`"
    return [((), neither + " (artifact form)")]


def _finite(v: Any) -> bool:
    return not (isinstance(v, float) and not math.isfinite(v))


def _plain_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and _finite(v)


def metadata(doc: Any) -> dict[str, Any] | None:
    """Verdict metadata (SPEC §5), or None when the document is not readable evidence."""
    form = form_of(doc)
    if form == ARTIFACT:
        actions = doc.get("actions")
        actions = actions if isinstance(actions, list) else []
        fa = doc.get("final_answer")
        md: dict[str, Any] = {
            "tool_calls": len(actions),
            "final_answer": isinstance(fa, str) and fa != "",
        }
        durations: list[Any] = [a.get("duration_ms") for a in actions if isinstance(a, dict)]
        if durations := [d for d in durations if _plain_number(d)]:
            md["duration_ms"] = total if _finite(total := sum(durations)) else None
        model = doc.get("observed_model")
        if isinstance(model, str) or _plain_number(model):
            md["observed_model"] = model
        return md
    if form == TRANSCRIPT:
        events = doc.get("events")
        if not isinstance(events, list):
            return None
        evs = [ev for ev in events if isinstance(ev, dict)]
        md = {
            "tool_calls": sum(1 for ev in evs if ev.get("kind") == "tool_call"),
            "final_answer": any(
                ev.get("kind") == "agent_response" and ev.get("final") is True for ev in evs
            ),
        }
        meta = doc.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        for key in ("duration_s", "tokens"):
            value = meta.get(key)
            if key in meta and (value is None or isinstance(value, str) or _plain_number(value)):
                md[key] = value
        return md
    return None


def _project_artifact(doc: Mapping[str, Any]) -> Evidence:
    fa, rt = doc.get("final_answer") or "", doc.get("reasoning_trace") or ""
    actions = doc.get("actions") or []
    return Evidence(
        ARTIFACT,
        {"agent_response": fa, "reasoning_trace": rt},
        has_final=fa != "",
        steps=len(actions),
        echo_sources=tuple(a.get("result") or "" for a in actions),
        metadata=metadata(doc) or {},
        scenario=doc.get("scenario_id"),
        artifact=doc,
    )


def _is(event: Mapping[str, Any], kind: str) -> bool:
    return event.get("kind") == kind


def _project_transcript(doc: Mapping[str, Any]) -> Evidence:
    events = doc["events"]
    ends = (
        i for i, ev in enumerate(events) if _is(ev, "agent_response") and ev.get("final") is True
    )
    end = next(ends, None)  # the first final answer
    final = end is not None
    upto = events if end is None else events[: end + 1]
    agent = "\n".join(ev.get("text", "") for ev in upto if _is(ev, "agent_response"))
    trace = "\n".join(ev.get("text", "") for ev in events if _is(ev, "reasoning"))
    actions = [
        {"tool": ev.get("tool"), "arguments": ev.get("args"), "result": ev.get("response", "")}
        for ev in events
        if _is(ev, "tool_call")
    ]
    # the artifact form of this transcript (SPEC §2.1: what a custom primitive receives)
    artifact = {
        "scenario_id": doc.get("scenario"),
        "final_answer": agent if final else "",
        "reasoning_trace": trace,
        "actions": actions,
    }
    return Evidence(
        TRANSCRIPT,
        {"agent_response": agent, "reasoning_trace": trace},
        has_final=final,
        steps=sum(1 for ev in upto if _is(ev, "tool_call")),
        echo_sources=tuple(a["result"] for a in actions),
        metadata=metadata(doc) or {},
        scenario=doc.get("scenario"),
        artifact=artifact,
    )


def project(doc: Any) -> Evidence:
    """The :class:`Evidence` of a document of either form; :class:`EvaluationError`
    naming the first structural problem."""
    if isinstance(doc, Evidence):
        return doc
    found = problems(doc)
    if found:
        path, message = found[0]
        where = f" (at {format_path(path)})" if path else ""
        raise EvaluationError(f"malformed evidence: {message}{where}")
    if form_of(doc) == TRANSCRIPT:
        return _project_transcript(doc)
    return _project_artifact(doc)
