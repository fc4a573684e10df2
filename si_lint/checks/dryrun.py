"""Dry runs inside ``check`` (SI401–SI409) through the evaluator of ``si-lint eval``. A
fixture is matched to the first definition (in path order) of the scenario it names; a
scenario whose table cannot be built is skipped (other rules say why), or gets SI409 when it
needs an untrusted implementation."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from si_lint.checks.base import corpus_check, evaluator
from si_lint.findings import Diag, Related
from si_lint.limits import to_float
from si_lint.model import is_int, is_number, scoring_of

from ..mapping import MAPPING

CODES = ("SI401", "SI402", "SI403", "SI404", "SI405", "SI406", "SI407", "SI408", "SI409")
PROBE_HELP = {
    "SI404": "bind `exclude_tool_echo: true`, so that lines copied from tool output are not "
    "credited as the agent's own words",
    "SI405": "the top band must require a characterisation of the factor "
    "(`factor_identified`), not the identifiers alone",
    "SI406": "the partial band's identifier set should hold the factor's identifiers (an "
    "answer that names the right key without characterising it is partial credit)",
    "SI407": "gate row 1 on `{not: {within_step_budget: {n: ...}}}` scoring 0.0: an agent "
    "that did not conclude within budget has not diagnosed anything",
}


@dataclass
class _Plan:
    doc: Any
    scenario: Mapping
    table: list
    composite: bool
    compiled: Any
    template: Any
    covered: set = field(default_factory=set)

    def verdict(self, artifact: Any, profile) -> dict:
        """``score`` with the table compiled once per scenario (equal to ``evaluate``)."""
        ev = evaluator()
        try:
            return ev.score(artifact, self.scenario, profile, self.compiled)
        except Exception:  # defensive: let the public function word the verdict
            return ev.evaluate(artifact, self.scenario, profile)


def _when_summary(when: Any, depth: int = 0) -> str:
    if isinstance(when, str):
        return when
    if depth > 20 or not isinstance(when, dict) or len(when) != 1:
        return "…"
    ((key, value),) = when.items()
    if key == "not":
        return f"not {_when_summary(value, depth + 1)}"
    if key in ("all", "any") and isinstance(value, list):
        return f"{key}({', '.join(_when_summary(v, depth + 1) for v in value)})"
    return str(key)


def _row_text(table: list, i: int) -> str:
    row = table[i]
    score = row.get("score") if isinstance(row, dict) else None
    when = row.get("when") if isinstance(row, dict) else None
    return f"row {i + 1} ({_when_summary(when)} → {score!r})"


def _plan(sid: str, doc, profile) -> _Plan | Diag | None:
    """The plan, SI409 when its table needs an untrusted implementation, or None."""
    ev = evaluator()
    data = doc.data
    try:
        table, bindings, composite = ev.locate_table(data, profile)
    except ev.NoTable:
        return None
    scoring = scoring_of(data)
    try:
        compiled = ev.compile_table(
            table, bindings, composite=composite, profile=profile, scenario=data
        )
    except ev.InvalidTable:
        pass  # an untrusted implementation also makes the table fail to compile
    else:
        return _Plan(doc, data, table, composite, compiled, scoring.template)
    untrusted = ev.untrusted_primitives(data, profile)
    if not untrusted:
        return None
    names = ", ".join(f"`{n}`" for n in untrusted)
    verb = "has" if len(untrusted) == 1 else "have"
    message = (
        f"fixtures and probes of `{sid}` not evaluated: its table needs {names}, "
        f"which {verb} no trusted implementation"
    )
    help_ = (
        "run `si-lint check --trust-implementations` to import and run the "
        "profile's implementations"
    )
    return Diag("SI409", ("scoring",), message, file=doc.relpath, document=doc.index, help=help_)


def _problem_diag(doc, path: tuple, message: str) -> Diag:
    on = "value" if path and isinstance(path[-1], str) else "key"
    help_ = (
        "each event is a mapping with a string `kind`; `text`/`response` are strings"
        if isinstance(doc.data, dict) and "events" in doc.data
        else "`final_answer`, `reasoning_trace` and each action's `result` are strings "
        "(or null); `actions` is a list of mappings"
    )
    message = f"evidence is malformed for evaluation: {message}"
    return Diag(
        "SI408", tuple(path), message, on=on, file=doc.relpath, document=doc.index, help=help_
    )


def _fixture_diags(doc, plan: _Plan, profile) -> list[Diag]:
    data = doc.data
    problems = evaluator().artifact_problems(data)
    if problems:
        return [_problem_diag(doc, p, m) for p, m in problems]
    verdict = plan.verdict(data, profile)
    expect = data.get("expect")
    expect = expect if isinstance(expect, MAPPING) else {}
    if verdict.get("error") is None and verdict.get("score") is not None:
        plan.covered.add(verdict["row"])
        return list(_disagreements(doc, plan, expect, verdict["score"], verdict["row"]))
    # SI401: the fixture gets no verdict (an evaluation error)
    where: tuple
    if "score" in expect:
        where, on, wanted = ("expect", "score"), "value", f"`expect.score` is {expect['score']!r}"
    else:
        where, on, wanted = ("expect",), "key", "no `expect.score`"
    message = f"fixture cannot be scored ({verdict.get('error')}); {wanted}"
    help_ = "fix the evidence or the table so that the fixture gets a verdict"
    return [Diag("SI401", where, message, on=on, file=doc.relpath, document=doc.index, help=help_)]


def _disagreements(doc, plan: _Plan, expect: Mapping, score, row: int) -> Iterator[Diag]:
    """SI401 / SI402: the verdict is not the score / row the fixture expects."""
    exp_row = expect["row"] if is_int(expect.get("row")) else None
    fired = _row_text(plan.table, row - 1)
    exp_score = to_float(expect["score"]) if is_number(expect.get("score")) else None
    # where the row that fired is: the composite's row, or the scenario's binding of its
    # template (the template itself lives in the profile)
    path: tuple = ("scoring",)
    what = f"of template {plan.template} fired for this binding"
    if plan.composite:
        path, what = ("scoring", "composite", "table", row - 1), "of the scenario's table fired"
    related = Related(plan.doc.relpath, path, f"row {row} {what}", document=plan.doc.index)
    for code, key, wanted, got, message in (
        ("SI401", "score", exp_score, score, f"fixture scores {score!r} at {fired}"),
        ("SI402", "row", exp_row, row, f"fixture fired {fired}"),
    ):
        if wanted is not None and got != wanted:
            yield Diag(
                code,
                ("expect", key),
                f"{message}, but `expect.{key}` is {expect[key]!r}",
                on="value",
                file=doc.relpath,
                document=doc.index,
                related=(related,),
                help="the table and the fixture disagree: fix the table, the "
                "evidence, or the expectation",
            )


@corpus_check(*CODES, stage="dryrun", reads=("scenario", "profile"))
def dry_runs(corpus, ctx):
    """One pure task (:class:`DryRun`) per scenario, run in workers under ``--jobs`` > 1 and
    answered from the cache when nothing it reads changed (``Context.map``)."""
    by_sid: dict[str, list] = {}
    for doc in corpus.of_kind("fixture"):
        sid = doc.artifact_refs()[2]  # named_scenario
        if sid is not None:
            by_sid.setdefault(sid, []).append(doc)
    required = ctx.config.require_band_coverage
    tasks = [
        DryRun(sid, doc, by_sid.get(sid, []), ctx.profile, required)
        for sid, doc in corpus.scenarios.items()
    ]
    for diags in ctx.map(tasks):
        yield from diags


class DryRun(namedtuple("DryRun", "sid doc fixtures profile required")):
    """One scenario's dry run, run here or in a forked worker: it reads the profile,
    ``require-band-coverage`` (``required``) and the documents :meth:`inputs` names, nothing
    else."""

    __slots__ = ()

    def inputs(self) -> tuple[tuple, tuple]:
        """Its parameters and documents (``Context.map`` keys its result on them)."""
        return (self.sid, self.required), (self.doc, *self.fixtures)

    def __call__(self) -> list[Diag]:
        return _scenario_dry_run(self.sid, self.doc, self.fixtures, self.profile, self.required)


def _scenario_dry_run(sid: str, doc, fixtures: list, profile, required: bool) -> list[Diag]:
    plan = _plan(sid, doc, profile)
    if not isinstance(plan, _Plan):
        return [] if plan is None else [plan]
    out = [d for fdoc in fixtures for d in _fixture_diags(fdoc, plan, profile)]
    at = {"file": plan.doc.relpath, "document": plan.doc.index}
    where = "its composite table" if plan.composite else f"template {plan.template}"
    for i in range(len(plan.table)) if fixtures or required else ():
        if i + 1 not in plan.covered:
            out.append(
                Diag(
                    "SI403",
                    ("scoring", "composite", "table", i) if plan.composite else ("scoring",),
                    f"{_row_text(plan.table, i)} of {where} is exercised by no fixture of `{sid}`",
                    severity="error" if required else None,
                    help="add a fixture whose evidence fires this row",
                    **at,
                )
            )
    for probe in evaluator().probes(plan.scenario, profile, plan.compiled):
        message = probe.check(plan.verdict(probe.artifact, profile), plan.table)
        if message:
            tail, help_ = partial_band(plan.table, plan.scenario, probe)
            help_ = help_ or PROBE_HELP.get(probe.code)
            out.append(Diag(probe.code, ("scoring",), f"probe: {message}{tail}", help=help_, **at))
    return out


PARTIAL_CREDIT = "(an answer that names the right key without characterising it is partial credit)"


def _score(row: Any) -> float | None:
    s = row.get("score") if isinstance(row, MAPPING) else None
    return float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) else None


def _identifier_sets(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, MAPPING):
            call = n.get("named_in_output")
            if isinstance(call, MAPPING) and "identifier_set" in call:
                yield call["identifier_set"]
            stack.extend(v for k, v in n.items() if k != "named_in_output")
        elif isinstance(n, list):
            stack.extend(reversed(n))


def partial_band(table: list, scenario: Mapping, probe: Any) -> tuple[str, str | None]:
    """(a tail for SI406's message, its help) naming the partial band's identifier set as the
    author edits it (``subsystem_set``, a composite row's ``identifier_set``) and the factor
    identifiers it lacks; ``("", None)`` when that is not the reason."""
    if probe.code != "SI406":
        return "", None
    scores = [s for s in map(_score, table) if s is not None]
    top = max(scores, default=0.0)
    # the identifiers the probe's final answer names (one a line)
    events = probe.artifact.get("events") if isinstance(probe.artifact, MAPPING) else None
    last = events[-1] if isinstance(events, list) and events else None
    text = last.get("text") if isinstance(last, MAPPING) else None
    wanted = [s for s in text.split("\n") if s] if isinstance(text, str) else []
    scoring = scenario.get("scoring")
    for i, row in enumerate(table, start=1):
        score = _score(row)
        if score is None or not 0.0 < score < top:
            continue
        for arg in _identifier_sets(row.get("when")):
            if isinstance(arg, str) and arg.startswith("$") and isinstance(scoring, MAPPING):
                key, members = f"`{arg[1:]}`", scoring.get(arg[1:])
            elif isinstance(arg, list):
                key, members = f"the `identifier_set` of row {i}", arg
            else:
                continue
            missing = [w for w in wanted if not (isinstance(members, list) and w in members)]
            if missing:
                names = ", ".join(missing)
                return f"; {key} does not hold {names}", f"add {names} to {key} {PARTIAL_CREDIT}"
    return "", None
