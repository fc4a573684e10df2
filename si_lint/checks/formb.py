"""Form B scenario rules SI101–SI118 (SPEC §3, seed §1.3/§1.4/§2/§3).

A scenario's ``scoring`` is either a template binding (``template`` + ``bindings``) or a
scenario-local composite (``composite: {reason, table}``); both are Form B. A ``scoring`` with
``type``/``rubric`` and neither is Form A (SI115; never also SI116).

Decisions (documented in the rules entries):

* SI115 and SI116 point at the ``scoring`` key (the block that is wrong as a whole).
* SI109: one finding per unbound role, at ``scoring.bindings`` (or at ``scoring`` when there
  is no ``bindings`` mapping at all).
* SI108 is checked for *every* deviation, referenced by a factor or not: every deviation is a
  contributing factor (§3, "the ground truth is the injection manifest").
* SI111 also covers an empty ``channels`` binding (it would match nothing) and a factor that
  lacks ``ref``/``required_identifiers`` or restates e.g. ``deviation_type``; a non-boolean
  ``exclude_tool_echo`` is SI111 (the evaluator rejects it), ``false`` is SI113.
* SI114 applies to the role bound to ``within_step_budget.n`` (and any role named
  ``step_budget``), and to a literal ``n`` in a composite, for scenario ids that have a
  ratified budget.
* ``synonyms`` anywhere in a scenario is SI104 (only SI104 for that key, never SI110/SI203).
* A composite may not widen channels either: its literal ``channels`` arguments are checked
  (SI105) against the ``allowed`` channels of the template named by the scenario's ``archetype``,
  when the profile has that template.
* SI113 is for bindings only (a composite's literal ``exclude_tool_echo: false`` is caught by
  the echo probe SI404).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Iterator

from si_lint.checks.base import file_check
from si_lint.checks.tables import (
    TableEnv,
    check_required_identifiers,
    check_table,
    identifier_diag,
    is_code_key,
    is_int,
    is_number,
    is_role_ref,
    predicate_primitives,
    range_problem,
    ref_diag,
    unknown_channel,
    _code_key_diag,
    _type_name,
)
from si_lint.findings import Diag
from si_lint.fix import delete_key, set_list, set_value

FORM_B_KEYS = ("template", "bindings", "composite")


# --------------------------------------------------------------------------- helpers


def _scoring(data: Any) -> Any:
    return data.get("scoring") if isinstance(data, dict) else None


def deviation_ids(data: Any) -> frozenset:
    inj = data.get("injection") if isinstance(data, dict) else None
    devs = inj.get("deviations") if isinstance(inj, dict) else None
    if not isinstance(devs, list):
        return frozenset()
    return frozenset(d["id"] for d in devs if isinstance(d, dict) and isinstance(d.get("id"), str))


def find_template(profile: Any, name: Any) -> Mapping[str, Any] | None:
    if not isinstance(name, str):
        return None
    templates = getattr(profile, "templates", None) or {}
    t = templates.get(name) if isinstance(templates, Mapping) else None
    if isinstance(t, Mapping):
        return t
    for t in (templates.values() if isinstance(templates, Mapping) else []):
        if isinstance(t, Mapping):
            head = t.get("template")
            if isinstance(head, Mapping) and head.get("id") == name:
                return t
    return None


def template_names(profile: Any) -> list[str]:
    templates = getattr(profile, "templates", None) or {}
    names = set()
    for k, t in (templates.items() if isinstance(templates, Mapping) else []):
        head = t.get("template") if isinstance(t, Mapping) else None
        names.add(head["id"] if isinstance(head, Mapping) and isinstance(head.get("id"), str) else k)
    return sorted(names)


def budget_roles(template: Mapping[str, Any]) -> set[str]:
    """Roles bound to ``within_step_budget.n`` in the template's table (plus ``step_budget``)."""
    out = {"step_budget"}
    table = template.get("table")
    for row in table if isinstance(table, list) else []:
        when = row.get("when") if isinstance(row, dict) else None
        for name, args in predicate_primitives(when):
            if name == "within_step_budget" and isinstance(args, dict) and is_role_ref(args.get("n")):
                out.add(args["n"][1:])
    return out


def archetype_channels(profile: Any, archetype: Any) -> tuple[frozenset | None, str | None]:
    """The channels the archetype's template allows (its `channels`-typed roles' `allowed`)."""
    tmpl = find_template(profile, archetype)
    roles = tmpl.get("roles") if tmpl is not None else None
    if not isinstance(roles, Mapping):
        return None, None
    allowed: set[str] = set()
    found = False
    for spec in roles.values():
        if isinstance(spec, Mapping) and spec.get("type") == "channels" and isinstance(spec.get("allowed"), list):
            found = True
            allowed.update(c for c in spec["allowed"] if isinstance(c, str))
    return (frozenset(allowed), archetype) if found else (None, None)


def ratified_budget(profile: Any, scenario_id: Any) -> int | None:
    budgets = getattr(profile, "ratified_budgets", None) or {}
    if isinstance(scenario_id, str) and isinstance(budgets, Mapping):
        b = budgets.get(scenario_id)
        if is_int(b):
            return b
    return None


def is_complete_form_b(data: Any, profile: Any) -> bool:
    """A scenario whose Form B part is complete: dropping Form A keys leaves a valid scoring."""
    scoring = _scoring(data)
    if not isinstance(scoring, dict):
        return False
    has_t, has_c = "template" in scoring, "composite" in scoring
    if has_t == has_c:
        return False
    if has_c:
        comp = scoring["composite"]
        return (isinstance(comp, dict) and isinstance(comp.get("table"), list) and bool(comp["table"])
                and isinstance(comp.get("reason"), str) and bool(comp["reason"].strip()))
    tmpl = find_template(profile, scoring.get("template"))
    bindings = scoring.get("bindings")
    if tmpl is None or not isinstance(bindings, dict):
        return False
    roles = tmpl.get("roles")
    roles = roles if isinstance(roles, dict) else {}
    return all(r in bindings for r in roles) and all(b in roles for b in bindings)


# --------------------------------------------------------------------------- SI104 / SI108


@file_check("SI104", kinds=("scenario",))
def scenario_synonyms(doc: Any, ctx: Any) -> Iterator[Diag]:
    """``synonyms`` may appear nowhere in a scenario (a Layer-1 profile asset)."""
    stack: list[tuple[tuple, Any]] = [((), doc.data)]
    found: list[tuple] = []
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "synonyms":
                    found.append(path + (k,))
                stack.append((path + (k,), v))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                stack.append((path + (i,), v))
    for path in sorted(found, key=lambda p: [(0, x) if isinstance(x, int) else (1, x) for x in p]):
        yield Diag("SI104", path, "scenario declares its own synonyms",
                   help="synonym lists are a Layer-1 profile asset: remove this and extend the "
                        "profile's registry instead")


@file_check("SI108", kinds=("scenario",))
def deviation_synonyms(doc: Any, ctx: Any) -> Iterator[Diag]:
    """Every deviation's type needs a profile synonym list, or its factor can never be characterised."""
    data = doc.data
    inj = data.get("injection") if isinstance(data, dict) else None
    devs = inj.get("deviations") if isinstance(inj, dict) else None
    if not isinstance(devs, list):
        return
    synonyms = getattr(ctx.profile, "synonyms", None) or {}
    for i, dev in enumerate(devs):
        if not isinstance(dev, dict):
            continue
        dtype = dev.get("deviation_type")
        if not isinstance(dtype, str):
            continue
        lst = synonyms.get(dtype) if isinstance(synonyms, Mapping) else None
        if not (isinstance(lst, list) and any(isinstance(s, str) and s for s in lst)):
            known = ", ".join(sorted(k for k in synonyms if isinstance(k, str))) or "none"
            yield Diag("SI108", ("injection", "deviations", i, "deviation_type"),
                       f"deviation type `{dtype}` has no synonym list in the profile "
                       f"(lists exist for: {known}); factor_identified can never hold",
                       on="value",
                       help="use a deviation type the profile has synonyms for, or extend the "
                            "profile's synonym lists")


# --------------------------------------------------------------------------- form


@file_check("SI101", "SI102", "SI103", "SI115", "SI116", "SI204", kinds=("scenario",))
def scoring_form(doc: Any, ctx: Any) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, dict) or "scoring" not in data:
        return
    scoring = data["scoring"]
    if not isinstance(scoring, dict):
        yield Diag("SI116", ("scoring",),
                   f"`scoring` is {_type_name(scoring)}, neither a template binding nor a composite",
                   help="write `scoring: {template: <id>, bindings: {...}}` or "
                        "`scoring: {composite: {reason: ..., table: [...]}}`")
        return
    code_keys = [k for k in scoring if is_code_key(k)]
    for k in code_keys:
        yield _code_key_diag(("scoring", k))
    form_b = any(k in scoring for k in FORM_B_KEYS)
    if not form_b:
        if "type" in scoring or "rubric" in scoring:
            yield Diag("SI115", ("scoring",),
                       "Form A graded rubric in the core corpus (prose bands are not decomposed)",
                       help="decompose it into a template binding or a composite decision table, "
                            "or move the criterion to the Adversarial Verification Extension")
        elif not code_keys:
            yield Diag("SI116", ("scoring",), "`scoring` is neither a template binding nor a composite",
                       help="write `scoring: {template: <id>, bindings: {...}}` or "
                            "`scoring: {composite: {reason: ..., table: [...]}}`")
        return
    if "template" in scoring and "composite" in scoring:
        yield Diag("SI116", ("scoring",), "`scoring` declares both a template and a composite",
                   help="keep one: the template binding or the composite")
    elif "bindings" in scoring and "template" not in scoring:
        yield Diag("SI116", ("scoring",), "`scoring.bindings` without `scoring.template`",
                   help="name the archetype template the bindings are for: `template: <id>`")
    complete = is_complete_form_b(data, ctx.profile)
    for key, code in (("type", "SI101"), ("rubric", "SI102"), ("dimensions", "SI103")):
        if key in scoring:
            yield Diag(code, ("scoring", key), f"Form B scenario declares `scoring.{key}`",
                       help=f"remove `scoring.{key}`: the template (or composite) fixes the scoring",
                       fix=delete_key(("scoring", key)) if complete else None)
    if "dimensions" in data:
        yield Diag("SI103", ("dimensions",), "Form B scenario declares a per-scenario `dimensions` block",
                   help="remove `dimensions`: the archetype template fixes the bands",
                   fix=delete_key(("dimensions",)) if complete else None)


# --------------------------------------------------------------------------- bindings


@file_check("SI105", "SI106", "SI107", "SI109", "SI110", "SI111", "SI112", "SI113", "SI114",
            "SI117", "SI118", kinds=("scenario",))
def template_binding(doc: Any, ctx: Any) -> Iterator[Diag]:
    data = doc.data
    scoring = _scoring(data)
    if not isinstance(scoring, dict) or "template" not in scoring:
        return
    name = scoring["template"]
    tmpl = find_template(ctx.profile, name)
    if tmpl is None:
        known = ", ".join(template_names(ctx.profile)) or "none"
        shown = json.dumps(name, ensure_ascii=False) if not isinstance(name, str) else f"`{name}`"
        yield Diag("SI112", ("scoring", "template"),
                   f"scoring.template {shown} names no known template (known: {known})", on="value",
                   help="name a template of the profile")
        return
    roles = tmpl.get("roles")
    roles = roles if isinstance(roles, dict) else {}
    bindings = scoring.get("bindings")
    if not isinstance(bindings, dict):
        if "bindings" not in scoring or bindings is None:
            where = ("scoring", "bindings") if "bindings" in scoring else ("scoring",)
            for role in roles:
                yield Diag("SI109", where, f"role `{role}` of template {name} is not bound",
                           help=f"bind it under scoring.bindings: `{role}: ...`")
        return  # any other shape: the schema (SI003) reports it
    for role in roles:
        if role not in bindings:
            yield Diag("SI109", ("scoring", "bindings"), f"role `{role}` of template {name} is not bound",
                       help=f"add `{role}: ...` to scoring.bindings")
    ctx_ids = deviation_ids(data)
    budget = ratified_budget(ctx.profile, data.get("id"))
    broles = budget_roles(tmpl)
    channels = frozenset(getattr(ctx.profile, "channels", []) or [])
    for key, value in bindings.items():
        path = ("scoring", "bindings", key)
        if key == "synonyms":
            continue  # SI104
        if key not in roles:
            declared = ", ".join(roles) or "none"
            yield Diag("SI110", path, f"`{key}` is not a role of template {name} (roles: {declared})",
                       help=f"remove `{key}`")
            continue
        spec = roles[key] if isinstance(roles[key], dict) else {}
        yield from check_binding(key, spec, value, path, ctx_ids, channels,
                                 budget if key in broles else None, data.get("id"))


def check_binding(role: str, spec: Mapping[str, Any], value: Any, path: tuple, dev_ids: frozenset,
                  channels: frozenset, budget: int | None, scenario_id: Any) -> Iterator[Diag]:
    rtype = spec.get("type")
    if rtype == "factor":
        yield from _factor_binding(role, value, path, dev_ids)
    elif rtype == "identifier_set":
        if not isinstance(value, list):
            yield Diag("SI111", path, f"role `{role}` takes a list of identifiers, not {_type_name(value)}",
                       on="value", help="write `[IDENTIFIER, ...]`")
            return
        for i, item in enumerate(value):
            if not isinstance(item, str):
                yield Diag("SI111", path + (i,), f"identifier must be a string, not {_type_name(item)}",
                           help="quote it")
            else:
                d = identifier_diag(item, path + (i,), "identifier")
                if d is not None:
                    yield d
    elif rtype == "channels":
        if not isinstance(value, list):
            yield Diag("SI111", path, f"role `{role}` takes a list of channels, not {_type_name(value)}",
                       on="value", help="write `[agent_response]`")
            return
        if not value:
            yield Diag("SI111", path, f"role `{role}` is bound to no channel: nothing can match",
                       on="value", help="write `[agent_response]`")
            return
        allowed = spec.get("allowed")
        allowed = [a for a in allowed if isinstance(a, str)] if isinstance(allowed, list) else None
        narrowed = [c for c in value if isinstance(c, str) and c in channels
                    and (allowed is None or c in allowed)]
        for i, item in enumerate(value):
            ipath = path + (i,)
            if not isinstance(item, str):
                yield Diag("SI111", ipath, f"channel must be a string, not {_type_name(item)}")
            elif item not in channels:
                yield unknown_channel(item, ipath, channels)
            elif allowed is not None and item not in allowed:
                shown = ", ".join(allowed) or "none"
                yield Diag("SI105", ipath,
                           f"channel `{item}` widens role `{role}` beyond the template's allowed "
                           f"channels ({shown})",
                           help=f"narrow it to [{shown}] (diagnosis bands match agent_response only, §2.5)",
                           fix=set_list(path, narrowed) if narrowed else None)
    elif rtype == "integer":
        if not is_int(value):
            yield Diag("SI111", path, f"role `{role}` takes an integer, not {_type_name(value)}",
                       on="value", help="write a whole number without a decimal point")
            return
        bad = range_problem(value, spec)
        if bad:
            yield Diag("SI111", path, f"role `{role}` {bad}", on="value")
            return
        if budget is not None and value != budget:
            yield Diag("SI114", path, f"`{role}` {value} differs from the budget {budget} ratified for "
                                      f"{scenario_id}", on="value", help=f"use {budget}")
    elif rtype == "number":
        if not is_number(value):
            yield Diag("SI111", path, f"role `{role}` takes a number, not {_type_name(value)}", on="value")
            return
        bad = range_problem(value, spec)
        if bad:
            yield Diag("SI111", path, f"role `{role}` {bad}", on="value")
    elif rtype == "string":
        if not isinstance(value, str):
            yield Diag("SI111", path, f"role `{role}` takes a string, not {_type_name(value)}", on="value")
    elif rtype == "boolean":
        if not isinstance(value, bool):
            yield Diag("SI111", path, f"role `{role}` takes a boolean, not {_type_name(value)}",
                       on="value", help="write `true` or `false` (unquoted)")
            return
        if "expected" in spec and isinstance(spec["expected"], bool) and value != spec["expected"]:
            exp = "true" if spec["expected"] else "false"
            yield Diag("SI113", path, f"`{role}` is bound to {str(value).lower()}, the template expects {exp}",
                       on="value",
                       help=f"set `{role}: {exp}` (without echo exclusion an agent that dumps tool output "
                            "scores as if it had named the factor)",
                       fix=set_value(path, spec["expected"]))
    # a role type unknown to si-lint (custom profile): nothing to check statically


def _factor_binding(role: str, value: Any, path: tuple, dev_ids: frozenset) -> Iterator[Diag]:
    if not isinstance(value, dict):
        yield Diag("SI111", path,
                   f"role `{role}` takes a factor `{{ref, required_identifiers}}`, not {_type_name(value)}",
                   on="value", help="write `{ref: <deviation id>, required_identifiers: [...]}`")
        return
    for key in value:
        if key not in ("ref", "required_identifiers", "synonyms"):
            yield Diag("SI111", path + (key,), f"a factor has only `ref` and `required_identifiers`, "
                                               f"not `{key}`",
                       help="the deviation type is read from injection.deviations, never restated")
    if "ref" not in value:
        yield Diag("SI111", path, f"factor `{role}` has no `ref`", help="add `ref: <deviation id>`")
    elif not isinstance(value["ref"], str):
        yield Diag("SI111", path + ("ref",), f"`ref` must be a deviation id (a string), "
                                             f"not {_type_name(value['ref'])}", on="value")
    elif value["ref"] not in dev_ids:
        yield ref_diag(value["ref"], path + ("ref",), dev_ids)
    if "required_identifiers" not in value:
        yield Diag("SI111", path, f"factor `{role}` has no `required_identifiers`",
                   help="add `required_identifiers: [...]`")
        return
    yield from check_required_identifiers(value["required_identifiers"], path + ("required_identifiers",),
                                          "SI111")


# --------------------------------------------------------------------------- composite


@file_check("SI105", "SI106", "SI107", "SI114", "SI117", "SI118", "SI201", "SI202", "SI203", "SI204", "SI205",
            "SI206", "SI207", "SI208", "SI209", "SI211", kinds=("scenario",))
def composite_table(doc: Any, ctx: Any) -> Iterator[Diag]:
    """A scenario-local composite: a reason, and a decision table over registered primitives."""
    data = doc.data
    scoring = _scoring(data)
    if not isinstance(scoring, dict) or "composite" not in scoring:
        return
    comp = scoring["composite"]
    cpath = ("scoring", "composite")
    if isinstance(comp, str):
        yield Diag("SI204", cpath, f"free-form code {json.dumps(comp, ensure_ascii=False)} where a "
                                   "decision table is required", on="value",
                   help="write `composite: {reason: ..., table: [...]}`")
        return
    if not isinstance(comp, dict):
        yield Diag("SI204", cpath, f"composite is {_type_name(comp)}, not `{{reason, table}}`",
                   on="value", help="write `composite: {reason: ..., table: [...]}`")
        return
    reason = comp.get("reason")
    if "reason" not in comp:
        yield Diag("SI208", cpath, "composite without a `reason`",
                   help="say why no archetype template fits: `reason: ...`")
    elif not isinstance(reason, str) or not reason.strip():
        yield Diag("SI208", cpath + ("reason",), "composite `reason` is empty or not text", on="value",
                   help="say why no archetype template fits")
    code_keys = [k for k in comp if is_code_key(k)]
    for k in code_keys:
        yield _code_key_diag(cpath + (k,))
    if "table" not in comp:
        if not code_keys:
            yield Diag("SI204", cpath, "composite without a decision `table`",
                       help="add `table:` rows `{when: <predicate>, score: <0..1>}` ending with `else`")
        return
    allowed, archetype = archetype_channels(ctx.profile, data.get("archetype"))
    env = TableEnv.from_profile(
        ctx.profile, roles=None, composite=True, deviation_ids=deviation_ids(data),
        allowed_channels=allowed, archetype=archetype,
        ratified_budget=ratified_budget(ctx.profile, data.get("id")),
        scenario_id=data.get("id") if isinstance(data.get("id"), str) else None)
    yield from check_table(comp["table"], cpath + ("table",), env)
