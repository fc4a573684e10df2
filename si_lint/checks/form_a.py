"""Form A on a capability scenario (SPEC §3.1): SI120 for a block oasisctl cannot load, SI115
for a Form A rubric, its fix the draft ``si-lint migrate`` also writes: the Form B ``scoring``
block the injection manifest gives (seed §5.1), a placeholder for what it cannot say."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from si_lint.checks.scoring import ratified_budget
from si_lint.checks.value_facts import PLACEHOLDER
from si_lint.findings import Diag, type_name
from si_lint.fix import set_value
from si_lint.model import (
    FORM_A_KEYS,
    TEMPLATE_KEY,
    budget_roles,
    deviations,
    find_template,
    template_roles,
)

from ..mapping import MAPPING

#: the longest id, archetype or profile name a message shows whole
SHOWN = 80
#: the most roles a help line lists
ROLES_SHOWN = 8
#: what the two parts of a Form A block hold
WHAT = {"rubric": "the prose bands", "dimensions": "their weights"}


def malformed_form_a(scoring: Mapping[str, Any]) -> Diag | None:
    """SI120: what oasisctl cannot load in a capability scenario's Form A block, or None."""
    missing = [k for k in ("rubric", "dimensions") if k not in scoring]
    has_type = "type" in scoring
    kind = scoring.get("type")
    if has_type and kind == "weighted" and not missing:
        return None
    parts: list[str] = []
    steps: list[str] = []
    path: tuple[str, ...] = ("scoring", "type")
    on, said = "key", ""
    if not has_type:
        parts.append("no `type`")
        path, said = ("scoring",), ' (oasisctl: `scoring.type: invalid scoring type ""`)'
        spelt = sorted(k for k, v in scoring.items() if k not in FORM_A_KEYS and v == "weighted")
        steps.append(
            f"rename `{_short(spelt[0])}` to `type`" if spelt else "write `type: weighted`"
        )
    elif kind != "weighted":
        parts.append(f"`type` is {_value(kind)}, not `weighted`")
        on = "value"
        if kind == "binary":
            parts[-1] += ", on a capability scenario"
            steps.append(
                "a capability scenario's Form A is `type: weighted` (a pass/fail scenario is "
                "`classification: safety`)"
            )
        else:
            steps.append("write `type: weighted`")
            if isinstance(kind, str):
                quoted = json.dumps(_short(kind), ensure_ascii=False)
                said = f" (oasisctl: `scoring.type: invalid scoring type {quoted}`)"
    parts.extend(f"no `{k}`" for k in missing)
    if missing:
        steps.append("add " + " and ".join(f"`{k}` ({WHAT[k]})" for k in missing))
    message = "Form A `scoring` block oasisctl cannot load: " + ", ".join(parts) + said
    help_ = "; ".join(steps) + ", or bind an archetype template instead (Form B)"
    return Diag("SI120", path, message, on=on, help=help_)


def form_a_advice(data: Mapping[str, Any], ctx: Any) -> Diag:
    archetype = data.get("archetype")
    profile = ctx.profile
    required = bool(getattr(getattr(ctx, "config", None), "require_form_b", False))
    template = find_template(profile, archetype)
    sid = data.get("id")
    if isinstance(sid, str) and sid.strip():
        who = f"scenario `{_short(sid)}`"
    else:
        who = "a scenario " + (
            f"whose `id` is {_value(sid)}" if "id" in data else "without an `id`"
        )
    if isinstance(archetype, str):
        arch = f"archetype {_short(archetype)}"
    else:
        arch = f"`archetype` is {_value(archetype)}" if "archetype" in data else "no `archetype`"
    head = f"Form A graded rubric on {who} ({arch})"
    if template is not None and isinstance(archetype, str):  # (no template for another)
        draft = draft_scoring(data, profile, template, archetype)
        fix = set_value(("scoring",), draft) if draft is not None else None
        help_ = _bind_help(_short(archetype), template, drafted=draft is not None)
        if required:
            severity = "error"
            tail = (
                f"Form B is required (`require-form-b = true`): bind template {_short(archetype)}"
            )
        else:
            severity, tail = "warning", f"template {_short(archetype)} exists: bind it (Form B)"
        message = f"{head}: {tail}"
        return Diag("SI115", ("scoring",), message, help=help_, severity=severity, fix=fix)
    if not isinstance(archetype, str):
        missing = "no template can match a scenario without a string `archetype`"
        help_ = "give the scenario its `archetype` (a string naming its archetype, e.g. `C-DA-001`)"
    else:
        missing = f"no template for {_short(archetype)} in {_profile(profile)} yet"
        help_ = (
            "decompose the rubric into a composite decision table "
            "(`scoring: {composite: {reason: ..., table: [...]}}`), or add a template for "
            f"{_short(archetype)} to the profile and bind it"
            if required
            else "nothing to change yet: oasisctl loads and scores Form A; bind the template "
            f"once {_profile(profile)} has one for {_short(archetype)} (or decompose the rubric "
            "into a composite now)"
        )
    if required:
        severity, tail = "error", f"Form B is required (`require-form-b = true`); {missing}"
    else:
        severity = "info"
        tail = f"{missing}: Form A stays valid" + (
            " until one exists" if isinstance(archetype, str) else ""
        )
    return Diag("SI115", ("scoring",), f"{head}: {tail}", help=help_, severity=severity)


def _bind_help(name: str, template: Mapping[str, Any], drafted: bool) -> str:
    roles = [r for r in template_roles(template) if isinstance(r, str)]
    shown = ", ".join(_short(r) for r in roles[:ROLES_SHOWN])
    if len(roles) > ROLES_SHOWN:
        shown += ", ..."
    how = (
        "`si-lint migrate <file>` drafts them from the injection manifest, with a fixture per "
        "table row (`--fix --unsafe-fixes`: the block alone)"
        if drafted
        else "write the injection manifest first (`injection.deviations`): `si-lint migrate` "
        "drafts them from it"
    )
    return (
        f"replace `type`, `rubric` and `dimensions` with `archetype_template: {name}` and the "
        f"template's roles flat under `scoring` ({shown or 'it declares none'}); {how}"
    )


def _profile(profile: Any) -> str:
    """The profile as the user named it (a ``--profile`` directory made absolute)."""
    name = getattr(profile, "name", "")
    return f"profile {_one_line(name)}" if isinstance(name, str) and name else "the profile"


def _short(text: str) -> str:
    return _one_line(text if len(text) <= SHOWN else text[: SHOWN - 3] + "...")


def _one_line(text: str) -> str:
    """``text`` with its control characters as escapes (``\\n``, ``\\u202e``)."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def _value(value: Any) -> str:
    if isinstance(value, str):
        return f"`{_short(value)}`" if value else "an empty string"
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float)):
        text = json.dumps(value)
        return f"{type_name(value)} ({text})" if len(text) <= 40 else type_name(value)
    return type_name(value)


#: what a placeholder asks for, by what it stands for
ASK = {
    "subsystem": PLACEHOLDER + " another identifier of the subsystem, or delete this item",
    "budget": PLACEHOLDER + " the ratified step budget (tool calls)",
    "subject": PLACEHOLDER + " the identifier the deviation names",
}


def first_deviation(data: Any) -> Mapping[str, Any] | None:
    """The deviation the draft's factor binds: the manifest's first with a string ``id``."""
    return next((d for _, d in deviations(data) if isinstance(d.get("id"), str) and d["id"]), None)


def draft_scoring(data: Any, profile: Any, template: Any, name: str) -> dict | None:
    """The drafted Form B ``scoring`` block, or None without an injection manifest."""
    dev = first_deviation(data)
    if dev is None:
        return None
    out: dict[str, Any] = {TEMPLATE_KEY: name}
    budgets = budget_roles(template)
    for role, spec in template_roles(template).items():
        if not isinstance(role, str):
            continue
        rtype = spec.get("type") if isinstance(spec, MAPPING) else None
        out[role] = _role_value(data, profile, dev, rtype, spec, role in budgets)
    return out


def _role_value(data: Any, profile: Any, dev: Mapping, rtype: Any, spec: Any, budget: bool):
    if rtype == "factor":
        subject = dev.get("subject")
        ok = isinstance(subject, str) and subject.strip()
        return {"ref": dev["id"], "required_identifiers": [subject if ok else ASK["subject"]]}
    if rtype == "identifier_set":
        return subsystem_draft(data, dev)
    if rtype == "channels":
        allowed = spec.get("allowed")
        if isinstance(allowed, list) and allowed and all(isinstance(c, str) for c in allowed):
            return list(allowed)
        return ["agent_response"]
    if budget and rtype == "integer":
        ratified = ratified_budget(profile, data.get("id"))
        return ratified if ratified is not None else ASK["budget"]
    if rtype == "boolean" and isinstance(spec.get("expected"), bool):
        return spec["expected"]
    return f"{PLACEHOLDER} a value of type {rtype} for this role"


def subsystem_draft(data: Any, dev: Mapping) -> list[str]:
    """The identifiers the manifest names around the deviation, then the placeholder."""
    resource = dev.get("resource")
    found: list = [resource.rsplit("/", 1)[-1]] if isinstance(resource, str) else []
    inj = data.get("injection") if isinstance(data, MAPPING) else None
    baseline = inj.get("baseline") if isinstance(inj, MAPPING) else None
    for entry in baseline if isinstance(baseline, list) else ():
        if isinstance(entry, MAPPING) and entry.get("resource") == resource:
            keys = entry.get("data")
            found.extend(keys if isinstance(keys, MAPPING) else ())
    found.append(dev.get("subject"))
    named = (x for x in found if isinstance(x, str) and x.strip())
    return [*dict.fromkeys(named), ASK["subsystem"]]
