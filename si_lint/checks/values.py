"""The rules on the values a scenario passes, wherever it passes them: the roles a Form B
scenario binds, the literal arguments of a composite's table and of a template's table
(the facts come from :mod:`si_lint.checks.value_facts`). One check per code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, facts_for
from si_lint.findings import Diag, did_you_mean
from si_lint.fix import replace_item, set_list


@file_check("SI105", kinds=("scenario",))
def channels_widened(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI105.yaml"""
    for f in facts_for("SI105", doc, ctx):
        shown = ", ".join(sorted(f["allowed"])) or "none"
        yield Diag(
            "SI105",
            f.path,
            f"channel `{f['channel']}` widens {f['widens']} beyond the template's allowed "
            f"channels ({shown})",
            help=f"narrow it to [{shown}] (diagnosis bands match agent_response only, §2.5)",
            fix=set_list(f["list_path"], f["narrowed"]) if f["narrowed"] else None,
        )


@file_check("SI106", kinds=TABLE_KINDS)
def unknown_channel(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI106.yaml"""
    for f in facts_for("SI106", doc, ctx):
        known = ", ".join(sorted(f["channels"])) or "none"
        yield Diag(
            "SI106",
            f.path,
            f"unknown channel `{f['channel']}` (the profile's channels: {known})",
            help=did_you_mean(f["channel"], f["channels"])
            or "use a channel the profile defines; run `si-lint profile channels` to list them",
        )


@file_check("SI107", kinds=("scenario",))
def factor_ref_unresolved(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI107.yaml"""
    for f in facts_for("SI107", doc, ctx):
        known = ", ".join(sorted(f["ids"])) or "none"
        yield Diag(
            "SI107",
            f.path,
            f"factor ref `{f['ref']}` resolves to no injection.deviations entry "
            f"(deviation ids: {known})",
            on="value",
            help=did_you_mean(f["ref"], f["ids"])
            or "reference the id of a deviation under injection.deviations",
        )


@file_check("SI114", kinds=("scenario",))
def step_budget_not_ratified(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI114.yaml"""
    for f in facts_for("SI114", doc, ctx):
        yield Diag(
            "SI114",
            f.path,
            f"step budget {f['value']} differs from the budget {f['budget']} ratified for "
            f"{f['scenario']}",
            on="value",
            help=f"use {f['budget']}",
        )


@file_check("SI117", kinds=TABLE_KINDS)
def bad_identifier(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI117.yaml"""
    for f in facts_for("SI117", doc, ctx):
        fixed = f["fixed"]
        yield Diag(
            "SI117",
            f.path,
            f"identifier {json.dumps(f['value'], ensure_ascii=False)} {f['why']}",
            help=f"write {json.dumps(fixed, ensure_ascii=False)}"
            if fixed is not None
            else "remove the empty identifier: an empty pattern is an evaluation error",
            fix=replace_item(f.path, fixed) if fixed is not None else None,
        )


@file_check("SI118", kinds=TABLE_KINDS)
def empty_required_identifiers(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI118.yaml"""
    for f in facts_for("SI118", doc, ctx):
        yield Diag(
            "SI118",
            f.path,
            "`required_identifiers` is empty: the factor would be identified "
            "by a deviation-type phrase alone",
            on="value",
            help="list the identifiers that name the factor, e.g. the key that was removed",
        )
