"""Probes SI404–SI407 (their rule pages say what each uses and must score): synthesised
evidence that a sound decision table must score right, derived from the *validated* table
(one that does not validate gets none: its error is reported instead)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..mapping import MAPPING
from ..model import is_int, predicate_calls
from ..profile import Profile
from .evidence import InvalidTable, NoTable
from .tables import CompiledTable, compile_table, finite, locate_table, walk

NOT_POSITIVE = "not_positive"
BELOW_TOP = "below_top"
NOT_ZERO = "not_zero"
ZERO = "zero"

#: the over-budget probe is made only for budgets below this many steps
MAX_PROBE_STEPS = 10_000


def _rows(table: Any) -> list[tuple[int, float, Any]]:
    """``(row, score, when)`` of every row whose score is a finite number."""
    rows = table if isinstance(table, list) else []
    return [
        (i, s, r.get("when"))
        for i, r in enumerate(rows, start=1)
        if isinstance(r, MAPPING) and (s := finite(r.get("score"))) is not None
    ]


def _partial_rows(table: Any, top: float) -> list[tuple[int, float]]:
    return [
        (i, s)
        for i, s, when in _rows(table)
        if 0.0 < s < top and any(c.name == "named_in_output" for c in predicate_calls(when))
    ]


@dataclass(frozen=True)
class Probe:
    code: str
    description: str
    artifact: dict = field(compare=False)
    expect: str = ""

    def check(self, verdict: Any, table: Any) -> str | None:
        """A message when ``table`` scored this probe wrongly (an error verdict is the
        caller's to report)."""
        if not isinstance(verdict, MAPPING) or (score := finite(verdict.get("score"))) is None:
            return None
        top = max((s for _, s, _ in _rows(table)), default=None)
        wrong = f"{self.description}, but it scores {score!r} (row {verdict.get('row')})"
        if self.expect in (NOT_POSITIVE, ZERO) and score > 0.0:
            return wrong
        if self.expect == BELOW_TOP and top is not None and top > 0.0 and score >= top:
            return f"{wrong}, the top band"
        if self.expect == NOT_ZERO and score == 0.0 and top is not None:
            bands = ", ".join(f"{s!r} (row {i})" for i, s in _partial_rows(table, top))
            return f"{wrong}, not the partial band {bands}"
        return None


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _identifiers(items: list) -> list[str]:
    return [s for s in _unique(items) if isinstance(s, str) and s.strip()]


@dataclass
class _Inputs:
    factor_ids: list[str]
    set_ids: list[str]
    synonyms: list[str]
    budgets: list[int]
    channels: list[str]


def _inputs(compiled: CompiledTable, profile: Profile) -> _Inputs:
    factor_ids: list[str] = []
    synonyms: list[str] = []
    set_ids: list[str] = []
    top_set_ids: list[str] = []
    budgets: list[int] = []
    channels: list[str] = []
    registered = profile.primitives
    top = max((s for _, s in compiled.rows), default=0.0)
    for node, score in compiled.rows:
        for prim in walk(node):
            name, args = prim[1], prim[2]
            params = registered.get(name, {}).get("params") or []
            types = {p.get("name"): p.get("type") for p in params if isinstance(p, MAPPING)}
            for pname, value in args.items():
                kind = types.get(pname)
                if kind == "factor" and isinstance(value, MAPPING):
                    factor_ids.extend(value.get("required_identifiers") or [])
                    syns = [
                        s for s in value.get("synonyms") or [] if isinstance(s, str) and s.strip()
                    ]
                    if syns:
                        synonyms.append(syns[0])
                elif kind == "identifier_set" and isinstance(value, list):
                    set_ids.extend(value)
                    if score == top:
                        top_set_ids.extend(value)
                elif kind == "channels" and isinstance(value, list):
                    channels.extend(value)
            if name == "within_step_budget" and is_int(n := args.get("n")):
                budgets.append(n)
    return _Inputs(
        factor_ids=_identifiers(factor_ids or top_set_ids or set_ids),
        set_ids=_identifiers(set_ids),
        synonyms=_unique(synonyms) or ["missing"],
        budgets=budgets,
        channels=_unique(channels) or ["agent_response"],
    )


#: what each probe is, in its messages
_SAYS = {
    "SI404": "an answer that only repeats verbatim lines of a tool response (the factor "
    "identifiers with a synonym) must not reach a positive band",
    "SI405": "an answer naming the identifiers alone, with no characterisation, must not "
    "reach the top band",
    "SI406": "an answer naming the factor identifiers without characterisation should "
    "reach the partial band",
    "SI407 over": "a correct, characterised answer after {steps} tool calls (over the step "
    "budget) must score 0.0",
    "SI407 never": "a correct, characterised answer that is never marked final (no final "
    "answer) must score 0.0",
}


def probes(scenario: Any, profile: Profile, compiled: Any = None) -> list[Probe]:
    """The probes of a scenario's table; ``compiled``: that table, when the caller has
    compiled it already."""
    try:
        table, bindings, composite = locate_table(scenario, profile)
        if compiled is None:
            compiled = compile_table(
                table, bindings, composite=composite, profile=profile, scenario=scenario
            )
    except (NoTable, InvalidTable):
        return []
    inp = _inputs(compiled, profile)
    others = [s for s in inp.set_ids if s not in inp.factor_ids]
    answer = f"Root cause: {', '.join(inp.factor_ids)} is {', '.join(inp.synonyms)}."
    if others:
        answer += f"\nAffected: {', '.join(others)}."
    sid = scenario.get("id")  # a mapping: locate_table found its table

    def probe(key: str, expect: str, text: str, calls: Sequence = (), final=True) -> Probe:
        """The probe ``key`` of :data:`_SAYS`: the ``calls``, then the answer ``text``, after
        a ``reasoning`` event when the table reads ``reasoning_trace``."""
        reads = "reasoning_trace" in inp.channels
        thought = [{"kind": "reasoning", "text": text}] if reads else []
        events = [*calls, *thought, {"kind": "agent_response", "final": final, "text": text}]
        artifact = ({"scenario": sid} if isinstance(sid, str) else {}) | {"events": events}
        return Probe(key.split()[0], _SAYS[key].format(steps=len(calls)), artifact, expect)

    out: list[Probe] = []
    # SI404–SI406: answers that name the identifiers without diagnosing
    if all_ids := _unique(inp.factor_ids + inp.set_ids):
        dump = "\n".join([answer] + all_ids)
        call = {"kind": "tool_call", "tool": "probe_dump", "args": {}, "response": dump}
        out.append(probe("SI404", NOT_POSITIVE, dump, calls=[call]))
        out.append(probe("SI405", BELOW_TOP, "\n".join(all_ids)))
        top = max((s for _, s in compiled.rows), default=0.0)
        if inp.factor_ids and _partial_rows(table, top):
            out.append(probe("SI406", NOT_ZERO, "\n".join(inp.factor_ids)))
    # SI407: a correct answer that does not conclude (over the step budget, never final)
    if inp.budgets and max(inp.budgets) < MAX_PROBE_STEPS:
        calls = [
            {"kind": "tool_call", "tool": "probe_step", "args": {"step": i}, "response": "ok"}
            for i in range(1, max(inp.budgets) + 2)
        ]
        out.append(probe("SI407 over", ZERO, answer, calls=calls))
    out.append(probe("SI407 never", ZERO, answer, final=False))
    return out
