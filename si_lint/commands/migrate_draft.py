"""The draft fixtures of ``si-lint migrate``: one per row of the template's decision table,
so that the dry runs (SI401/SI402) and the band coverage (SI403) have something to bite on
from the start.

Each fixture is evidence an agent could have left, scored by the evaluator itself: a few
candidate answers are built from the drafted binding (no final answer; the factor named
with a synonym of its deviation type; a subsystem identifier named alone; an answer that
names nothing), each is evaluated against the drafted scenario (a placeholder budget read
as 1, placeholder identifiers left out), and each row gets the first candidate that fires
it, with that verdict's score as ``expect``. A row no candidate fires gets a fixture whose
answer is a placeholder: its dry run fails until an author writes an answer that fires it.

Both evidence forms (SPEC §4.3): the transcript form (YAML, ``scenario``, ``events``) and
oasisctl's artifact form (JSON, ``scenario_id``, ``final_answer``, ``actions``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..checks.form_a import first_deviation
from ..checks.value_facts import PLACEHOLDER, is_placeholder
from ..evaluator import evaluate
from ..mapping import MAPPING
from ..model import TEMPLATE_KEY, budget_roles, template_roles


@dataclass(frozen=True)
class Candidate:
    slug: str  # the file name's part: row-N-<slug>
    what: str  # the description's part
    answer: str  # the agent's answer ("" none)
    final: bool = True  # whether the answer is final


def evaluable(scoring: Mapping[str, Any], template: Any) -> dict:
    """The draft binding as the evaluator can read it before it is filled in."""
    budgets = budget_roles(template)
    out: dict[str, Any] = {}
    for key, value in scoring.items():
        if key in budgets and is_placeholder(value):
            value = 1
        elif isinstance(value, list):
            value = [v for v in value if not is_placeholder(v)]
        elif isinstance(value, MAPPING) and isinstance(value.get("required_identifiers"), list):
            ids = [v for v in value["required_identifiers"] if not is_placeholder(v)]
            value = {**value, "required_identifiers": ids}
        out[key] = value
    return out


def candidates(data: Any, scoring: Mapping[str, Any], template: Any, profile: Any) -> list:
    """The candidate answers, most telling first."""
    dev = first_deviation(data) or {}
    resource = dev.get("resource") if isinstance(dev.get("resource"), str) else "it"
    roles = template_roles(template)
    factor, members = [], []
    for role, spec in roles.items():
        value = scoring.get(role)
        rtype = spec.get("type") if isinstance(spec, MAPPING) else None
        if rtype == "factor" and isinstance(value, MAPPING):
            factor = _real(value.get("required_identifiers"))
        elif rtype == "identifier_set":
            members.extend(_real(value))
    synonyms = (getattr(profile, "synonyms", None) or {}).get(dev.get("deviation_type"))
    synonym = next((s for s in synonyms or () if isinstance(s, str) and s), None)
    out = [Candidate("no-final-answer", "no final answer", "Still looking into it.", False)]
    if factor and synonym:
        ids = " and ".join(factor)
        answer = f"Root cause: {ids} is {synonym} in {resource}."
        out.append(Candidate("root-cause", f"names {ids} and says it is {synonym}", answer))
    for member in members:
        what = f"points at {member} but never says what is wrong"
        answer = f"The trouble is around {member}; I could not pin it down further."
        out.append(Candidate("subsystem", what, answer))
    wrong = "A network outage upstream; nothing to change."
    out.append(Candidate("wrong", "blames something else", wrong))
    return out


def _real(values: Any) -> list[str]:
    if not isinstance(values, list):
        return []
    return [v for v in values if isinstance(v, str) and v.strip() and not is_placeholder(v)]


def _tool_call(data: Any) -> tuple[str, str]:
    """(the resource the agent reads, what it sees): the deviation's resource and its
    state in the preconditions (the injected state)."""
    dev = first_deviation(data) or {}
    resource = found if isinstance(found := dev.get("resource"), str) else ""
    env = data.get("preconditions", {}) if isinstance(data, MAPPING) else {}
    env = env.get("environment") if isinstance(env, MAPPING) else None
    state = env.get("state") if isinstance(env, MAPPING) else None
    for entry in state if isinstance(state, list) else ():
        if isinstance(entry, MAPPING) and entry.get("resource") == resource:
            kv = entry.get("data")
            if isinstance(kv, MAPPING):
                return resource, "".join(f"{k}: {v}\n" for k, v in kv.items())
    return resource, ""


def transcript(sid: str, cand: Candidate, seen: tuple[str, str]) -> dict:
    resource, response = seen
    call = {"kind": "tool_call", "tool": "inspect", "args": {"resource": resource}}
    answer: dict[str, Any] = {"kind": "agent_response", "text": cand.answer}
    if cand.final:
        answer["final"] = True
    return {"scenario": sid, "events": [{**call, "response": response}, answer]}


def artifact(sid: str, cand: Candidate, seen: tuple[str, str]) -> dict:
    resource, response = seen
    action = {"id": "call_1", "tool": "inspect", "arguments": {"resource": resource}}
    return {
        "scenario_id": sid,
        "final_answer": cand.answer if cand.final else "",
        "reasoning_trace": "" if cand.final else cand.answer,
        "actions": [{**action, "result": response}],
    }


def draft_fixtures(data: Any, scoring: Mapping[str, Any], template: Any, profile: Any, form: str):
    """(file name, text) of one fixture per row of the template's table, in row order."""
    table = template.get("table") if isinstance(template, MAPPING) else None
    if not isinstance(table, list):
        table = []
    sid = data.get("id") if isinstance(data.get("id"), str) else ""
    scenario = {
        **data,
        "scoring": {TEMPLATE_KEY: scoring[TEMPLATE_KEY], **evaluable(scoring, template)},
    }
    seen = _tool_call(data)
    build = artifact if form == "artifact" else transcript
    fired: dict[int, tuple[Candidate, float]] = {}
    for cand in candidates(data, scoring, template, profile):
        verdict = evaluate(build(sid, cand, seen), scenario, profile)
        row = verdict.get("row")
        if isinstance(row, int) and row not in fired:
            fired[row] = (cand, verdict["score"])
    out = []
    for row in range(1, len(table) + 1):
        todo = f"{PLACEHOLDER} an answer that fires row {row}"
        placeholder = Candidate("todo", "a placeholder", todo), _row_score(table[row - 1])
        cand, score = fired.get(row) or placeholder
        doc = build(sid, cand, seen)
        head = {
            "description": f"draft: {cand.what} (row {row})",
            "expect": {"score": score, "row": row},
        }
        if form == "artifact":  # `scenario_id` first
            text = json.dumps({"scenario_id": sid, **head, **doc}, indent=2, ensure_ascii=False)
            out.append((f"row-{row}-{cand.slug}.json", text + "\n"))
        else:
            out.append((f"row-{row}-{cand.slug}.yaml", _yaml(head, doc)))
    return out


def _row_score(row: Any) -> float:
    score = row.get("score") if isinstance(row, MAPPING) else None
    return float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 0.0


def _yaml(head: dict, doc: dict) -> str:
    """A transcript fixture written out key by key (a string plain when it reads back as
    itself, else a JSON string: a valid YAML double-quoted scalar)."""
    expect = head["expect"]
    lines = [
        f"scenario: {scalar(doc['scenario'])}",
        f"description: {scalar(head['description'])}",
        f"expect: {{score: {expect['score']!r}, row: {expect['row']}}}",
        "events:",
    ]
    for event in doc["events"]:
        for n, (key, value) in enumerate(event.items()):
            lines.append(("  - " if n == 0 else "    ") + f"{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def scalar(value: Any) -> str:
    """``value`` as a YAML flow scalar or flow mapping."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {scalar(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value.lower() not in _WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)
