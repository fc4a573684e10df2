"""What is wrong with one value: a role binding (SI111) or a literal primitive argument
(SI203), read by the parameter-type table :data:`si_lint.model.PARAM_TYPES`; part of the
walk of :func:`si_lint.checks.scoring.scoring_rules`."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.findings import Diag, did_you_mean, type_name
from si_lint.fix import set_value
from si_lint.loader.scalars import resolve_plain
from si_lint.model import FACTOR_KEYS, PARAM_TYPES, ParamType, range_problem

Path = tuple

#: how a value the migration draft could not derive starts (``si-lint migrate``,
#: :mod:`si_lint.checks.form_a`): never a valid binding, so a draft lints clean only
#: once it is filled in (SI111)
PLACEHOLDER = "TODO(si-lint):"


def is_placeholder(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PLACEHOLDER)


def type_help(ptype: Any, value: Any) -> str:
    """How to write ``value`` as a ``ptype``: a quoted number or boolean, an integer with a
    decimal point, one identifier where a list is wanted; else the type's own help."""
    if isinstance(value, str) and 0 < len(value.strip()) <= 40:
        text = value.strip()
        unquoted = resolve_plain(text)
        if unquoted is not None and not isinstance(unquoted, str) and ptype.accepts(unquoted):
            return f"write {text} without quotes"
        if ptype.item is not None and re.fullmatch(r"[A-Za-z0-9_./-]+", text):
            return f"write `[{text}]` (a list, even of one {ptype.item})"
    if ptype.name == "integer" and isinstance(value, float) and math.isfinite(value):
        if value.is_integer() and abs(value) < 1e15:
            return f"write {int(value)} without a decimal point"
    return ptype.help


def _placeholder(code: str, path: Path, where: str, value: str) -> Diag:
    shown = json.dumps(value if len(value) <= 120 else value[:117] + "...", ensure_ascii=False)
    message = f"{where} holds a placeholder of the migration draft: {shown}"
    help_ = "replace it with the value it asks for (a placeholder is never a valid binding)"
    return Diag(code, path, message, on="value", help=help_)


def identifier_diags(s: str, path: Path) -> Iterator[Diag]:
    """SI117 at the list item ``path`` when ``s`` is a bad identifier; the fix strips it
    and normalises it to NFC (none for an empty one)."""
    if s.strip() == "":
        why = "is empty" if s == "" else "is whitespace only"
    elif s != s.strip():
        why = "has surrounding whitespace"
    elif unicodedata.normalize("NFC", s) != s:
        why = "is not NFC-normalised"
    else:
        return
    fixed = unicodedata.normalize("NFC", s.strip())
    message = f"identifier {json.dumps(s, ensure_ascii=False)} {why}"
    if fixed:
        help_ = f"write {json.dumps(fixed, ensure_ascii=False)}"
        yield Diag("SI117", path, message, help=help_, fix=set_value(path, fixed))
    else:
        help_ = "remove the empty identifier: an empty pattern is an evaluation error"
        yield Diag("SI117", path, message, help=help_)


def channel_diags(
    item: str,
    path: Path,
    channels: frozenset | list,
    allowed: frozenset | None = None,
    widens: str = "",
    narrowed: tuple = (),
) -> Iterator[Diag]:
    """SI106 for a channel the profile does not define; SI105 for one outside ``allowed``
    (``widens`` names the list, ``narrowed`` is (its path, its value without them))."""
    if item not in channels:
        known = ", ".join(sorted(channels)) or "none"
        message = f"unknown channel `{item}` (the profile's channels: {known})"
        help_ = "use a channel the profile defines; run `si-lint profile channels` to list them"
        yield Diag("SI106", path, message, help=did_you_mean(item, channels) or help_)
    elif allowed is not None and item not in allowed:
        shown = ", ".join(sorted(allowed)) or "none"
        list_path, narrow = narrowed
        message = (
            f"channel `{item}` widens {widens} beyond the template's allowed channels ({shown})"
        )
        help_ = f"narrow it to [{shown}] (diagnosis bands match agent_response only, §2.5)"
        fix = set_value(list_path, narrow) if narrow else None
        yield Diag("SI105", path, message, help=help_, fix=fix)


def value_diags(
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
) -> Iterator[Diag]:
    """The value check of a role binding (``type_code`` SI111) or a literal primitive
    argument (SI203) against ``spec``, the role declaration or registry parameter; ``where``
    names it in messages. A type si-lint does not know (a custom profile) is not checked."""
    ptype = PARAM_TYPES.get(kind) if isinstance(kind := spec.get("type"), str) else None
    if ptype is None:
        return
    if is_placeholder(value):
        yield _placeholder(type_code, path, where, value)
    elif not ptype.accepts(value):
        message = f"{where} takes {ptype.noun}, not {type_name(value)}"
        yield Diag(type_code, path, message, on="value", help=type_help(ptype, value))
    elif ptype.item is not None:
        yield from _list_diags(ptype, value, path, where, type_code, channels, allowed, widens)
    elif ptype.name == "factor":
        yield from _factor_diags(where, value, path, type_code, deviation_ids)
    elif ptype.ranged and (problem := range_problem(value, spec)):
        yield Diag(type_code, path, f"{where} {problem}", on="value")
    else:
        if budget is not None and value != budget:
            message = (
                f"step budget {value} differs from the budget {budget} ratified for {scenario_id}"
            )
            yield Diag("SI114", path, message, on="value", help=f"use {budget}")
        wanted = spec.get("expected")
        if expected and ptype.name == "boolean" and isinstance(wanted, bool) and value != wanted:
            key, exp = path[-1], "true" if wanted else "false"
            message = f"`{key}` is bound to {str(value).lower()}, the template expects {exp}"
            help_ = (
                f"set `{key}: {exp}` (without echo exclusion an agent that dumps "
                "tool output scores as if it had named the factor)"
            )
            yield Diag("SI113", path, message, on="value", help=help_, fix=set_value(path, wanted))


def _list_diags(
    ptype: ParamType,
    value: list,
    path: Path,
    where: str,
    type_code: str,
    channels: frozenset | list,
    allowed: frozenset | None,
    widens: str,
) -> Iterator[Diag]:
    if not value:
        help_ = ptype.help.replace("write", "list at least one, e.g.", 1)
        yield Diag(type_code, path, f"{where} is empty: it matches nothing", on="value", help=help_)
        return
    narrowed = (  # the SI105 fix: the list without the channels it may not name
        [c for c in value if isinstance(c, str) and c in channels and c in allowed]
        if allowed is not None and ptype.item == "channel"
        else []
    )
    for i, item in enumerate(value):
        ipath = path + (i,)
        if is_placeholder(item):
            yield _placeholder(type_code, ipath, where, item)
        elif not isinstance(item, str):
            message = f"{ptype.item} must be a string, not {type_name(item)}"
            yield Diag(type_code, ipath, message, help="quote it")
        elif ptype.item == "identifier":
            yield from identifier_diags(item, ipath)
        else:
            yield from channel_diags(item, ipath, channels, allowed, widens, (path, narrowed))


def _factor_diags(
    where: str, value: Mapping[str, Any], path: Path, code: str, deviation_ids: frozenset | None
) -> Iterator[Diag]:
    for key in value:
        if key not in FACTOR_KEYS and key != "synonyms":  # synonyms: SI104
            message = f"a factor has only `ref` and `required_identifiers`, not `{key}`"
            help_ = "the deviation type is read from injection.deviations, never restated"
            yield Diag(code, path + (key,), message, help=help_)
    ref = value.get("ref")
    if "ref" not in value:
        yield Diag(code, path, f"{where}: factor without `ref`", help="add `ref: <deviation id>`")
    elif not isinstance(ref, str):
        message = f"factor `ref` must be a deviation id (a string), not {type_name(ref)}"
        yield Diag(code, path + ("ref",), message, on="value")
    elif deviation_ids is not None and ref not in deviation_ids:
        message = (
            f"factor ref `{ref}` resolves to no injection.deviations entry "
            f"(deviation ids: {', '.join(sorted(deviation_ids)) or 'none'})"
        )
        help_ = did_you_mean(ref, deviation_ids) or (
            "reference the id of a deviation under injection.deviations"
        )
        yield Diag("SI107", path + ("ref",), message, on="value", help=help_)
    if "required_identifiers" not in value:
        message = f"{where}: factor without `required_identifiers`"
        yield Diag(code, path, message, help="add `required_identifiers: [...]`")
        return
    path, ids = path + ("required_identifiers",), value["required_identifiers"]
    if not isinstance(ids, list):
        message = f"`required_identifiers` must be a list of identifiers, not {type_name(ids)}"
        yield Diag(code, path, message, on="value")
    elif not ids:
        message = (
            "`required_identifiers` is empty: the factor would be identified "
            "by a deviation-type phrase alone"
        )
        help_ = "list the identifiers that name the factor, e.g. the key that was removed"
        yield Diag("SI118", path, message, on="value", help=help_)
    for i, item in enumerate(ids if isinstance(ids, list) else ()):
        if is_placeholder(item):
            yield _placeholder(code, path + (i,), "`required_identifiers`", item)
        elif not isinstance(item, str):
            yield Diag(code, path + (i,), f"identifier must be a string, not {type_name(item)}")
        else:
            yield from identifier_diags(item, path + (i,))
