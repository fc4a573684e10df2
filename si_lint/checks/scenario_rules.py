"""Core scenario rules SI601–SI609 (SPEC §3.2: what ``oasisctl validate scenario`` checks),
each a pure function of one scenario document. Locations (SPEC §8): a missing key → the
mapping that lacks it (the document root: its first key); a bad value → the value; a bad
list member → the item."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.base import file_check
from si_lint.findings import Diag, type_name

from ..mapping import MAPPING

REQUIRED = (
    "id name classification category archetype tier description scoring observability_requirements"
).split()
CLASSIFICATIONS = ("capability", "safety")
STIMULUS_TYPES = (
    "operator_prompt environmental_state tool_output_injection conversation_context "
    "temporal_condition"
).split()
VERIFICATION_LISTS = ("state_assertions", "api_audit", "negative_verification", "value_containment")
#: scoring keys that make a Form B binding (published and former spelling) or a composite
TABLE_KEYS = ("archetype_template", "template", "bindings", "composite")
#: the shortest `intent` the SI profile accepts (profile §5.2; oasisctl's limit)
MIN_INTENT = 20


def scenario_check(code: str):
    """Register ``func(data)`` as the check of ``code`` on each scenario document whose data
    is a mapping (the schema reports any other)."""

    def deco(func):
        @functools.wraps(func)
        def check(doc, ctx):
            return func(doc.data) if isinstance(doc.data, MAPPING) else ()

        return file_check(code, kinds=("scenario",))(check)

    return deco


def root_path(data: Mapping) -> tuple:
    """The path that points at the document root: its first key (SPEC §8)."""
    return next(((key,) for key in data), ())


def scored_by_table(data: Mapping) -> bool:
    """A Form B binding or a composite under ``scoring``."""
    s = data.get("scoring")
    return isinstance(s, MAPPING) and any(k in s for k in TABLE_KEYS)


def _choices(values) -> str:
    return ", ".join(f"`{v}`" for v in values)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{type_name(value)} ({value!r})"
    return type_name(value)


@scenario_check("SI601")
def required_keys(data) -> Iterator[Diag]:
    for key in [k for k in REQUIRED if k not in data]:
        message = f"scenario is missing the required key `{key}`"
        help_ = f"add `{key}` at the top level of the scenario"
        yield Diag("SI601", root_path(data), message, help=help_)


@scenario_check("SI602")
def classification(data) -> Iterator[Diag]:
    if "classification" in data and data["classification"] not in CLASSIFICATIONS:
        shown = _show(data["classification"])
        message = f"`classification` is {shown}, neither `capability` nor `safety`"
        help_ = "set `classification: capability` or `safety`"
        yield Diag("SI602", ("classification",), message, on="value", help=help_)


@scenario_check("SI603")
def tier(data) -> Iterator[Diag]:
    value = data.get("tier")
    if "tier" in data and (
        isinstance(value, bool) or not isinstance(value, int) or value not in (1, 2, 3)
    ):
        message = f"`tier` is {_show(value)}, not the integer 1, 2 or 3"
        help_ = "set `tier` to 1, 2 or 3 (profile §7: the capability tier)"
        yield Diag("SI603", ("tier",), message, on="value", help=help_)


@scenario_check("SI604")
def stimulus_type(data) -> Iterator[Diag]:
    stimuli = data.get("stimuli")
    for i, stim in enumerate(stimuli if isinstance(stimuli, list) else ()):
        if not isinstance(stim, MAPPING):
            continue
        if "type" not in stim:
            help_ = f"add a `type`: one of {_choices(STIMULUS_TYPES)}"
            yield Diag("SI604", ("stimuli", i), "stimulus has no `type`", help=help_)
        elif stim["type"] not in STIMULUS_TYPES:
            message = f"unknown stimulus type {_show(stim['type'])}"
            help_ = f"use one of {_choices(STIMULUS_TYPES)}"
            yield Diag("SI604", ("stimuli", i, "type"), message, on="value", help=help_)


def _nonempty_list(mapping: Any, keys) -> bool:
    return isinstance(mapping, MAPPING) and any(
        isinstance(mapping.get(k), list) and mapping[k] for k in keys
    )


@scenario_check("SI605")
def concern(data) -> Iterator[Diag]:
    if (
        _nonempty_list(data.get("assertions"), ("must", "must_not"))
        or _nonempty_list(data.get("verification"), ("value_containment",))
        or scored_by_table(data)
    ):
        return
    message = (
        "scenario has no concern: no `assertions.must`/`must_not` entry, no "
        "`verification.value_containment` entry, no Form B binding and no composite"
    )
    help_ = (
        "state what the agent must (not) do in `assertions`, or bind the "
        "scoring to an archetype template"
    )
    yield Diag("SI605", root_path(data), message, help=help_)


@scenario_check("SI606")
def verification_method(data) -> Iterator[Diag]:
    v = data.get("verification")
    if _nonempty_list(v, VERIFICATION_LISTS) or (
        isinstance(v, MAPPING) and v.get("state_diff") not in (None, "", [], {})
    ):
        return
    message = (
        "scenario has no verification method: `state_assertions`, `api_audit`, "
        "`negative_verification` and `value_containment` are empty and there is no "
        "`state_diff`"
    )
    path = ("verification",) if "verification" in data else root_path(data)
    help_ = "add how an evaluator independently confirms the outcome under `verification`"
    yield Diag("SI606", path, message, help=help_)


@scenario_check("SI607")
def observability(data) -> Iterator[Diag]:
    value = data.get("observability_requirements")
    if "observability_requirements" in data and not (isinstance(value, list) and value):
        what = "empty" if value in (None, [], "", {}) else f"{type_name(value)}, not a list"
        help_ = (
            "list what the evaluation must record (e.g. all tool calls with "
            "parameters and responses)"
        )
        message = f"`observability_requirements` is {what}"
        yield Diag("SI607", ("observability_requirements",), message, on="value", help=help_)


@scenario_check("SI608")
def intent(data) -> Iterator[Diag]:
    value = data.get("intent")
    if "intent" not in data:
        if data.get("classification") == "safety":
            help_ = (
                "add an `intent`: the trust property tested and what a failure "
                "means (the SI profile requires it on safety scenarios, §5.2)"
            )
            yield Diag("SI608", root_path(data), "safety scenario has no `intent`", help=help_)
    elif not isinstance(value, str):
        message = f"`intent` is {type_name(value)}, not a text"
        help_ = f"write the intent as text of at least {MIN_INTENT} characters"
        yield Diag("SI608", ("intent",), message, on="value", help=help_)
    elif len(value.strip()) < MIN_INTENT:
        message = f"`intent` is {len(value.strip())} characters long, shorter than {MIN_INTENT}"
        help_ = "state the trust property tested and what a failure means"
        yield Diag("SI608", ("intent",), message, on="value", help=help_)


@scenario_check("SI609")
def safety_scoring(data) -> Iterator[Diag]:
    if data.get("classification") != "safety" or "scoring" not in data:
        return
    scoring = data["scoring"]
    binary = "`type: binary`: safety scenarios are pass/fail"
    if not isinstance(scoring, MAPPING):
        message = f"safety scenario's `scoring` is {type_name(scoring)}"
        help_ = "score it `type: binary` with `safety_tolerance` and `pass_condition`"
        yield Diag("SI609", ("scoring",), message, on="value", help=help_)
        return
    if "type" not in scoring:
        message = "safety scenario's `scoring` has no `type`"
        yield Diag("SI609", ("scoring",), message, help=f"add {binary}")
    elif scoring["type"] != "binary":
        message = f"safety scenario is scored {_show(scoring['type'])}, not `binary`"
        yield Diag("SI609", ("scoring", "type"), message, on="value", help=f"set {binary}")
    for key in [k for k in TABLE_KEYS if k in scoring]:
        message = (
            f"safety scenario carries `scoring.{key}` (band scoring is for capability scenarios)"
        )
        help_ = f"remove `{key}`: a safety scenario is scored `binary`"
        yield Diag("SI609", ("scoring", key), message, help=help_)
