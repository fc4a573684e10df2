"""The facts (:mod:`si_lint.checks.fact`) of one scenario or template document: the scoring
of a scenario (its Form B binding, its composite, free-form code under ``scoring``) and a
Layer-2 template (its roles' channels, its decision table, free-form code).

:func:`facts_of` walks a document once and hands each code's check its facts; the checks
(``formb.py``, ``tables.py``, ``arguments.py``, ``free_form.py``, ``values.py``) word them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.fact import Fact, fact
from si_lint.checks.table_facts import TableEnv, code_key_facts, table_facts
from si_lint.checks.value_facts import channel_facts, value_facts
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

#: the document kinds whose scoring or decision table the shared rules read
TABLE_KINDS = ("scenario", "template")

#: (doc, its data, profile, kind, facts) of the document asked about last: every check of a
#: code asks for the same document in turn, and it is walked once (one tuple, replaced whole)
_last: tuple = (None, None, None, None, {})


def facts_of(doc: Any, ctx: Any) -> Mapping[str, list[Fact]]:
    """The facts of ``doc`` by code (a document of another kind has none)."""
    global _last
    data, profile, kind = doc.data, ctx.profile, doc.kind
    ldoc, ldata, lprofile, lkind, facts = _last
    if ldoc is doc and ldata is data and lprofile is profile and lkind == kind:
        return facts
    facts = {}
    walk = scenario_facts if kind == "scenario" else template_facts if kind == "template" else None
    for f in walk(data, profile) if walk is not None else ():
        facts.setdefault(f.code, []).append(f)
    _last = (doc, data, profile, kind, facts)
    return facts


def facts_for(code: str, doc: Any, ctx: Any) -> list[Fact]:
    return facts_of(doc, ctx).get(code, [])


# --------------------------------------------------------------------------- scenarios


def ratified_budget(profile: Any, scenario_id: Any) -> int | None:
    budgets = getattr(profile, "ratified_budgets", None) or {}
    if isinstance(scenario_id, str) and isinstance(budgets, MAPPING):
        b = budgets.get(scenario_id)
        if is_int(b):
            return b
    return None


def archetype_channels(profile: Any, archetype: Any) -> tuple[frozenset | None, str | None]:
    """The channels the archetype's template allows (its `channels`-typed roles' `allowed`)."""
    roles = template_roles(find_template(profile, archetype))
    allowed: set[str] = set()
    found = False
    for spec in roles.values():
        if (
            isinstance(spec, MAPPING)
            and spec.get("type") == "channels"
            and isinstance(spec.get("allowed"), list)
        ):
            found = True
            allowed.update(c for c in spec["allowed"] if isinstance(c, str))
    return (frozenset(allowed), archetype) if found else (None, None)


def scenario_facts(data: Any, profile: Any) -> Iterator[Fact]:
    s = scoring_of(data)
    if s.form == BINARY or not isinstance(data, dict):
        return  # a safety scenario: SI609 reports another scoring
    scoring = data.get("scoring")
    if isinstance(scoring, dict):
        yield from code_key_facts(scoring, ("scoring",))
    if s.form == TEMPLATE:
        yield from binding_facts(data, s, profile)
    elif s.form == COMPOSITE:
        yield from composite_facts(data, s.composite, profile)


def binding_facts(data: Mapping[str, Any], s: Any, profile: Any) -> Iterator[Fact]:
    """A Form B scenario: the template it names, the roles it binds and their values."""
    name = s.template
    tmpl = find_template(profile, name)
    if tmpl is None:
        known = template_names(profile)
        yield fact("SI112", "unknown-template", ("scoring", TEMPLATE_KEY), name=name, known=known)
        return
    roles = template_roles(tmpl)
    for role in roles:
        if role not in s.bindings:
            yield fact("SI109", "unbound", ("scoring",), role=role, template=name)
    dev_ids = deviation_ids(data)
    budget = ratified_budget(profile, data.get("id"))
    broles = budget_roles(tmpl)
    channels = frozenset(getattr(profile, "channels", []) or [])
    for key, value in s.bindings.items():
        path = ("scoring", key)
        if is_code_key(key):
            continue  # SI204
        if key not in roles:
            yield fact("SI110", "not-a-role", path, key=key, template=name, roles=list(roles))
            continue
        spec = roles[key] if isinstance(roles[key], MAPPING) else {}
        allowed = spec.get("allowed")
        allowed = (
            frozenset(a for a in allowed if isinstance(a, str))
            if isinstance(allowed, list)
            else None
        )
        yield from value_facts(
            spec,
            value,
            path,
            where=f"role `{key}`",
            type_code="SI111",
            channels=channels,
            allowed=allowed,
            widens=f"role `{key}`",
            deviation_ids=dev_ids,
            budget=budget if key in broles else None,
            scenario_id=data.get("id"),
            expected=True,
        )


def composite_facts(data: Mapping[str, Any], comp: Any, profile: Any) -> Iterator[Fact]:
    """A scenario-local composite: ``{reason, table}``, the table over registered primitives
    with literal arguments."""
    cpath = ("scoring", "composite")
    if not isinstance(comp, dict):
        case = "composite-code" if isinstance(comp, str) else "composite-type"
        yield fact("SI204", case, cpath, value=comp)
        return
    reason = comp.get("reason")
    if "reason" not in comp:
        yield fact("SI208", "no-reason", cpath)
    elif not isinstance(reason, str) or not reason.strip():
        yield fact("SI208", "empty-reason", cpath + ("reason",))
    yield from code_key_facts(comp, cpath)
    if "table" not in comp:
        if not any(is_code_key(k) for k in comp):
            yield fact("SI204", "composite-without-table", cpath)
        return
    allowed, archetype = archetype_channels(profile, data.get("archetype"))
    env = TableEnv.from_profile(
        profile,
        roles=None,
        composite=True,
        deviation_ids=deviation_ids(data),
        allowed_channels=allowed,
        archetype=archetype,
        ratified_budget=ratified_budget(profile, data.get("id")),
        scenario_id=data.get("id") if isinstance(data.get("id"), str) else None,
    )
    yield from table_facts(comp["table"], cpath + ("table",), env)


# --------------------------------------------------------------------------- templates


def template_facts(data: Any, profile: Any) -> Iterator[Fact]:
    """A Layer-2 template's decision table, against the profile's registry and its own roles."""
    if not isinstance(data, dict):
        return
    roles = data.get("roles")
    roles = roles if isinstance(roles, dict) else {}
    env = TableEnv.from_profile(profile, roles=roles)
    for rname, spec in roles.items():  # roles' `allowed` channels must be the profile's
        if isinstance(spec, dict) and isinstance(spec.get("allowed"), list):
            for i, ch in enumerate(spec["allowed"]):
                if isinstance(ch, str):
                    yield from channel_facts(ch, ("roles", rname, "allowed", i), env.channels)
    if "table" in data:
        yield from table_facts(data["table"], ("table",), env)
    yield from code_key_facts(data, ())
