"""Shared builders for the evaluator tests (plain data, as the loader would produce)."""

from __future__ import annotations

import copy

from si_lint.profile import builtin_profile, profile_from_data

SID = "infra.capability.da.single-signal-diagnosis-001"

#: a C-DA-001 Form B scenario (the published shape of SPEC §3)
SCENARIO = {
    "id": SID,
    "name": "Mail relay rejects outbound mail after a config push",
    "classification": "capability",
    "archetype": "C-DA-001",
    "injection": {
        "deviations": [
            {
                "id": "smtp-port-removed",
                "resource": "configmap/mail-relay",
                "deviation_type": "absent_key",
                "subject": "SMTP_PORT",
            },
        ]
    },
    "scoring": {
        "archetype_template": "C-DA-001",
        "factor": {"ref": "smtp-port-removed", "required_identifiers": ["SMTP_PORT"]},
        "subsystem_set": ["mail-relay", "SMTP_PORT"],
        "channels": ["agent_response"],
        "step_budget": 15,
        "exclude_tool_echo": True,
    },
}

PROFILE = builtin_profile()


def scenario(**bindings):
    """The example scenario with some bindings replaced."""
    s = copy.deepcopy(SCENARIO)
    s["scoring"].update(bindings)
    return s


def composite(table, *, deviations=None, sid=SID):
    """A scenario whose scoring is a composite table."""
    return {
        "id": sid,
        "archetype": "C-DA-001",
        "injection": {
            "deviations": deviations
            if deviations is not None
            else copy.deepcopy(SCENARIO["injection"]["deviations"])
        },
        "scoring": {"composite": {"reason": "test", "table": table}},
    }


def tool(response="", name="kubectl"):
    return {"kind": "tool_call", "tool": name, "args": {}, "response": response}


def say(text, final=True):
    ev = {"kind": "agent_response", "text": text}
    if final is not None:
        ev["final"] = final
    return ev


def think(text):
    return {"kind": "reasoning", "text": text}


def evidence(*events, **extra):
    return {"events": list(events), **extra}


def profile_with(registry_update=None, implementations=None):
    """The built-in profile's data with registry keys replaced (and implementations)."""
    base = builtin_profile()
    reg = copy.deepcopy(dict(base.registry))
    reg.update(registry_update or {})
    prof = profile_from_data(reg, copy.deepcopy(dict(base.templates)))
    if implementations:
        from si_lint.profile import Profile

        prof = Profile(
            registry=prof.registry, templates=prof.templates, implementations=implementations
        )
    return prof


def strip_meta(verdict):
    return {k: v for k, v in verdict.items() if k != "metadata"}
