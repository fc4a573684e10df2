"""The decision-table rules SI201–SI211 (SPEC §2.2 predicate language, §8) on every table:
a Layer-2 template's ``table`` and a scenario's ``scoring.composite.table`` (the facts come
from :mod:`si_lint.checks.table_facts`). SI203 is in ``arguments.py``, SI204 in
``free_form.py``. One check per code; each code's rationale is its ``rules/CODE.yaml``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, facts_for
from si_lint.checks.fact import Fact, worded
from si_lint.findings import Diag, did_you_mean, type_name


@file_check("SI201", kinds=TABLE_KINDS)
def unregistered_primitive(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI201.yaml"""
    for f in facts_for("SI201", doc, ctx):
        known = ", ".join(f["registered"]) or "none"
        yield Diag(
            "SI201",
            f.path,
            f"`{f['name']}` is not a registered primitive (registered: {known})",
            help=did_you_mean(f["name"], f["registered"])
            or "a scenario or template may only use primitives of the registry; run "
            "`si-lint profile primitives` to list them",
        )


@file_check("SI202", kinds=TABLE_KINDS)
def candidate_primitive(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI202.yaml"""
    for f in facts_for("SI202", doc, ctx):
        yield Diag(
            "SI202",
            f.path,
            f"`{f['name']}` is a candidate primitive (§2.4), not in the registry",
            help="register it in the profile's registry (a registry extension, `si-lint review`) "
            "or express the band with registered primitives",
        )


def _empty_table(f: Fact) -> Diag:
    return Diag(
        "SI205",
        f.path,
        "decision table is empty: it has no `else` row",
        help="add rows and end with `- when: else`",
    )


def _no_else_row(f: Fact) -> Diag:
    return Diag(
        "SI205",
        f.path,
        "decision table does not end with an `else` row",
        help="add `- {when: else, score: 0.0}` as the last row, so that every artifact "
        "gets a verdict",
    )


@file_check("SI205", kinds=TABLE_KINDS)
def no_else_row(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI205.yaml"""
    yield from worded(
        facts_for("SI205", doc, ctx), {"empty": _empty_table, "no-else": _no_else_row}
    )


def _after_else(f: Fact) -> Diag:
    return Diag(
        "SI206",
        f.path,
        f"row {f['row'] + 1} can never fire: it comes after the `else` row {f['else_row'] + 1}",
        help="move the `else` row to the end, or remove this row",
    )


def _repeats(f: Fact) -> Diag:
    return Diag(
        "SI206",
        f.path,
        f"row {f['row'] + 1} can never fire: it repeats the predicate of row {f['earlier'] + 1}",
        help="remove this row",
    )


@file_check("SI206", kinds=TABLE_KINDS)
def dead_row(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI206.yaml"""
    yield from worded(
        facts_for("SI206", doc, ctx), {"after-else": _after_else, "repeats": _repeats}
    )


def _no_score(f: Fact) -> Diag:
    return Diag("SI207", f.path, "row without a `score`", help="add `score: <number in [0, 1]>`")


def _score_type(f: Fact) -> Diag:
    return Diag(
        "SI207",
        f.path,
        f"score must be a number, not {type_name(f['value'])}",
        on="value",
        help="write a number in [0, 1], e.g. `0.5`",
    )


def _score_range(f: Fact) -> Diag:
    return Diag(
        "SI207",
        f.path,
        f"score {f['value']} is outside [0, 1]",
        on="value",
        help="scores are fractions of the band: 0.0 … 1.0",
    )


@file_check("SI207", kinds=TABLE_KINDS)
def score_out_of_range(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI207.yaml"""
    wording = {"no-score": _no_score, "score-type": _score_type, "score-range": _score_range}
    yield from worded(facts_for("SI207", doc, ctx), wording)


def _no_reason(f: Fact) -> Diag:
    return Diag(
        "SI208",
        f.path,
        "composite without a `reason`",
        help="say why no archetype template fits: `reason: ...`",
    )


def _empty_reason(f: Fact) -> Diag:
    return Diag(
        "SI208",
        f.path,
        "composite `reason` is empty or not text",
        on="value",
        help="say why no archetype template fits",
    )


@file_check("SI208", kinds=("scenario",))
def composite_without_reason(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI208.yaml"""
    wording = {"no-reason": _no_reason, "empty-reason": _empty_reason}
    yield from worded(facts_for("SI208", doc, ctx), wording)


def _role_in_composite(f: Fact) -> Diag:
    return Diag(
        "SI209",
        f.path,
        f"role reference `{f['value']}` in a composite: a composite has no roles",
        on="value",
        help="write the literal value (composites bind nothing)",
    )


def _undeclared_role(f: Fact) -> Diag:
    declared = ", ".join(f"${r}" for r in f["roles"]) or "none"
    return Diag(
        "SI209",
        f.path,
        f"`{f['value']}` references an undeclared role (declared: {declared})",
        on="value",
        help=f"declare `{f['role']}` under `roles`, or reference a declared role",
    )


@file_check("SI209", kinds=TABLE_KINDS)
def undeclared_role(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI209.yaml"""
    wording = {"role-in-composite": _role_in_composite, "undeclared-role": _undeclared_role}
    yield from worded(facts_for("SI209", doc, ctx), wording)


@file_check("SI211", kinds=TABLE_KINDS)
def budget_gate_not_first(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI211.yaml"""
    for f in facts_for("SI211", doc, ctx):
        yield Diag(
            "SI211",
            f.path,
            f"row {f['row'] + 1} uses within_step_budget, but row 1 does not gate on it",
            help="make row 1 `- {when: {not: {within_step_budget: {n: ...}}}, score: 0.0}`: "
            "an agent that never concluded has diagnosed nothing",
        )
