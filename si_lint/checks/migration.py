"""The migration draft of a Form A capability scenario (SPEC §3.1): the Form B ``scoring``
block its injection manifest gives (the ground truth is the manifest, seed §5.1), which
SI115 offers as an unsafe fix and ``si-lint migrate`` prints or writes with one draft
fixture per row of the template's table (:mod:`si_lint.commands.migrate_draft`).

Each role gets a value by its type in the template (the C-DA-001 roles, seed §5.1); what
the manifest cannot say is a **placeholder** (:data:`~si_lint.checks.value_facts.PLACEHOLDER`
and what to write there), never a valid binding (SI111), so a draft lints clean only once
an author has filled it in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from si_lint.checks.scoring import ratified_budget
from si_lint.checks.value_facts import PLACEHOLDER
from si_lint.model import TEMPLATE_KEY, budget_roles, deviations, template_roles

from ..mapping import MAPPING

#: what a placeholder asks for, by what it stands for
ASK = {
    "subsystem": PLACEHOLDER + " another identifier of the subsystem, or delete this item",
    "budget": PLACEHOLDER + " the ratified step budget (tool calls)",
    "subject": PLACEHOLDER + " the identifier the deviation names",
}


def first_deviation(data: Any) -> Mapping[str, Any] | None:
    """The deviation the draft's factor binds: the manifest's first with a string ``id``."""
    for _, dev in deviations(data):
        if isinstance(dev.get("id"), str) and dev["id"]:
            return dev
    return None


def draft_scoring(data: Any, profile: Any, template: Any, name: str) -> dict | None:
    """The Form B ``scoring`` block drafted for scenario ``data`` and ``template`` (named
    ``name``), or None when the scenario has no injection manifest to draft it from."""
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
        return {"ref": dev["id"], "required_identifiers": [_subject(dev)]}
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


def _subject(dev: Mapping) -> str:
    subject = dev.get("subject")
    return subject if isinstance(subject, str) and subject.strip() else ASK["subject"]


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
