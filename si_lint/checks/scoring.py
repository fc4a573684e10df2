"""The rules of a scenario's scoring and of a Layer-2 template, in one walk of the document:
a Form B binding (SI109–SI113), a composite (SI208), every decision table
(:mod:`si_lint.checks.tables`) and every value (:mod:`si_lint.checks.value_facts`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.tables import TableEnv, code_key_diags, si204, table_diags
from si_lint.checks.value_facts import channel_diags, value_diags
from si_lint.findings import Diag, did_you_mean, type_name
from si_lint.model import (
    BINARY,
    COMPOSITE,
    TEMPLATE,
    TEMPLATE_KEY,
    budget_roles,
    deviation_ids,
    find_template,
    is_code_key,
    is_int,
    scoring_of,
    template_names,
    template_roles,
)

from ..mapping import MAPPING

COMPOSITE_HELP = "write `composite: {reason: ..., table: [...]}`"
CODES = (
    *("SI105", "SI106", "SI107", "SI109", "SI110", "SI111", "SI112", "SI113", "SI114"),
    *("SI117", "SI118", "SI201", "SI202", "SI203", "SI204", "SI205", "SI206", "SI207"),
    *("SI208", "SI209", "SI211"),
)


@file_check(*CODES, kinds=("scenario", "template"))
def scoring_rules(doc, ctx) -> Iterator[Diag]:
    walk = scenario_diags if doc.kind == "scenario" else template_diags
    return walk(doc.data, ctx.profile)


def ratified_budget(profile: Any, scenario_id: Any) -> int | None:
    b = profile.ratified_budgets.get(scenario_id) if isinstance(scenario_id, str) else None
    return b if is_int(b) else None


def archetype_channels(profile: Any, archetype: Any) -> frozenset | None:
    """The channels the archetype's template allows (its `channels`-typed roles' `allowed`)."""
    specs = [
        spec["allowed"]
        for spec in template_roles(find_template(profile, archetype)).values()
        if isinstance(spec, MAPPING)
        and spec.get("type") == "channels"
        and isinstance(spec.get("allowed"), list)
    ]
    return frozenset(c for a in specs for c in a if isinstance(c, str)) if specs else None


def scenario_diags(data: Any, profile: Any) -> Iterator[Diag]:
    s = scoring_of(data)
    if s.form == BINARY or not isinstance(data, dict):
        return  # a safety scenario: SI609 reports another scoring
    scoring = data.get("scoring")
    if isinstance(scoring, dict):
        yield from code_key_diags(scoring, ("scoring",))
    if s.form == TEMPLATE:
        yield from binding_diags(data, s, profile)
    elif s.form == COMPOSITE:
        yield from composite_diags(data, s.composite, profile)


def binding_diags(data: Mapping[str, Any], s: Any, profile: Any) -> Iterator[Diag]:
    name = s.template
    tmpl = find_template(profile, name)
    if tmpl is None:
        known = template_names(profile)
        shown = json.dumps(name, ensure_ascii=False) if not isinstance(name, str) else f"`{name}`"
        message = (
            f"scoring.archetype_template {shown} names no known template "
            f"(known: {', '.join(known) or 'none'})"
        )
        help_ = "name a template of the profile; run `si-lint profile templates` to list them"
        path = ("scoring", TEMPLATE_KEY)
        yield Diag("SI112", path, message, on="value", help=did_you_mean(name, known) or help_)
        return
    roles = template_roles(tmpl)
    for role in roles:
        if role not in s.bindings:
            message = f"role `{role}` of template {name} is not bound"
            yield Diag("SI109", ("scoring",), message, help=f"add `{role}: ...` under scoring")
    dev_ids = deviation_ids(data)
    budget = ratified_budget(profile, data.get("id"))
    broles = budget_roles(tmpl)
    channels = frozenset(profile.channels)
    for key, value in s.bindings.items():
        path = ("scoring", key)
        if is_code_key(key):
            continue  # SI204
        if key not in roles:
            message = (
                f"`{key}` is not a role of template {name} (roles: {', '.join(roles) or 'none'})"
            )
            help_ = f"remove `{key}`; run `si-lint profile templates` to list the roles"
            yield Diag("SI110", path, message, help=did_you_mean(key, list(roles)) or help_)
            continue
        spec = roles[key] if isinstance(roles[key], MAPPING) else {}
        allowed = spec.get("allowed")
        yield from value_diags(
            spec,
            value,
            path,
            where=f"role `{key}`",
            type_code="SI111",
            channels=channels,
            allowed=frozenset(a for a in allowed if isinstance(a, str))
            if isinstance(allowed, list)
            else None,
            widens=f"role `{key}`",
            deviation_ids=dev_ids,
            budget=budget if key in broles else None,
            scenario_id=data.get("id"),
            expected=True,
        )


def composite_diags(data: Mapping[str, Any], comp: Any, profile: Any) -> Iterator[Diag]:
    cpath = ("scoring", "composite")
    if not isinstance(comp, dict):
        message = (
            f"free-form code {json.dumps(comp, ensure_ascii=False)} where a decision table is "
            "required"
            if isinstance(comp, str)
            else f"composite is {type_name(comp)}, not `{{reason, table}}`"
        )
        yield si204(cpath, message, COMPOSITE_HELP)
        return
    reason = comp.get("reason")
    if "reason" not in comp:
        help_ = "say why no archetype template fits: `reason: ...`"
        yield Diag("SI208", cpath, "composite without a `reason`", help=help_)
    elif not isinstance(reason, str) or not reason.strip():
        message = "composite `reason` is empty or not text"
        help_ = "say why no archetype template fits"
        yield Diag("SI208", cpath + ("reason",), message, on="value", help=help_)
    yield from code_key_diags(comp, cpath)
    if "table" not in comp:
        if not any(is_code_key(k) for k in comp):
            help_ = "add `table:` rows `{when: <predicate>, score: <0..1>}` ending with `else`"
            yield Diag("SI204", cpath, "composite without a decision `table`", help=help_)
        return
    env = TableEnv.from_profile(
        profile,
        deviation_ids=deviation_ids(data),
        allowed_channels=archetype_channels(profile, data.get("archetype")),
        archetype=data.get("archetype"),
        ratified_budget=ratified_budget(profile, data.get("id")),
        scenario_id=data.get("id") if isinstance(data.get("id"), str) else None,
    )
    yield from table_diags(comp["table"], cpath + ("table",), env)


def template_diags(data: Any, profile: Any) -> Iterator[Diag]:
    if not isinstance(data, dict):
        return
    roles = data.get("roles")
    roles = roles if isinstance(roles, dict) else {}
    env = TableEnv.from_profile(profile, roles=roles)
    for rname, spec in roles.items():  # roles' `allowed` channels must be the profile's
        if isinstance(spec, dict) and isinstance(spec.get("allowed"), list):
            for i, ch in enumerate(spec["allowed"]):
                if isinstance(ch, str):
                    yield from channel_diags(ch, ("roles", rname, "allowed", i), env.channels)
    if "table" in data:
        yield from table_diags(data["table"], ("table",), env)
    yield from code_key_diags(data, ())
