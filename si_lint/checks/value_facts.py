"""What is wrong with one value: a role binding (SI111) or a literal primitive argument
(SI203), read by the parameter-type table :data:`si_lint.model.PARAM_TYPES`. Facts, not
Diags (:mod:`si_lint.checks.fact`): the checks of ``values.py`` and ``arguments.py`` word
them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.fact import Fact, Path, fact
from si_lint.model import FACTOR_KEYS, PARAM_TYPES, ParamType, range_problem

#: how a value the migration draft could not derive starts (``si-lint migrate``,
#: :mod:`si_lint.checks.migration`): never a valid binding, so a draft lints clean only
#: once it is filled in (SI111)
PLACEHOLDER = "TODO(si-lint):"


def is_placeholder(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PLACEHOLDER)


def identifier_problem(s: str) -> str | None:
    """Why ``s`` is not a usable identifier (SI117), or None."""
    if s.strip() == "":
        return "is empty" if s == "" else "is whitespace only"
    if s != s.strip():
        return "has surrounding whitespace"
    if unicodedata.normalize("NFC", s) != s:
        return "is not NFC-normalised"
    return None


def fixed_identifier(s: str) -> str | None:
    """The SI117 fix for ``s`` (strip + NFC), or None when there is no safe fix (empty)."""
    t = unicodedata.normalize("NFC", s.strip())
    return t or None


def identifier_facts(s: str, path: Path) -> Iterator[Fact]:
    """SI117 at the list item ``path`` when ``s`` is a bad identifier."""
    why = identifier_problem(s)
    if why is not None:
        yield fact("SI117", "identifier", path, value=s, why=why, fixed=fixed_identifier(s))


def channel_facts(
    item: str, path: Path, channels: frozenset | list, allowed: frozenset | None = None, **why: Any
) -> Iterator[Fact]:
    """SI106 for a channel the profile does not define; SI105 for one outside ``allowed``
    (``why``: ``widens``, the list's path ``list_path`` and its narrowed value)."""
    if item not in channels:
        yield fact("SI106", "unknown-channel", path, channel=item, channels=channels)
    elif allowed is not None and item not in allowed:
        yield fact("SI105", "widens", path, channel=item, allowed=allowed, **why)


def value_facts(
    spec: Mapping[str, Any],
    value: Any,
    path: Path,
    *,
    where: str,
    type_code: str,
    channels: frozenset | list,
    allowed: frozenset | None = None,
    widens: str = "",
    deviation_ids: frozenset | None = None,
    budget: int | None = None,
    scenario_id: Any = None,
    expected: bool = False,
) -> Iterator[Fact]:
    """THE value check of a role binding (``type_code`` SI111) or a literal primitive
    argument (SI203), by the parameter-type table :data:`si_lint.model.PARAM_TYPES`.

    ``spec`` is the role declaration or the registry parameter (``type``, ``minimum``,
    ``maximum``, ``expected``); ``where`` names it in messages (``role `channels```).
    Beyond the type: identifiers (SI117), channels (SI106 unknown, SI105 outside
    ``allowed``), the factor (SI107, SI118), the ratified ``budget`` (SI114) and, with
    ``expected``, a boolean bound to another value than the template expects (SI113).
    A type si-lint does not know (a custom profile) is not checked statically."""
    ptype = PARAM_TYPES.get(kind) if isinstance(kind := spec.get("type"), str) else None
    if ptype is None:
        return
    if is_placeholder(value):
        yield fact(type_code, "placeholder", path, where=where, value=value)
    elif not ptype.accepts(value):
        yield fact(type_code, "type", path, where=where, ptype=ptype, value=value)
    elif ptype.item is not None:
        yield from _list_facts(ptype, value, path, where, type_code, channels, allowed, widens)
    elif ptype.name == "factor":
        yield from _factor_facts(where, value, path, type_code, deviation_ids)
    elif ptype.ranged and (problem := range_problem(value, spec)):
        yield fact(type_code, "range", path, where=where, problem=problem)
    else:
        if budget is not None and value != budget:
            yield fact("SI114", "budget", path, value=value, budget=budget, scenario=scenario_id)
        if (
            expected
            and ptype.name == "boolean"
            and isinstance(spec.get("expected"), bool)
            and value != spec["expected"]
        ):
            yield fact("SI113", "expected", path, value=value, expected=spec["expected"])


def _list_facts(
    ptype: ParamType,
    value: list,
    path: Path,
    where: str,
    type_code: str,
    channels: frozenset | list,
    allowed: frozenset | None,
    widens: str,
) -> Iterator[Fact]:
    """A list of identifiers or of channels."""
    if not value:
        yield fact(type_code, "empty", path, where=where, ptype=ptype)
        return
    narrowed = (  # the SI105 fix: the list without the channels it may not name
        [c for c in value if isinstance(c, str) and c in channels and c in allowed]
        if allowed is not None and ptype.item == "channel"
        else []
    )
    for i, item in enumerate(value):
        ipath = path + (i,)
        if is_placeholder(item):
            yield fact(type_code, "placeholder", ipath, where=where, value=item)
        elif not isinstance(item, str):
            yield fact(type_code, "item-type", ipath, item=ptype.item, value=item)
        elif ptype.item == "identifier":
            yield from identifier_facts(item, ipath)
        else:
            yield from channel_facts(
                item, ipath, channels, allowed, widens=widens, list_path=path, narrowed=narrowed
            )


def _factor_facts(
    where: str,
    value: Mapping[str, Any],
    path: Path,
    type_code: str,
    deviation_ids: frozenset | None,
) -> Iterator[Fact]:
    """A factor value ``{ref, required_identifiers}`` (a mapping)."""
    for key in value:
        if key not in FACTOR_KEYS and key != "synonyms":  # synonyms: SI104
            yield fact(type_code, "factor-key", path + (key,), key=key)
    if "ref" not in value:
        yield fact(type_code, "factor-without-ref", path, where=where)
    elif not isinstance(value["ref"], str):
        yield fact(type_code, "ref-type", path + ("ref",), value=value["ref"])
    elif deviation_ids is not None and value["ref"] not in deviation_ids:
        yield fact("SI107", "unresolved", path + ("ref",), ref=value["ref"], ids=deviation_ids)
    if "required_identifiers" not in value:
        yield fact(type_code, "factor-without-identifiers", path, where=where)
        return
    yield from _required_identifier_facts(
        value["required_identifiers"], path + ("required_identifiers",), type_code
    )


def _required_identifier_facts(value: Any, path: Path, type_code: str) -> Iterator[Fact]:
    if not isinstance(value, list):
        yield fact(type_code, "identifiers-type", path, value=value)
        return
    if not value:
        yield fact("SI118", "empty", path)
        return
    for i, item in enumerate(value):
        if is_placeholder(item):
            yield fact(
                type_code, "placeholder", path + (i,), where="`required_identifiers`", value=item
            )
        elif not isinstance(item, str):
            yield fact(type_code, "identifier-type", path + (i,), value=item)
        else:
            yield from identifier_facts(item, path + (i,))
