"""The decision-table rules SI201–SI211 (SPEC §2.2 predicate language, §8) on every table:
a Layer-2 template's ``table`` and a scenario's ``scoring.composite.table`` (the findings
come from :mod:`si_lint.checks.table_facts`). One check per code; each code's rationale is
its ``rules/CODE.yaml``."""

from __future__ import annotations

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, findings_for


@file_check("SI201", kinds=TABLE_KINDS)
def unregistered_primitive(doc, ctx):
    """rules/SI201.yaml"""
    return findings_for("SI201", doc, ctx)


@file_check("SI202", kinds=TABLE_KINDS)
def candidate_primitive(doc, ctx):
    """rules/SI202.yaml"""
    return findings_for("SI202", doc, ctx)


@file_check("SI203", kinds=TABLE_KINDS)
def bad_argument(doc, ctx):
    """rules/SI203.yaml"""
    return findings_for("SI203", doc, ctx)


@file_check("SI204", kinds=TABLE_KINDS)
def free_form_code(doc, ctx):
    """rules/SI204.yaml"""
    return findings_for("SI204", doc, ctx)


@file_check("SI205", kinds=TABLE_KINDS)
def no_else_row(doc, ctx):
    """rules/SI205.yaml"""
    return findings_for("SI205", doc, ctx)


@file_check("SI206", kinds=TABLE_KINDS)
def dead_row(doc, ctx):
    """rules/SI206.yaml"""
    return findings_for("SI206", doc, ctx)


@file_check("SI207", kinds=TABLE_KINDS)
def score_out_of_range(doc, ctx):
    """rules/SI207.yaml"""
    return findings_for("SI207", doc, ctx)


@file_check("SI208", kinds=("scenario",))
def composite_without_reason(doc, ctx):
    """rules/SI208.yaml"""
    return findings_for("SI208", doc, ctx)


@file_check("SI209", kinds=TABLE_KINDS)
def undeclared_role(doc, ctx):
    """rules/SI209.yaml"""
    return findings_for("SI209", doc, ctx)


@file_check("SI211", kinds=TABLE_KINDS)
def budget_gate_not_first(doc, ctx):
    """rules/SI211.yaml"""
    return findings_for("SI211", doc, ctx)
