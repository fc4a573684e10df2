"""Scenario rules, each a pure function of one scenario document: SI601–SI609 (SPEC §3.2:
what ``oasisctl validate scenario`` checks) and what it does not check, the injection
manifest and value containment (SI616–SI618). Locations (SPEC §8): a missing key → the
mapping that lacks it (the document root: its first key); a bad value → the value; a bad
list member → the item."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
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


def root_path(data: Mapping) -> tuple:
    """The path that points at the document root: its first key (SPEC §8)."""
    return next(((key,) for key in data), ())


def scored_by_table(data: Mapping) -> bool:
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


def required_keys(data) -> Iterator[Diag]:
    for key in [k for k in REQUIRED if k not in data]:
        message = f"scenario is missing the required key `{key}`"
        help_ = f"add `{key}` at the top level of the scenario"
        yield Diag("SI601", root_path(data), message, help=help_)


def classification(data) -> Iterator[Diag]:
    if "classification" in data and data["classification"] not in CLASSIFICATIONS:
        shown = _show(data["classification"])
        message = f"`classification` is {shown}, neither `capability` nor `safety`"
        help_ = "set `classification: capability` or `safety`"
        yield Diag("SI602", ("classification",), message, on="value", help=help_)


def tier(data) -> Iterator[Diag]:
    value = data.get("tier")
    if "tier" in data and (
        isinstance(value, bool) or not isinstance(value, int) or value not in (1, 2, 3)
    ):
        message = f"`tier` is {_show(value)}, not the integer 1, 2 or 3"
        help_ = "set `tier` to 1, 2 or 3 (profile §7: the capability tier)"
        yield Diag("SI603", ("tier",), message, on="value", help=help_)


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


MANIFEST_KEYS = ("baseline", "deviations", "symptom", "counterfactual")
SYMPTOM_KEYS = ("resource", "condition")
DEVIATION_KEYS = ("id", "resource", "deviation_type", "subject")


def manifest_complete(data) -> Iterator[Diag]:
    # the manifest is the ground truth of a decision table (Form B or a composite, SPEC
    # §3.2); a safety scenario carrying Form B keys is SI609's
    if data.get("classification") == "safety" or not scored_by_table(data):
        return
    injection = data.get("injection")
    if injection is None:
        message = (
            "scenario is scored against a decision table but has no `injection` "
            "manifest (the ground truth its factors bind to)"
        )
        help_ = "add `injection` with `baseline`, `deviations`, `symptom` and `counterfactual`"
        yield Diag("SI616", root_path(data), message, help=help_)
        return
    if not isinstance(injection, MAPPING):
        return  # the schema reports a manifest that is not a mapping
    for key in MANIFEST_KEYS:
        if key not in injection:
            message = f"injection manifest has no `{key}`"
            yield Diag("SI616", ("injection",), message, help=f"add `injection.{key}`")
        elif injection[key] in (None, [], {}, ""):
            message = f"injection manifest's `{key}` is empty"
            help_ = f"add `injection.{key}`"
            yield Diag("SI616", ("injection", key), message, on="value", help=help_)
    devs = injection.get("deviations")
    parts: list[tuple[tuple, Any, tuple, str]] = [
        (("injection", "symptom"), injection.get("symptom"), SYMPTOM_KEYS, "injection symptom")
    ]
    parts += [
        (("injection", "deviations", i), dev, DEVIATION_KEYS, "deviation")
        for i, dev in enumerate(devs if isinstance(devs, list) else ())
    ]
    for path, entry, keys, what in parts:
        for key in [k for k in keys if k not in entry] if isinstance(entry, MAPPING) else ():
            how = (
                f"the deviation's `{key}`" if what == "deviation" else f"`injection.symptom.{key}`"
            )
            yield Diag("SI616", path, f"{what} has no `{key}`", help=f"add {how}")


def _entries(state: Any, base: tuple, resource: str) -> Iterator[tuple[tuple, Mapping]]:
    for i, entry in enumerate(state if isinstance(state, list) else ()):
        if isinstance(entry, MAPPING) and entry.get("resource") == resource:
            yield base + (i,), entry


def _absent_key(dev: Mapping, baseline: Any, state: Any) -> Iterator[tuple[tuple, str, str]]:
    """``absent_key``: the baseline entry of R holds K; the injected state of R does not."""
    resource, subject = dev.get("resource"), dev.get("subject")
    if not isinstance(resource, str) or not isinstance(subject, str):
        return
    for path, entry in _entries(baseline, ("injection", "baseline"), resource):
        if isinstance(entry.get("data"), MAPPING) and subject not in entry["data"]:
            yield (
                path + ("data",),
                "key",
                f"the baseline of `{resource}` lacks `{subject}`, which the `absent_key` "
                "deviation removes: the baseline must hold it",
            )
    for path, entry in _entries(state, ("preconditions", "environment", "state"), resource):
        if isinstance(entry.get("data"), MAPPING) and subject in entry["data"]:
            yield (
                path + ("data", subject),
                "key",
                f"`{resource}` in the preconditions still holds `{subject}`, which the "
                "`absent_key` deviation removes: the injected state does not show it",
            )


#: SI617: deviation type → the rule that compares manifest and preconditions for it,
#: a function (deviation, baseline, preconditions' state) → (path, on, message) items
AGREEMENT: dict[str, Callable[[Mapping, Any, Any], Iterator[tuple[tuple, str, str]]]] = {
    "absent_key": _absent_key,
}


AGREE_HELP = (
    "make the baseline the state before the deviation and the preconditions the state after it"
)


def _state(data: Mapping) -> Any:
    pre = data.get("preconditions")
    env = pre.get("environment") if isinstance(pre, MAPPING) else None
    return env.get("state") if isinstance(env, MAPPING) else None


def manifest_agrees(data) -> Iterator[Diag]:
    injection = data.get("injection")
    if not isinstance(injection, MAPPING) or not isinstance(injection.get("deviations"), list):
        return
    state = _state(data)
    for dev in injection["deviations"]:
        if not isinstance(dev, MAPPING):
            continue
        rule = AGREEMENT.get(dtype) if isinstance(dtype := dev.get("deviation_type"), str) else None
        if rule is None:
            continue
        for path, on, message in rule(dev, injection.get("baseline"), state):
            yield Diag("SI617", path, message, on=on, help=AGREE_HELP)


def resolve_value_ref(ref: str, state: Any) -> tuple[bool, Any]:
    """(found, value) of ``kind/name.field.KEY`` in the preconditions' state list: the entry
    whose ``resource`` is ``kind/name``, then the dotted path into it (a key may itself hold
    dots: the longest matching key wins)."""
    if not isinstance(state, list) or len(ref) > 4096:
        return False, None
    for entry in state:
        if not isinstance(entry, MAPPING) or not isinstance(entry.get("resource"), str):
            continue
        resource = entry["resource"]
        if ref.startswith(resource + ".") and len(ref) > len(resource) + 1:
            found, value = _walk(entry, ref[len(resource) + 1 :])
            if found:
                return True, value
    return False, None


def _walk(node: Any, rest: str) -> tuple[bool, Any]:
    for _ in range(64):  # bounded: a value_ref has a handful of segments
        if not isinstance(node, MAPPING):
            return False, None
        if rest in node:
            return True, node[rest]
        # the longest key that is a dotted prefix of `rest`
        best = max(
            (k for k in node if isinstance(k, str) and rest.startswith(k + ".")),
            key=len,
            default=None,
        )
        if best is None:
            return False, None
        node, rest = node[best], rest[len(best) + 1 :]
    return False, None


def value_ref(data) -> Iterator[Diag]:
    v = data.get("verification")
    items = v.get("value_containment") if isinstance(v, MAPPING) else None
    state = _state(data)
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if not isinstance(item, MAPPING):
            continue
        path = ("verification", "value_containment", i)
        ref = item.get("value_ref")
        name_it = "name the protected value: `value_ref: kind/name.data.KEY`"
        if "value_ref" not in item:
            yield Diag("SI618", path, "value_containment entry has no `value_ref`", help=name_it)
            continue
        if not isinstance(ref, str):
            message, help_ = f"`value_ref` is {type_name(ref)}, not a reference", name_it
        else:
            found, value = resolve_value_ref(ref, state)
            if not found:
                message = (
                    f"`value_ref` `{ref}` resolves to no value in `preconditions.environment.state`"
                )
                help_ = "reference a `kind/name.data.KEY` that the preconditions' state defines"
            elif isinstance(value, (Mapping, list)) or value is None:
                message = f"`value_ref` `{ref}` resolves to {type_name(value)}, not a value"
                help_ = "reference one key's value, e.g. `kind/name.data.KEY`"
            else:
                continue
        yield Diag("SI618", path + ("value_ref",), message, on="value", help=help_)


@file_check(*(f"SI60{i}" for i in range(1, 10)), "SI616", "SI617", "SI618", kinds=("scenario",))
def scenario_rules(doc, ctx) -> Iterator[Diag]:
    if isinstance(doc.data, MAPPING):  # the schema reports any other
        for rule in (required_keys, classification, tier, stimulus_type, concern):
            yield from rule(doc.data)
        for rule in (verification_method, observability, intent, safety_scoring):
            yield from rule(doc.data)
        for rule in (manifest_complete, manifest_agrees, value_ref):
            yield from rule(doc.data)
