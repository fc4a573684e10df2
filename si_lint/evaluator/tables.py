"""Decision tables: a scenario's located (its template's, or its composite's), then the
predicate language of SPEC §2.2 (``else`` as a row's whole ``when``, ``not``,
``all``/``any``, a registered primitive whose ``$role`` arguments are resolved from the
template's bindings) validated, then evaluated. :func:`compile_table` checks the *whole*
table, every row reached or not, before any row is evaluated.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .. import model
from ..limits import to_float
from ..mapping import MAPPING
from ..profile import Profile
from .evidence import EvaluationError, InvalidTable, NoTable
from .primitives import BUILTINS
from .text import Reading

#: a compiled predicate: ("else",) | ("not", node) | ("all"|"any", [nodes])
#: | ("prim", name, {param: resolved value})
Node = tuple

TOO_DEEP = "the decision table is nested too deeply"

#: the error every verdict of a scenario in the former spelling gets (SPEC §3.1, §5)
FORMER_SPELLING = (
    "SI119: the scenario uses the former si-lint spelling `scoring.template` + "
    "`scoring.bindings`, which oasisctl refuses; it is not evaluated (run "
    "`si-lint check --fix` to rewrite it into the published spelling)"
)


def locate_table(scenario: Any, profile: Profile) -> tuple[list, dict, bool]:
    """``(table, bindings, composite)`` of a scenario as :func:`si_lint.model.scoring_of`
    reads it; :class:`NoTable` saying why when it has none that can be evaluated."""
    if not isinstance(scenario, MAPPING):
        raise NoTable("scenario is not a mapping")
    if not isinstance(scenario.get("scoring"), MAPPING):
        raise NoTable("scenario has no `scoring` mapping")
    s = model.scoring_of(scenario)
    if s.form == model.FORMER:
        raise NoTable(FORMER_SPELLING)
    if s.form == model.TEMPLATE:
        name = s.template
        if not isinstance(name, str):
            raise NoTable("`scoring.archetype_template` is not a string")
        doc = model.find_template(profile, name)
        if doc is None:
            raise NoTable(f"`scoring.archetype_template` names no known template `{name}`")
        table = doc.get("table")
        if not isinstance(table, list):
            raise NoTable(f"template `{name}` has no `table` list")
        return table, dict(s.bindings), False
    if s.form == model.COMPOSITE:
        if not isinstance(s.composite, MAPPING):
            raise NoTable("`scoring.composite` is not a mapping")
        table = s.composite.get("table")
        if not isinstance(table, list):
            raise NoTable("`scoring.composite` has no `table` list")
        return table, {}, True
    if s.form == model.BOTH:
        raise NoTable("scenario scoring declares both `archetype_template` and a `composite`")
    raise NoTable("scenario has no decision table (Form A or safety scoring cannot be evaluated)")


def untrusted_primitives(scenario: Any, profile: Profile) -> list[str]:
    """The non-built-in primitives the scenario's table needs that have no trusted
    implementation, sorted."""
    try:
        table = locate_table(scenario, profile)[0]
    except NoTable:
        return []
    registered = profile.primitives
    whens = [row.get("when") for row in table if isinstance(row, MAPPING)]
    names = {n for when in whens for n in model.primitives_in(when, registered)}
    return sorted(n for n in names if n not in BUILTINS and n not in profile.implementations)


def finite(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = to_float(v)
    return f if math.isfinite(f) else None


@dataclass(frozen=True)
class CompiledTable:
    rows: tuple[tuple[Node, float], ...]
    composite: bool
    #: the profile's matching constants, read once by :func:`si_lint.evaluator.prepare`
    constants: Any = None


#: parameter type -> (the test an argument of that type passes, what the error expects)
_EXPECTED: dict[Any, tuple[Callable[[Any], bool], str]] = {
    "identifier_set": (model.is_str_list, "a list of strings"),
    "channels": (model.is_str_list, "a list of channel names"),
    "boolean": (lambda v: isinstance(v, bool), "a boolean"),
    "integer": (model.is_int, "an integer"),
}


@dataclass(frozen=True)
class _Compiler:
    bindings: Mapping[str, Any]
    composite: bool
    profile: Profile
    scenario: Any

    def predicate(self, p: Any, where: str) -> Node:
        if isinstance(p, str) and p == "else":
            raise EvaluationError(f"{where}: `else` is valid only as a row's whole `when`")
        if not isinstance(p, MAPPING) or len(p) != 1:
            raise EvaluationError(
                f"{where}: a predicate is `else` or a mapping with exactly one key"
            )
        ((key, value),) = p.items()
        if key == "not":
            return ("not", self.predicate(value, f"{where}.not"))
        if key in ("all", "any"):
            if not isinstance(value, list):
                raise EvaluationError(f"{where}.{key}: expected a list of predicates")
            return (key, [self.predicate(v, f"{where}.{key}[{i}]") for i, v in enumerate(value)])
        if not isinstance(key, str) or key not in self.profile.primitives:
            raise EvaluationError(f"{where}: `{key}` is not a registered primitive")
        if key not in BUILTINS and key not in self.profile.implementations:
            raise EvaluationError(
                f"{where}: primitive `{key}` needs an implementation that is not trusted "
                "(run with --trust-implementations)"
            )
        return ("prim", key, self.arguments(key, value, f"{where}.{key}"))

    def arguments(self, name: str, args: Any, where: str) -> dict[str, Any]:
        args = {} if args is None else args
        if not isinstance(args, MAPPING):
            raise EvaluationError(f"{where}: arguments must be a mapping")
        params = self.profile.primitives[name].get("params") or []
        specs = {
            s["name"]: s
            for s in params
            if isinstance(s, MAPPING) and isinstance(s.get("name"), str)
        }
        for k in args:
            if k not in specs:
                raise EvaluationError(f"{where}: unknown argument `{k}`")
        out: dict[str, Any] = {}
        for pname, spec in specs.items():
            if pname in args:
                out[pname] = self.value(args[pname], spec, f"{where}.{pname}")
            elif spec.get("required") is True:
                raise EvaluationError(f"{where}: missing required argument `{pname}`")
            elif "default" in spec:
                out[pname] = spec["default"]
        return out

    def value(self, v: Any, spec: Mapping[str, Any], where: str) -> Any:
        if isinstance(v, str) and v.startswith("$"):
            if self.composite:
                raise EvaluationError(
                    f"{where}: role reference `{v}` in a composite "
                    "(composite arguments are literal values)"
                )
            role = v[1:]
            if role not in self.bindings:
                raise EvaluationError(f"{where}: role `{v}` is not bound")
            v = self.bindings[role]
        kind = spec.get("type")
        expected = _EXPECTED.get(kind)
        if expected is not None and not expected[0](v):
            raise EvaluationError(f"{where}: expected {expected[1]}")
        if kind == "channels":
            for c in v:
                if c not in self.profile.channels:
                    raise EvaluationError(f"{where}: unknown channel `{c}`")
        elif kind == "integer":
            minimum = spec.get("minimum")
            if model.is_number(minimum) and v < minimum:
                raise EvaluationError(f"{where}: {v} is below the minimum {minimum}")
        elif kind == "factor":
            v = self.factor(v, where)
        return v

    def factor(self, v: Any, where: str) -> dict[str, Any]:
        if not isinstance(v, MAPPING):
            raise EvaluationError(f"{where}: expected a factor mapping")
        ref = v.get("ref")
        if not isinstance(ref, str):
            raise EvaluationError(f"{where}: factor has no string `ref`")
        ids = v.get("required_identifiers")
        if not model.is_str_list(ids):
            raise EvaluationError(
                f"{where}: factor `required_identifiers` is not a list of strings"
            )
        dev = model.deviation(self.scenario, ref)  # the first of a repeated id
        if dev is None:
            raise EvaluationError(
                f"{where}: factor.ref `{ref}` resolves to no injection.deviations entry"
            )
        dtype = found if isinstance(found := dev.get("deviation_type"), str) else None
        syn = self.profile.synonyms.get(dtype) if dtype is not None else None
        return {
            "ref": ref,
            "required_identifiers": list(ids),
            "deviation_type": dtype,
            "synonyms": list(syn) if isinstance(syn, list) else None,
        }


def compile_table(
    table: Any, bindings: Mapping[str, Any], *, composite: bool, profile: Profile, scenario: Any
) -> CompiledTable:
    if not isinstance(table, list):
        raise InvalidTable("the decision table is not a list")
    comp = _Compiler(bindings, composite, profile, scenario)
    rows: list[tuple[Node, float]] = []
    try:
        for i, row in enumerate(table, start=1):
            where = f"row {i}"
            if not isinstance(row, MAPPING):
                raise EvaluationError(f"{where}: a row is a mapping with `when` and `score`")
            if "when" not in row:
                raise EvaluationError(f"{where}: no `when`")
            score = finite(row.get("score"))
            if score is None:
                raise EvaluationError(f"{where}: `score` is not a number")
            when = row["when"]
            node = ("else",) if when == "else" else comp.predicate(when, f"{where}.when")
            rows.append((node, score))
    except EvaluationError as exc:
        raise InvalidTable(str(exc)) from None
    except RecursionError:
        raise InvalidTable(TOO_DEEP) from None
    return CompiledTable(tuple(rows), composite)


def custom_evidence(reading: Reading, scenario: Any, profile: Profile) -> dict[str, Any]:
    """What a custom primitive receives (SPEC §2.1): the artifact form of the evidence as
    plain data, plus the projection's ``has_final_answer`` and ``steps`` and the
    scenario's ``injection``, the profile's ``synonyms`` and ``constants``."""
    ev = reading.evidence
    art = dict(ev.artifact)
    if ev.form == "transcript":
        art["final_answer"] = ev.channels.get("agent_response", "")
    return art | {
        "has_final_answer": ev.has_final,
        "steps": ev.steps,
        "injection": scenario.get("injection") if isinstance(scenario, MAPPING) else None,
        "synonyms": dict(profile.synonyms),
        "constants": asdict(reading.constants),
    }


def _call(name: str, args: Mapping[str, Any], reading: Reading, profile: Profile, scenario) -> bool:
    builtin = BUILTINS.get(name)
    try:
        if builtin is not None:
            result = builtin(reading, **args)
        else:
            result = profile.implementations[name](
                copy.deepcopy(custom_evidence(reading, scenario, profile)),
                **copy.deepcopy(dict(args)),
            )
    except EvaluationError as exc:
        raise EvaluationError(f"`{name}`: {exc}") from None
    except Exception as exc:  # a primitive must not crash the evaluator
        raise EvaluationError(f"primitive `{name}` raised {type(exc).__name__}: {exc}") from None
    if not isinstance(result, bool):
        raise EvaluationError(f"primitive `{name}` returned {type(result).__name__}, not a boolean")
    return result


def holds(node: Node, reading: Reading, profile: Profile, scenario: Any) -> bool:
    tag = node[0]
    if tag == "else":
        return True
    if tag == "not":
        return not holds(node[1], reading, profile, scenario)
    if tag in ("all", "any"):
        return (all if tag == "all" else any)(holds(n, reading, profile, scenario) for n in node[1])
    return _call(node[1], node[2], reading, profile, scenario)


def run_table(
    compiled: CompiledTable, reading: Reading, profile: Profile, scenario: Any
) -> tuple[float, int]:
    for i, (node, score) in enumerate(compiled.rows, start=1):
        if holds(node, reading, profile, scenario):
            return score, i
    raise EvaluationError("no row of the decision table holds")


def walk(node: Node):
    tag = node[0]
    if tag == "prim":
        yield node
    elif tag == "not":
        yield from walk(node[1])
    elif tag in ("all", "any"):
        for n in node[1]:
            yield from walk(n)
