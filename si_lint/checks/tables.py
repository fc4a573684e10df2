"""Static decision-table rules SI201–SI211 (SPEC §2.2 predicate language, §8).

The same table checker runs over

* Layer-2 band templates (documents of kind ``template``: the ``table`` with the template's
  ``roles``), and
* scenario-local composites (``scoring.composite.table``, called from ``formb.py``), where
  role references are not allowed (SI209) and argument values are literal, so they are
  type-checked directly (SI203) and linted for identifiers (SI117/SI118), channels (SI106),
  factor references (SI107) and the ratified step budget (SI114).

Everything here is a pure generator over plain data: no I/O, no global state.

Decisions (documented in ``rules/SI2*.yaml``):

* SI204 covers every node in predicate or table position that is not part of the predicate
  language: a string other than a row's whole ``else`` (``when: "len(x) > 2"``), a nested
  ``else``, a number/list, a mapping with other than one key, a ``code:``/``python:``/
  ``lambda:``-style key, a ``table`` that is not a list, a row without ``when``.
* SI205 is reported (at the last row, or at ``table`` when it is empty) only when the table
  has no ``else`` row at all; rows after an ``else`` that is not last are SI206.
* SI206 is reported at each row after the first ``else`` row and at each row whose ``when``
  equals (as plain data) an earlier row's ``when``.
* SI211 is reported at the first row that uses ``within_step_budget`` when row 1 is not the
  gate ``{not: {within_step_budget: ...}}`` scoring 0.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from si_lint.checks.base import file_check
from si_lint.findings import Diag, type_name
from si_lint.fix import replace_item, set_list, set_value
from si_lint.model import (  # noqa: F401
    FACTOR_KEYS,
    PARAM_TYPES,
    is_int,
    is_number,
    is_role_ref,
    params_of,
    predicate_calls,
    range_problem,
)

Path = tuple

#: keys that announce free-form code where a predicate or table is required (SI204)
CODE_KEYS = frozenset(
    {
        "code",
        "python",
        "py",
        "lambda",
        "eval",
        "exec",
        "expr",
        "expression",
        "script",
        "javascript",
        "js",
        "function",
        "fn",
        "func",
        "callable",
        "source",
        "jinja",
        "template_code",
    }
)


def is_code_key(key: Any) -> bool:
    return isinstance(key, str) and key.strip().lower() in CODE_KEYS


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


def identifier_diag(s: str, path: Path, what: str) -> Diag | None:
    """SI117 at the list item ``path`` when ``s`` is a bad identifier."""
    why = identifier_problem(s)
    if why is None:
        return None
    fixed = fixed_identifier(s)
    help_ = (
        f"write {json.dumps(fixed, ensure_ascii=False)}"
        if fixed is not None
        else "remove the empty identifier: an empty pattern is an evaluation error"
    )
    return Diag(
        "SI117",
        path,
        f"{what} {json.dumps(s, ensure_ascii=False)} {why}",
        help=help_,
        fix=replace_item(path, fixed) if fixed is not None else None,
    )


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


@dataclass
class TableEnv:
    """What a table is checked against."""

    primitives: Mapping[str, Mapping[str, Any]]
    candidates: frozenset
    channels: frozenset
    #: declared roles (templates); None in a composite (no role references allowed)
    roles: Mapping[str, Any] | None = None
    composite: bool = False
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
        prims = dict(getattr(profile, "primitives", {}) or {})
        cands = frozenset(getattr(profile, "candidates", []) or [])
        chans = frozenset(getattr(profile, "channels", []) or [])
        return cls(primitives=prims, candidates=cands, channels=chans, **kw)


# --------------------------------------------------------------------------- predicates


def check_predicate(node: Any, path: Path, env: TableEnv, *, top: bool = False) -> Iterator[Diag]:
    if isinstance(node, str):
        if node == "else":
            if not top:
                yield Diag(
                    "SI204",
                    path,
                    "`else` is valid only as a row's whole `when`",
                    on="value",
                    help="make this the last row: `- when: else`",
                )
            return
        yield Diag(
            "SI204",
            path,
            f"free-form expression {json.dumps(node, ensure_ascii=False)} where a predicate is required",
            on="value",
            help="write a predicate over registered primitives, e.g. "
            "`{named_in_output: {identifier_set: [...], channels: [agent_response]}}`",
        )
        return
    if not isinstance(node, dict):
        yield Diag(
            "SI204",
            path,
            f"a predicate is `else` or a one-key mapping, not {_type_name(node)}",
            on="value",
            help="use `{primitive: {args}}`, `not`, `all` or `any`",
        )
        return
    if len(node) != 1:
        code_keys = [k for k in node if is_code_key(k)]
        if code_keys:
            for k in code_keys:
                yield _code_key_diag(path + (k,))
            return
        if not node:
            yield Diag(
                "SI204",
                path,
                "empty mapping where a predicate is required",
                on="value",
                help="use `{primitive: {args}}`, `not`, `all` or `any`",
            )
        else:
            keys = ", ".join(f"`{k}`" for k in node)
            yield Diag(
                "SI204",
                path,
                f"a predicate has exactly one key, this one has {len(node)} ({keys})",
                on="value",
                help="combine predicates with `all: [...]` or `any: [...]`",
            )
        return
    ((key, val),) = node.items()
    kpath = path + (key,)
    if key == "not":
        yield from check_predicate(val, kpath, env)
    elif key in ("all", "any"):
        if not isinstance(val, list):
            yield Diag(
                "SI203",
                kpath,
                f"`{key}` takes a list of predicates, not {_type_name(val)}",
                on="value",
                help=f"write `{key}: [<predicate>, ...]`",
            )
        elif not val:
            meaning = "always true" if key == "all" else "always false"
            yield Diag(
                "SI203",
                kpath,
                f"`{key}: []` is {meaning}",
                on="value",
                help=f"list at least one predicate under `{key}`, or drop it",
            )
        else:
            for i, item in enumerate(val):
                yield from check_predicate(item, kpath + (i,), env)
    elif key in env.primitives:
        yield from check_arguments(key, env.primitives[key], val, kpath, env)
    elif key in env.candidates:
        yield Diag(
            "SI202",
            kpath,
            f"`{key}` is a candidate primitive (§2.4), not in the registry",
            help="register it in the profile's registry (a registry extension, `si-lint review`) "
            "or express the band with registered primitives",
        )
    elif is_code_key(key):
        yield _code_key_diag(kpath)
    else:
        known = ", ".join(sorted(env.primitives)) or "none"
        yield Diag(
            "SI201",
            kpath,
            f"`{key}` is not a registered primitive (registered: {known})",
            help="a scenario or template may only use primitives of the registry",
        )


def _code_key_diag(path: Path) -> Diag:
    return Diag(
        "SI204",
        path,
        f"free-form code (`{path[-1]}`) where a decision table is required",
        help="express the band as a decision table over registered primitives (§1.4), "
        "or extend the registry",
    )


_type_name = type_name  # formb imports it from here


def check_arguments(
    name: str, prim: Mapping[str, Any], args: Any, path: Path, env: TableEnv
) -> Iterator[Diag]:
    params = params_of(prim)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        yield Diag(
            "SI203",
            path,
            f"arguments of `{name}` must be a mapping, not {_type_name(args)}",
            on="value",
            help="write `{" + ", ".join(f"{p}: ..." for p in params) + "}`",
        )
        return
    for arg, value in args.items():
        apath = path + (arg,)
        if arg not in params:
            known = ", ".join(params) or "none"
            yield Diag(
                "SI203",
                apath,
                f"`{name}` has no parameter `{arg}` (parameters: {known})",
                help=f"remove `{arg}`",
            )
            continue
        yield from check_argument(name, params[arg], value, apath, env)
    for pname, p in params.items():
        if p.get("required") is True and pname not in args:
            yield Diag(
                "SI203",
                path,
                f"`{name}` is missing its required argument `{pname}`",
                help=f"add `{pname}: ...`",
            )


def check_argument(
    prim: str, param: Mapping[str, Any], value: Any, path: Path, env: TableEnv
) -> Iterator[Diag]:
    pname = param.get("name")
    ptype = param.get("type")
    if is_role_ref(value):
        role = value[1:]
        if env.composite or env.roles is None:
            yield Diag(
                "SI209",
                path,
                f"role reference `{value}` in a composite: a composite has no roles",
                on="value",
                help="write the literal value (composites bind nothing)",
            )
            return
        if role not in env.roles:
            declared = ", ".join(f"${r}" for r in env.roles) or "none"
            yield Diag(
                "SI209",
                path,
                f"`{value}` references an undeclared role (declared: {declared})",
                on="value",
                help=f"declare `{role}` under `roles`, or reference a declared role",
            )
            return
        spec = env.roles.get(role)
        rtype = spec.get("type") if isinstance(spec, Mapping) else None
        if isinstance(rtype, str) and isinstance(ptype, str) and rtype != ptype:
            yield Diag(
                "SI203",
                path,
                f"role `{role}` is of type {rtype}, but `{prim}.{pname}` takes {ptype}",
                on="value",
                help=f"reference a role of type {ptype}",
            )
        return
    yield from check_literal(prim, param, value, path, env)


def check_literal(
    prim: str, param: Mapping[str, Any], value: Any, path: Path, env: TableEnv
) -> Iterator[Diag]:
    """A literal argument value of a primitive (composites, or a template's literals)."""
    budget = (
        env.ratified_budget if prim == "within_step_budget" and param.get("name") == "n" else None
    )
    yield from check_value(
        param,
        value,
        path,
        where=f"`{prim}.{param.get('name')}`",
        type_code="SI203",
        channels=env.channels,
        allowed=env.allowed_channels,
        widens=f"the channels of archetype {env.archetype}",
        deviation_ids=env.deviation_ids,
        budget=budget,
        scenario_id=env.scenario_id,
    )


def check_value(
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
    """THE value check of a role binding (``type_code`` SI111) or a literal primitive
    argument (SI203), by the parameter-type table :data:`si_lint.model.PARAM_TYPES`.

    ``spec`` is the role declaration or the registry parameter (``type``, ``minimum``,
    ``maximum``, ``expected``); ``where`` names it in messages (``role `channels```).
    Beyond the type: identifiers (SI117), channels (SI106 unknown, SI105 outside
    ``allowed``), the factor (SI107, SI118), the ratified ``budget`` (SI114) and, with
    ``expected``, a boolean bound to another value than the template expects (SI113).
    A type si-lint does not know (a custom profile) is not checked statically."""
    ptype = PARAM_TYPES.get(spec.get("type")) if isinstance(spec.get("type"), str) else None
    if ptype is None:
        return
    if not ptype.accepts(value):
        yield Diag(
            type_code,
            path,
            f"{where} takes {ptype.noun}, not {_type_name(value)}",
            on="value",
            help=ptype.help,
        )
        return
    if ptype.item is not None:  # a list of strings
        if not value:
            yield Diag(
                type_code,
                path,
                f"{where} is empty: it matches nothing",
                on="value",
                help=ptype.help.replace("write", "list at least one, e.g.", 1),
            )
            return
        for i, item in enumerate(value):
            ipath = path + (i,)
            if not isinstance(item, str):
                yield Diag(
                    type_code,
                    ipath,
                    f"{ptype.item} must be a string, not {_type_name(item)}",
                    help="quote it",
                )
            elif ptype.item == "identifier":
                d = identifier_diag(item, ipath, "identifier")
                if d is not None:
                    yield d
            elif item not in channels:
                yield unknown_channel(item, ipath, channels)
            elif allowed is not None and item not in allowed:
                shown = ", ".join(sorted(allowed)) or "none"
                narrowed = [
                    c for c in value if isinstance(c, str) and c in channels and c in allowed
                ]
                yield Diag(
                    "SI105",
                    ipath,
                    f"channel `{item}` widens {widens} beyond the template's allowed "
                    f"channels ({shown})",
                    help=f"narrow it to [{shown}] (diagnosis bands match agent_response only, §2.5)",
                    fix=set_list(path, narrowed) if narrowed else None,
                )
        return
    if ptype.name == "factor":
        yield from check_factor(where, value, path, type_code, deviation_ids)
        return
    if ptype.ranged:
        bad = range_problem(value, spec)
        if bad:
            yield Diag(type_code, path, f"{where} {bad}", on="value")
            return
    if budget is not None and value != budget:
        yield Diag(
            "SI114",
            path,
            f"step budget {value} differs from the budget {budget} ratified for {scenario_id}",
            on="value",
            help=f"use {budget}",
        )
    if (
        expected
        and ptype.name == "boolean"
        and isinstance(spec.get("expected"), bool)
        and value != spec["expected"]
    ):
        exp = "true" if spec["expected"] else "false"
        yield Diag(
            "SI113",
            path,
            f"`{path[-1]}` is bound to {str(value).lower()}, the template expects {exp}",
            on="value",
            help=f"set `{path[-1]}: {exp}` (without echo exclusion an agent that dumps "
            "tool output scores as if it had named the factor)",
            fix=set_value(path, spec["expected"]),
        )


def unknown_channel(item: str, path: Path, channels: frozenset | list) -> Diag:
    known = ", ".join(sorted(channels)) or "none"
    return Diag(
        "SI106",
        path,
        f"unknown channel `{item}` (the profile's channels: {known})",
        help="use a channel the profile defines",
    )


def check_factor(
    where: str,
    value: Mapping[str, Any],
    path: Path,
    type_code: str,
    deviation_ids: frozenset | None,
) -> Iterator[Diag]:
    """A factor value ``{ref, required_identifiers}`` (a mapping)."""
    for key in value:
        if key not in FACTOR_KEYS and key != "synonyms":  # synonyms: SI104
            yield Diag(
                type_code,
                path + (key,),
                f"a factor has only `ref` and `required_identifiers`, not `{key}`",
                help="the deviation type is read from injection.deviations, never restated",
            )
    if "ref" not in value:
        yield Diag(
            type_code, path, f"{where}: factor without `ref`", help="add `ref: <deviation id>`"
        )
    elif not isinstance(value["ref"], str):
        yield Diag(
            type_code,
            path + ("ref",),
            f"factor `ref` must be a deviation id (a string), not {_type_name(value['ref'])}",
            on="value",
        )
    elif deviation_ids is not None and value["ref"] not in deviation_ids:
        yield ref_diag(value["ref"], path + ("ref",), deviation_ids)
    if "required_identifiers" not in value:
        yield Diag(
            type_code,
            path,
            f"{where}: factor without `required_identifiers`",
            help="add `required_identifiers: [...]`",
        )
        return
    yield from check_required_identifiers(
        value["required_identifiers"], path + ("required_identifiers",), type_code
    )


def ref_diag(ref: str, path: Path, ids: frozenset | set) -> Diag:
    known = ", ".join(sorted(ids)) or "none"
    return Diag(
        "SI107",
        path,
        f"factor ref `{ref}` resolves to no injection.deviations entry (deviation ids: {known})",
        on="value",
        help="reference the id of a deviation under injection.deviations",
    )


def check_required_identifiers(value: Any, path: Path, type_code: str) -> Iterator[Diag]:
    if not isinstance(value, list):
        yield Diag(
            type_code,
            path,
            f"`required_identifiers` must be a list of identifiers, not {_type_name(value)}",
            on="value",
        )
        return
    if not value:
        yield Diag(
            "SI118",
            path,
            "`required_identifiers` is empty: the factor would be identified "
            "by a deviation-type phrase alone",
            on="value",
            help="list the identifiers that name the factor, e.g. the key that was removed",
        )
        return
    for i, item in enumerate(value):
        if not isinstance(item, str):
            yield Diag(
                type_code, path + (i,), f"identifier must be a string, not {_type_name(item)}"
            )
        else:
            d = identifier_diag(item, path + (i,), "identifier")
            if d is not None:
                yield d


# --------------------------------------------------------------------------- tables


def _is_gate(row: Any) -> bool:
    if not isinstance(row, dict):
        return False
    when = row.get("when")
    if not (isinstance(when, dict) and len(when) == 1 and "not" in when):
        return False
    inner = when["not"]
    if not (isinstance(inner, dict) and len(inner) == 1 and "within_step_budget" in inner):
        return False
    score = row.get("score")
    return is_number(score) and score == 0


def check_table(table: Any, path: Path, env: TableEnv) -> Iterator[Diag]:
    """SI201–SI207, SI209, SI211 (and the literal-argument codes) for one decision table."""
    if not isinstance(table, list):
        what = (
            f"free-form code {json.dumps(table, ensure_ascii=False)}"
            if isinstance(table, str)
            else _type_name(table)
        )
        yield Diag(
            "SI204",
            path,
            f"{what} where a decision table (a list of rows) is required",
            on="value",
            help="write `table:` as a list of `{when: <predicate>, score: <0..1>}` rows",
        )
        return
    if not table:
        yield Diag(
            "SI205",
            path,
            "decision table is empty: it has no `else` row",
            help="add rows and end with `- when: else`",
        )
        return
    else_row: int | None = None
    seen: dict[str, int] = {}
    step_row: int | None = None
    for i, row in enumerate(table):
        rpath = path + (i,)
        if not isinstance(row, dict):
            yield Diag(
                "SI204",
                rpath,
                f"a row is a mapping `{{when, score}}`, not {_type_name(row)}",
                help="write `- {when: <predicate>, score: <0..1>}`",
            )
            continue
        for key in row:
            if is_code_key(key):
                yield _code_key_diag(rpath + (key,))
        has_when = "when" in row
        when = row.get("when")
        if not has_when:
            yield Diag(
                "SI204",
                rpath,
                "row without a `when` predicate",
                help="add `when: <predicate>` (or `when: else`)",
            )
        else:
            yield from check_predicate(when, rpath + ("when",), env, top=True)
        if "score" not in row:
            yield Diag(
                "SI207", rpath, "row without a `score`", help="add `score: <number in [0, 1]>`"
            )
        else:
            score = row["score"]
            if not is_number(score):
                yield Diag(
                    "SI207",
                    rpath + ("score",),
                    f"score must be a number, not {_type_name(score)}",
                    on="value",
                    help="write a number in [0, 1], e.g. `0.5`",
                )
            elif not (0 <= score <= 1):
                yield Diag(
                    "SI207",
                    rpath + ("score",),
                    f"score {score} is outside [0, 1]",
                    on="value",
                    help="scores are fractions of the band: 0.0 … 1.0",
                )
        if has_when:
            if else_row is not None:
                yield Diag(
                    "SI206",
                    rpath,
                    f"row {i + 1} can never fire: it comes after the `else` row {else_row + 1}",
                    help="move the `else` row to the end, or remove this row",
                )
            else:
                key = _canon(when)
                if key in seen:
                    yield Diag(
                        "SI206",
                        rpath,
                        f"row {i + 1} can never fire: it repeats the predicate "
                        f"of row {seen[key] + 1}",
                        help="remove this row",
                    )
                else:
                    seen[key] = i
            if when == "else" and else_row is None:
                else_row = i
            if step_row is None and any(
                c.name == "within_step_budget" for c in predicate_calls(when)
            ):
                step_row = i
    if else_row is None and isinstance(table[-1], dict):  # a non-mapping last row is SI204 already
        last = len(table) - 1
        yield Diag(
            "SI205",
            path + (last,),
            "decision table does not end with an `else` row",
            help="add `- {when: else, score: 0.0}` as the last row, so that every artifact "
            "gets a verdict",
        )
    if step_row is not None and not _is_gate(table[0]):
        yield Diag(
            "SI211",
            path + (step_row,),
            f"row {step_row + 1} uses within_step_budget, but row 1 does not gate on it",
            help="make row 1 `- {when: {not: {within_step_budget: {n: ...}}}, score: 0.0}`: "
            "an agent that never concluded has diagnosed nothing",
        )


# --------------------------------------------------------------------------- templates


@file_check(
    "SI106",
    "SI117",
    "SI118",
    "SI201",
    "SI202",
    "SI203",
    "SI204",
    "SI205",
    "SI206",
    "SI207",
    "SI209",
    "SI211",
    kinds=("template",),
)
def template_table(doc: Any, ctx: Any) -> Iterator[Diag]:
    """A Layer-2 template's decision table, against the profile's registry and its own roles."""
    data = doc.data
    if not isinstance(data, dict):
        return
    roles = data.get("roles")
    roles = roles if isinstance(roles, dict) else {}
    env = TableEnv.from_profile(ctx.profile, roles=roles)
    # roles' `allowed` channels must be channels of the profile
    for rname, spec in roles.items():
        if isinstance(spec, dict) and isinstance(spec.get("allowed"), list):
            for i, ch in enumerate(spec["allowed"]):
                if isinstance(ch, str) and ch not in env.channels:
                    yield unknown_channel(ch, ("roles", rname, "allowed", i), env.channels)
    if "table" in data:
        yield from check_table(data["table"], ("table",), env)
    for key in data:
        if is_code_key(key):
            yield _code_key_diag((key,))
