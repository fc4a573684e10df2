"""What is wrong with a decision table (SPEC §2.2 predicate language, §8), as facts
(:mod:`si_lint.checks.fact`): its rows, their predicates, the primitives they call and the
arguments they pass.

The same walk runs over a Layer-2 template's ``table`` (with the template's ``roles``) and
a scenario-local composite's ``scoring.composite.table``, where role references are not
allowed (SI209) and argument values are literal, so they are checked by
:func:`si_lint.checks.value_facts.value_facts` (SI203, SI105–SI107, SI114, SI117, SI118).
Pure generators over plain data: no I/O, no global state."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from si_lint.checks.fact import Fact, Path, fact
from si_lint.checks.value_facts import value_facts
from si_lint.model import (
    COMBINATORS,
    is_code_key,
    is_number,
    is_role_ref,
    params_of,
    predicate_calls,
)

from ..mapping import MAPPING


def code_key_fact(path: Path) -> Fact:
    """SI204 at a ``code:``/``python:``/``lambda:``-style key."""
    return fact("SI204", "code-key", path, key=path[-1])


def code_key_facts(mapping: Mapping[str, Any], path: Path) -> Iterator[Fact]:
    for key in mapping:
        if is_code_key(key):
            yield code_key_fact(path + (key,))


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


def predicate_facts(node: Any, path: Path, env: TableEnv, *, top: bool = False) -> Iterator[Fact]:
    """A predicate: ``else`` (only as a row's whole ``when``: ``top``) or a one-key mapping."""
    if isinstance(node, str):
        if node != "else":
            yield fact("SI204", "expression", path, value=node)
        elif not top:
            yield fact("SI204", "nested-else", path)
    elif not isinstance(node, dict):
        yield fact("SI204", "not-a-predicate", path, value=node)
    elif len(node) != 1:
        if any(is_code_key(k) for k in node):
            yield from code_key_facts(node, path)
        elif not node:
            yield fact("SI204", "empty-mapping", path)
        else:
            yield fact("SI204", "several-keys", path, keys=list(node))
    else:
        ((key, val),) = node.items()
        yield from _call_facts(key, val, path + (key,), env)


def _call_facts(key: str, val: Any, kpath: Path, env: TableEnv) -> Iterator[Fact]:
    """The one key of a predicate: a combinator or a primitive, and what it is given."""
    if key == "not":
        yield from predicate_facts(val, kpath, env)
    elif key in COMBINATORS:  # `all` / `any`
        if not isinstance(val, list):
            yield fact("SI203", "combinator-type", kpath, key=key, value=val)
        elif not val:
            yield fact("SI203", "combinator-empty", kpath, key=key)
        else:
            for i, item in enumerate(val):
                yield from predicate_facts(item, kpath + (i,), env)
    elif key in env.primitives:
        yield from argument_facts(key, env.primitives[key], val, kpath, env)
    elif key in env.candidates:
        yield fact("SI202", "candidate", kpath, name=key)
    elif is_code_key(key):
        yield code_key_fact(kpath)
    else:
        yield fact("SI201", "unregistered", kpath, name=key, registered=sorted(env.primitives))


def argument_facts(
    name: str, prim: Mapping[str, Any], args: Any, path: Path, env: TableEnv
) -> Iterator[Fact]:
    """The arguments of a registered primitive, against its parameters."""
    params = params_of(prim)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        yield fact("SI203", "arguments-type", path, name=name, value=args, params=list(params))
        return
    for arg, value in args.items():
        if arg not in params:
            yield fact(
                "SI203", "no-parameter", path + (arg,), name=name, arg=arg, params=list(params)
            )
        else:
            yield from _argument_facts(name, params[arg], value, path + (arg,), env)
    for pname, p in params.items():
        if p.get("required") is True and pname not in args:
            yield fact("SI203", "missing-argument", path, name=name, param=pname)


def _argument_facts(
    prim: str, param: Mapping[str, Any], value: Any, path: Path, env: TableEnv
) -> Iterator[Fact]:
    """One argument: a role reference (templates) or a literal value."""
    if not is_role_ref(value):
        budget = (
            env.ratified_budget
            if prim == "within_step_budget" and param.get("name") == "n"
            else None
        )
        yield from value_facts(
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
        return
    role = value[1:]
    if env.composite or env.roles is None:
        yield fact("SI209", "role-in-composite", path, value=value)
        return
    if role not in env.roles:
        yield fact("SI209", "undeclared-role", path, value=value, role=role, roles=list(env.roles))
        return
    spec = env.roles.get(role)
    rtype = spec.get("type") if isinstance(spec, MAPPING) else None
    ptype = param.get("type")
    if isinstance(rtype, str) and isinstance(ptype, str) and rtype != ptype:
        yield fact(
            "SI203",
            "role-type",
            path,
            role=role,
            rtype=rtype,
            name=prim,
            param=param.get("name"),
            takes=ptype,
        )


# --------------------------------------------------------------------------- tables


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


def table_facts(table: Any, path: Path, env: TableEnv) -> Iterator[Fact]:
    """Every fact of one decision table: its shape (SI204, SI205), each row (SI204, SI207
    and the predicate's facts), the rows' order (SI205, SI206, SI211)."""
    if not isinstance(table, list):
        yield fact("SI204", "table-type", path, value=table)
        return
    if not table:
        yield fact("SI205", "empty", path)
        return
    order = _RowOrder()
    for i, row in enumerate(table):
        if not isinstance(row, dict):
            yield fact("SI204", "row-type", path + (i,), value=row)
            continue
        yield from _row_facts(row, path + (i,), env)
        if "when" in row:
            dead = order.add(i, row["when"], path + (i,))
            if dead is not None:
                yield dead
    if order.else_row is None and isinstance(table[-1], dict):  # else: SI204 already
        yield fact("SI205", "no-else", path + (len(table) - 1,))
    if order.step_row is not None and not is_budget_gate(table[0]):
        yield fact("SI211", "not-gated", path + (order.step_row,), row=order.step_row)


def _row_facts(row: Mapping[str, Any], rpath: Path, env: TableEnv) -> Iterator[Fact]:
    """One row ``{when, score}``: free-form keys, its predicate and its score."""
    yield from code_key_facts(row, rpath)
    if "when" not in row:
        yield fact("SI204", "row-without-when", rpath)
    else:
        yield from predicate_facts(row["when"], rpath + ("when",), env, top=True)
    if "score" not in row:
        yield fact("SI207", "no-score", rpath)
        return
    score = row["score"]
    if not is_number(score):
        yield fact("SI207", "score-type", rpath + ("score",), value=score)
    elif not (0 <= score <= 1):
        yield fact("SI207", "score-range", rpath + ("score",), value=score)


class _RowOrder:
    """The rows' ``when``s in order: rows that can never fire (SI206), the ``else`` row and
    the first row that uses ``within_step_budget`` (SI211)."""

    def __init__(self) -> None:
        self.else_row: int | None = None
        self.step_row: int | None = None
        self.seen: dict[str, int] = {}

    def add(self, i: int, when: Any, rpath: Path) -> Fact | None:
        """Row ``i``'s ``when``; the SI206 fact when the row can never fire."""
        dead = None
        if self.else_row is not None:
            dead = fact("SI206", "after-else", rpath, row=i, else_row=self.else_row)
        else:
            key = _canon(when)
            if key in self.seen:
                dead = fact("SI206", "repeats", rpath, row=i, earlier=self.seen[key])
            else:
                self.seen[key] = i
        if when == "else" and self.else_row is None:
            self.else_row = i
        if self.step_row is None and any(
            c.name == "within_step_budget" for c in predicate_calls(when)
        ):
            self.step_row = i
        return dead
