"""The rules on the values a scenario passes, wherever it passes them: the roles a Form B
scenario binds, the literal arguments of a composite's table and of a template's table
(the findings come from :mod:`si_lint.checks.value_facts`). One check per code."""

from __future__ import annotations

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, findings_for


@file_check("SI105", kinds=("scenario",))
def channels_widened(doc, ctx):
    """rules/SI105.yaml"""
    return findings_for("SI105", doc, ctx)


@file_check("SI106", kinds=TABLE_KINDS)
def unknown_channel(doc, ctx):
    """rules/SI106.yaml"""
    return findings_for("SI106", doc, ctx)


@file_check("SI107", kinds=("scenario",))
def factor_ref_unresolved(doc, ctx):
    """rules/SI107.yaml"""
    return findings_for("SI107", doc, ctx)


@file_check("SI114", kinds=("scenario",))
def step_budget_not_ratified(doc, ctx):
    """rules/SI114.yaml"""
    return findings_for("SI114", doc, ctx)


@file_check("SI117", kinds=TABLE_KINDS)
def bad_identifier(doc, ctx):
    """rules/SI117.yaml"""
    return findings_for("SI117", doc, ctx)


@file_check("SI118", kinds=TABLE_KINDS)
def empty_required_identifiers(doc, ctx):
    """rules/SI118.yaml"""
    return findings_for("SI118", doc, ctx)
