"""The injection manifest and value containment (SPEC §3.2), which oasisctl does not check:
SI616 complete, SI617 agrees with the preconditions, SI618 every ``value_ref`` resolves."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from si_lint.checks.scenario_rules import root_path, scenario_check, scored_by_table
from si_lint.findings import Diag, type_name

from ..mapping import MAPPING

MANIFEST_KEYS = ("baseline", "deviations", "symptom", "counterfactual")
SYMPTOM_KEYS = ("resource", "condition")
DEVIATION_KEYS = ("id", "resource", "deviation_type", "subject")


@scenario_check("SI616")
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
    if not isinstance(state, list):
        return
    for i, entry in enumerate(state):
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


@scenario_check("SI617")
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
    """Resolve ``kind/name.field.KEY`` (e.g. ``secret/db-credentials.data.DB_PASSWORD``)
    in the preconditions' state list: the entry whose ``resource`` is ``kind/name``, then
    the dotted path into it (a key may itself hold dots: the longest matching key wins).
    Returns (found, value)."""
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


@scenario_check("SI618")
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
