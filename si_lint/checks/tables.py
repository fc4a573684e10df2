"""What is wrong with a decision table (SPEC §2.2, §8; SI201–SI211). The same walk runs over
a template's ``table`` (with its ``roles``) and a composite's ``scoring.composite.table``,
where role references are not allowed (SI209) and arguments are literal values
(:func:`si_lint.checks.value_facts.value_diags`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from si_lint.checks.value_facts import Path, value_diags
from si_lint.findings import Diag, did_you_mean, type_name
from si_lint.model import (
    COMBINATORS,
    is_code_key,
    is_number,
    is_role_ref,
    params_of,
    predicate_calls,
)

from ..mapping import MAPPING

#: how to write a predicate instead
PREDICATE_HELP = "use `{primitive: {args}}`, `not`, `all` or `any`"


def code_key_diag(path: Path) -> Diag:
    message = f"free-form code (`{path[-1]}`) where a decision table is required"
    help_ = (
        "express the band as a decision table over registered primitives (§1.4), "
        "or extend the registry"
    )
    return Diag("SI204", path, message, help=help_)


def code_key_diags(mapping: Mapping[str, Any], path: Path) -> Iterator[Diag]:
    return (code_key_diag(path + (key,)) for key in mapping if is_code_key(key))


def si204(path: Path, message: str, help: str) -> Diag:
    return Diag("SI204", path, message, on="value", help=help)


@dataclass
class TableEnv:
    primitives: Mapping[str, Mapping[str, Any]]
    candidates: frozenset
    channels: frozenset
    #: declared roles (templates); None in a composite (no role references allowed)
    roles: Mapping[str, Any] | None = None
    #: ids of the scenario's deviations (composites), None when unknown
    deviation_ids: frozenset | None = None
    #: the ratified step budget for the scenario (composites), None when there is none
    ratified_budget: int | None = None
    scenario_id: str | None = None
    #: composites: the channels the scenario's archetype template allows (SI105), with its id
    allowed_channels: frozenset | None = None
    archetype: str | None = None

    @classmethod
    def from_profile(cls, profile: Any, **kw: Any) -> TableEnv:
        prims, cands = dict(profile.primitives), frozenset(profile.candidates)
        return cls(primitives=prims, candidates=cands, channels=frozenset(profile.channels), **kw)


def predicate_diags(node: Any, path: Path, env: TableEnv, *, top: bool = False) -> Iterator[Diag]:
    """A predicate: ``else`` (only as a row's whole ``when``: ``top``) or a one-key mapping."""
    if isinstance(node, str):
        if node != "else":
            yield si204(
                path,
                f"free-form expression {json.dumps(node, ensure_ascii=False)} where a "
                "predicate is required",
                "write a predicate over registered primitives, e.g. "
                "`{named_in_output: {identifier_set: [...], channels: [agent_response]}}`",
            )
        elif not top:
            help_ = "make this the last row: `- when: else`"
            yield si204(path, "`else` is valid only as a row's whole `when`", help_)
    elif not isinstance(node, dict):
        message = f"a predicate is `else` or a one-key mapping, not {type_name(node)}"
        yield si204(path, message, PREDICATE_HELP)
    elif len(node) != 1:
        if any(is_code_key(k) for k in node):
            yield from code_key_diags(node, path)
        elif not node:
            yield si204(path, "empty mapping where a predicate is required", PREDICATE_HELP)
        else:
            keys = ", ".join(f"`{k}`" for k in node)
            yield si204(
                path,
                f"a predicate has exactly one key, this one has {len(node)} ({keys})",
                "combine predicates with `all: [...]` or `any: [...]`",
            )
    else:
        ((key, val),) = node.items()
        yield from _call_diags(key, val, path + (key,), env)


def _call_diags(key: str, val: Any, kpath: Path, env: TableEnv) -> Iterator[Diag]:
    if key == "not":
        yield from predicate_diags(val, kpath, env)
    elif key in COMBINATORS:  # `all` / `any`
        if not isinstance(val, list):
            message = f"`{key}` takes a list of predicates, not {type_name(val)}"
            help_ = f"write `{key}: [<predicate>, ...]`"
            yield Diag("SI203", kpath, message, on="value", help=help_)
        elif not val:
            meaning = "always true" if key == "all" else "always false"
            help_ = f"list at least one predicate under `{key}`, or drop it"
            yield Diag("SI203", kpath, f"`{key}: []` is {meaning}", on="value", help=help_)
        for i, item in enumerate(val if isinstance(val, list) else ()):
            yield from predicate_diags(item, kpath + (i,), env)
    elif key in env.primitives:
        yield from argument_diags(key, env.primitives[key], val, kpath, env)
    elif key in env.candidates:
        message = f"`{key}` is a candidate primitive (§2.4), not in the registry"
        help_ = (
            "register it in the profile's registry (a registry extension, `si-lint review`) "
            "or express the band with registered primitives"
        )
        yield Diag("SI202", kpath, message, help=help_)
    elif is_code_key(key):
        yield code_key_diag(kpath)
    else:
        registered = sorted(env.primitives)
        message = (
            f"`{key}` is not a registered primitive (registered: {', '.join(registered) or 'none'})"
        )
        help_ = did_you_mean(key, registered) or (
            "a scenario or template may only use primitives of the registry; run "
            "`si-lint profile primitives` to list them"
        )
        yield Diag("SI201", kpath, message, help=help_)


def argument_diags(
    name: str, prim: Mapping[str, Any], args: Any, path: Path, env: TableEnv
) -> Iterator[Diag]:
    params = params_of(prim)
    args = {} if args is None else args
    if not isinstance(args, dict):
        message = f"arguments of `{name}` must be a mapping, not {type_name(args)}"
        help_ = "write `{" + ", ".join(f"{p}: ..." for p in params) + "}`"
        yield Diag("SI203", path, message, on="value", help=help_)
        return
    for arg, value in args.items():
        if arg in params:
            yield from _argument_diags(name, params[arg], value, path + (arg,), env)
        else:
            message = (
                f"`{name}` has no parameter `{arg}` (parameters: {', '.join(params) or 'none'})"
            )
            yield Diag("SI203", path + (arg,), message, help=f"remove `{arg}`")
    for pname, p in params.items():
        if p.get("required") is True and pname not in args:
            message = f"`{name}` is missing its required argument `{pname}`"
            yield Diag("SI203", path, message, help=f"add `{pname}: ...`")


def _argument_diags(
    prim: str, param: Mapping[str, Any], value: Any, path: Path, env: TableEnv
) -> Iterator[Diag]:
    if not is_role_ref(value):
        budget = prim == "within_step_budget" and param.get("name") == "n"
        yield from value_diags(
            param,
            value,
            path,
            where=f"`{prim}.{param.get('name')}`",
            type_code="SI203",
            channels=env.channels,
            allowed=env.allowed_channels,
            widens=f"the channels of archetype {env.archetype}",
            deviation_ids=env.deviation_ids,
            budget=env.ratified_budget if budget else None,
            scenario_id=env.scenario_id,
        )
        return
    role = value[1:]
    if env.roles is None:
        message = f"role reference `{value}` in a composite: a composite has no roles"
        help_ = "write the literal value (composites bind nothing)"
        yield Diag("SI209", path, message, on="value", help=help_)
    elif role not in env.roles:
        declared = ", ".join(f"${r}" for r in env.roles) or "none"
        message = f"`{value}` references an undeclared role (declared: {declared})"
        help_ = f"declare `{role}` under `roles`, or reference a declared role"
        yield Diag("SI209", path, message, on="value", help=help_)
    else:
        spec = env.roles.get(role)
        rtype = spec.get("type") if isinstance(spec, MAPPING) else None
        takes = param.get("type")
        if isinstance(rtype, str) and isinstance(takes, str) and rtype != takes:
            message = (
                f"role `{role}` is of type {rtype}, but `{prim}.{param.get('name')}` takes {takes}"
            )
            yield Diag("SI203", path, message, on="value", help=f"reference a role of type {takes}")


def _canon(value: Any) -> str:
    """A predicate's identity for SI206: `all`/`any` operands and string lists (identifier
    sets, channels, required identifiers: sets in the evaluator) are order-free."""
    return json.dumps(_norm(value), sort_keys=True, default=repr, ensure_ascii=False)


def _norm(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, val),) = value.items()
            if key in ("all", "any") and isinstance(val, list):
                return {key: sorted({_canon(v) for v in val})}
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return sorted(set(value))
        return [_norm(v) for v in value]
    return value


def is_budget_gate(row: Any) -> bool:
    """Row 1 as SI211 wants it: ``{when: {not: {within_step_budget: ...}}, score: 0}``."""
    when = row.get("when") if isinstance(row, dict) else None
    inner = when.get("not") if isinstance(when, dict) and len(when) == 1 else None
    if not (isinstance(inner, dict) and len(inner) == 1 and "within_step_budget" in inner):
        return False
    score = row.get("score")
    return is_number(score) and score == 0


def table_diags(table: Any, path: Path, env: TableEnv) -> Iterator[Diag]:
    if not isinstance(table, list):
        what = type_name(table)
        if isinstance(table, str):
            what = f"free-form code {json.dumps(table, ensure_ascii=False)}"
        yield si204(
            path,
            f"{what} where a decision table (a list of rows) is required",
            "write `table:` as a list of `{when: <predicate>, score: <0..1>}` rows",
        )
        return
    if not table:
        help_ = "add rows and end with `- when: else`"
        yield Diag("SI205", path, "decision table is empty: it has no `else` row", help=help_)
        return
    else_row = step_row = None
    seen: dict[str, int] = {}  # each predicate's first row
    for i, row in enumerate(table):
        rpath = path + (i,)
        if not isinstance(row, dict):
            message = f"a row is a mapping `{{when, score}}`, not {type_name(row)}"
            yield Diag("SI204", rpath, message, help="write `- {when: <predicate>, score: <0..1>}`")
            continue
        yield from _row_diags(row, rpath, env)
        if "when" not in row:
            continue
        when = row["when"]
        if else_row is not None:
            message = f"row {i + 1} can never fire: it comes after the `else` row {else_row + 1}"
            yield Diag(
                "SI206", rpath, message, help="move the `else` row to the end, or remove this row"
            )
        elif (earlier := seen.setdefault(_canon(when), i)) != i:
            message = f"row {i + 1} can never fire: it repeats the predicate of row {earlier + 1}"
            yield Diag("SI206", rpath, message, help="remove this row")
        if when == "else" and else_row is None:
            else_row = i
        if step_row is None and any(c.name == "within_step_budget" for c in predicate_calls(when)):
            step_row = i
    if else_row is None and isinstance(table[-1], dict):  # else: SI204 already
        message = "decision table does not end with an `else` row"
        help_ = (
            "add `- {when: else, score: 0.0}` as the last row, so that every artifact "
            "gets a verdict"
        )
        yield Diag("SI205", path + (len(table) - 1,), message, help=help_)
    if step_row is not None and not is_budget_gate(table[0]):
        message = f"row {step_row + 1} uses within_step_budget, but row 1 does not gate on it"
        help_ = (
            "make row 1 `- {when: {not: {within_step_budget: {n: ...}}}, score: 0.0}`: "
            "an agent that never concluded has diagnosed nothing"
        )
        yield Diag("SI211", path + (step_row,), message, help=help_)


def _row_diags(row: Mapping[str, Any], rpath: Path, env: TableEnv) -> Iterator[Diag]:
    yield from code_key_diags(row, rpath)
    if "when" not in row:
        help_ = "add `when: <predicate>` (or `when: else`)"
        yield Diag("SI204", rpath, "row without a `when` predicate", help=help_)
    else:
        yield from predicate_diags(row["when"], rpath + ("when",), env, top=True)
    if "score" not in row:
        yield Diag("SI207", rpath, "row without a `score`", help="add `score: <number in [0, 1]>`")
        return
    score, spath = row["score"], rpath + ("score",)
    if not is_number(score):
        message = f"score must be a number, not {type_name(score)}"
        yield Diag("SI207", spath, message, on="value", help="write a number in [0, 1], e.g. `0.5`")
    elif not (0 <= score <= 1):
        help_ = "scores are fractions of the band: 0.0 … 1.0"
        yield Diag("SI207", spath, f"score {score} is outside [0, 1]", on="value", help=help_)
