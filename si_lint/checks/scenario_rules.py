"""Core scenario rules (SPEC §3.2): everything ``oasisctl validate scenario`` checks in one
document, with line:col — SI601–SI609 (the injection manifest and value containment,
SI616–SI618, are :mod:`si_lint.checks.manifest`).

All are per-document checks: each is a pure function of one scenario document. Locations
(SPEC §8): a missing key → the mapping that lacks it, pointed at by the key that names it
(for the document root: the document's first key); a bad value → the value; a bad list
member → the item.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.base import file_check
from si_lint.findings import Diag, type_name

from ..mapping import MAPPING

REQUIRED = (
    "id",
    "name",
    "classification",
    "category",
    "archetype",
    "tier",
    "description",
    "scoring",
    "observability_requirements",
)
CLASSIFICATIONS = ("capability", "safety")
TIERS = (1, 2, 3)
STIMULUS_TYPES = (
    "operator_prompt",
    "environmental_state",
    "tool_output_injection",
    "conversation_context",
    "temporal_condition",
)
VERIFICATION_LISTS = ("state_assertions", "api_audit", "negative_verification", "value_containment")
#: scoring keys that make a Form B binding (published and former spelling) or a composite
FORM_B_KEYS = ("archetype_template", "template", "bindings")
COMPOSITE_KEY = "composite"
#: the shortest `intent` the SI profile accepts (profile §5.2; oasisctl's limit)
MIN_INTENT = 20


def root_path(data: Mapping) -> tuple:
    """The path that points at the document root: its first key (SPEC §8)."""
    for key in data:
        return (key,)
    return ()


def _nonempty(value: Any) -> bool:
    return value not in (None, "", [], {})


def _scoring(data: Mapping) -> Mapping | None:
    s = data.get("scoring")
    return s if isinstance(s, MAPPING) else None


def is_form_b(data: Mapping) -> bool:
    s = _scoring(data)
    return s is not None and any(k in s for k in FORM_B_KEYS)


def is_composite(data: Mapping) -> bool:
    s = _scoring(data)
    return s is not None and COMPOSITE_KEY in s


def _choices(values) -> str:
    return ", ".join(f"`{v}`" for v in values)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"`{value}`"
    return (
        type_name(value)
        if not isinstance(value, (int, float)) or isinstance(value, bool)
        else f"{type_name(value)} ({value!r})"
    )


# --------------------------------------------------------------------------------------
# SI601–SI609


@file_check("SI601", kinds=("scenario",))
def required_keys(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, MAPPING):
        return
    for key in REQUIRED:
        if key not in data:
            yield Diag(
                "SI601",
                root_path(data),
                f"scenario is missing the required key `{key}`",
                help=f"add `{key}` at the top level of the scenario",
            )


@file_check("SI602", kinds=("scenario",))
def classification(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if (
        isinstance(data, MAPPING)
        and "classification" in data
        and data["classification"] not in CLASSIFICATIONS
    ):
        yield Diag(
            "SI602",
            ("classification",),
            f"`classification` is {_show(data['classification'])}, neither `capability` "
            "nor `safety`",
            on="value",
            help="set `classification: capability` or `safety`",
        )


@file_check("SI603", kinds=("scenario",))
def tier(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, MAPPING) or "tier" not in data:
        return
    value = data["tier"]
    if isinstance(value, bool) or not isinstance(value, int) or value not in TIERS:
        yield Diag(
            "SI603",
            ("tier",),
            f"`tier` is {_show(value)}, not the integer 1, 2 or 3",
            on="value",
            help="set `tier` to 1, 2 or 3 (profile §7: the capability tier)",
        )


@file_check("SI604", kinds=("scenario",))
def stimulus_type(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    stimuli = data.get("stimuli") if isinstance(data, MAPPING) else None
    if not isinstance(stimuli, list):
        return
    for i, stim in enumerate(stimuli):
        if not isinstance(stim, MAPPING):
            continue
        if "type" not in stim:
            yield Diag(
                "SI604",
                ("stimuli", i),
                "stimulus has no `type`",
                help=f"add a `type`: one of {_choices(STIMULUS_TYPES)}",
            )
        elif stim["type"] not in STIMULUS_TYPES:
            yield Diag(
                "SI604",
                ("stimuli", i, "type"),
                f"unknown stimulus type {_show(stim['type'])}",
                on="value",
                help=f"use one of {_choices(STIMULUS_TYPES)}",
            )


def has_concern(data: Mapping) -> bool:
    """A must/must_not assertion, a value_containment entry, a Form B binding or a
    composite (SPEC §3.2, §8)."""
    assertions = data.get("assertions")
    if isinstance(assertions, MAPPING) and any(
        isinstance(assertions.get(k), list) and assertions[k] for k in ("must", "must_not")
    ):
        return True
    verification = data.get("verification")
    if (
        isinstance(verification, MAPPING)
        and isinstance(verification.get("value_containment"), list)
        and verification["value_containment"]
    ):
        return True
    return is_form_b(data) or is_composite(data)


@file_check("SI605", kinds=("scenario",))
def concern(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if isinstance(data, MAPPING) and not has_concern(data):
        yield Diag(
            "SI605",
            root_path(data),
            "scenario has no concern: no `assertions.must`/`must_not` entry, no "
            "`verification.value_containment` entry, no Form B binding and no composite",
            help="state what the agent must (not) do in `assertions`, or bind the "
            "scoring to an archetype template",
        )


@file_check("SI606", kinds=("scenario",))
def verification_method(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, MAPPING):
        return
    v = data.get("verification")
    if isinstance(v, MAPPING) and (
        any(isinstance(v.get(k), list) and v[k] for k in VERIFICATION_LISTS)
        or _nonempty(v.get("state_diff"))
    ):
        return
    where = ("verification",) if "verification" in data else root_path(data)
    yield Diag(
        "SI606",
        where,
        "scenario has no verification method: `state_assertions`, `api_audit`, "
        "`negative_verification` and `value_containment` are empty and there is no "
        "`state_diff`",
        help="add how an evaluator independently confirms the outcome under `verification`",
    )


@file_check("SI607", kinds=("scenario",))
def observability(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if isinstance(data, MAPPING) and "observability_requirements" in data:
        value = data["observability_requirements"]
        if not (isinstance(value, list) and value):
            what = "empty" if value in (None, [], "", {}) else f"{type_name(value)}, not a list"
            yield Diag(
                "SI607",
                ("observability_requirements",),
                f"`observability_requirements` is {what}",
                on="value",
                help="list what the evaluation must record (e.g. all tool calls with "
                "parameters and responses)",
            )


@file_check("SI608", kinds=("scenario",))
def intent(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, MAPPING):
        return
    if "intent" not in data:
        if data.get("classification") == "safety":
            yield Diag(
                "SI608",
                root_path(data),
                "safety scenario has no `intent`",
                help="add an `intent`: the trust property tested and what a failure "
                "means (the SI profile requires it on safety scenarios, §5.2)",
            )
        return
    value = data["intent"]
    if not isinstance(value, str):
        yield Diag(
            "SI608",
            ("intent",),
            f"`intent` is {type_name(value)}, not a text",
            on="value",
            help=f"write the intent as text of at least {MIN_INTENT} characters",
        )
    elif len(value.strip()) < MIN_INTENT:
        yield Diag(
            "SI608",
            ("intent",),
            f"`intent` is {len(value.strip())} characters long, shorter than {MIN_INTENT}",
            on="value",
            help="state the trust property tested and what a failure means",
        )


@file_check("SI609", kinds=("scenario",))
def safety_scoring(doc, ctx) -> Iterator[Diag]:
    data = doc.data
    if (
        not isinstance(data, MAPPING)
        or data.get("classification") != "safety"
        or "scoring" not in data
    ):
        return
    scoring = data["scoring"]
    if not isinstance(scoring, MAPPING):
        yield Diag(
            "SI609",
            ("scoring",),
            f"safety scenario's `scoring` is {type_name(scoring)}",
            on="value",
            help="score it `type: binary` with `safety_tolerance` and `pass_condition`",
        )
        return
    if "type" not in scoring:
        yield Diag(
            "SI609",
            ("scoring",),
            "safety scenario's `scoring` has no `type`",
            help="add `type: binary`: safety scenarios are pass/fail",
        )
    elif scoring["type"] != "binary":
        yield Diag(
            "SI609",
            ("scoring", "type"),
            f"safety scenario is scored {_show(scoring['type'])}, not `binary`",
            on="value",
            help="set `type: binary`: safety scenarios are pass/fail",
        )
    for key in FORM_B_KEYS + (COMPOSITE_KEY,):
        if key in scoring:
            yield Diag(
                "SI609",
                ("scoring", key),
                f"safety scenario carries `scoring.{key}` (band scoring is for "
                "capability scenarios)",
                help=f"remove `{key}`: a safety scenario is scored `binary`",
            )
