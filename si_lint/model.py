"""The one reading of SI documents' published shape (SPEC §3) that the checks, graph,
evaluator and review share: pure functions of plain data where a wrong shape reads as
"absent"."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeGuard

from .findings import value_object
from .mapping import MAPPING, lookup

Path = tuple

# scoring forms (SPEC §3.1)

#: Form B: the key naming the Layer-2 template
TEMPLATE_KEY = "archetype_template"
#: a scenario-local composite (si-lint's spelling): ``composite: {reason, table}``
COMPOSITE_KEY = "composite"
#: Form A keys (SI101–SI103 in a Form B scenario, SI115 on their own)
FORM_A_KEYS = ("type", "rubric", "dimensions")
#: the former si-lint spelling (SI119)
FORMER_KEYS = ("template", "bindings")
#: keys of ``scoring`` that never bind a role
RESERVED_KEYS = frozenset((TEMPLATE_KEY, COMPOSITE_KEY, "synonyms") + FORM_A_KEYS + FORMER_KEYS)

#: the scoring forms :func:`scoring_of` tells apart
TEMPLATE = "template"  # Form B: archetype_template + flat role bindings
COMPOSITE = "composite"  # scoring.composite
FORM_A = "form-a"  # scoring `type`: weighted / rubric / dimensions
BINARY = "binary"  # a safety scenario (classification: safety): scored binary
FORMER = "former"  # scoring.template / scoring.bindings (SI119)
BOTH = "both"  # archetype_template and composite
NONE = "none"  # neither form (or scoring is not a mapping)


@value_object()
class Scoring(NamedTuple):
    """How a scenario is scored. ``block`` is {} when ``scoring`` is no mapping;
    ``template`` and ``composite`` are as written (any type); ``bindings`` are Form B's
    non-reserved keys of ``scoring``, in order."""

    form: str
    block: Mapping[str, Any]
    template: Any
    bindings: dict[str, Any]
    composite: Any = None

    @property
    def has_table(self) -> bool:
        return self.form in (TEMPLATE, COMPOSITE)


def scoring_of(scenario: Any) -> Scoring:
    """The scoring form of a scenario document (SPEC §3.1)."""
    block = scenario.get("scoring") if isinstance(scenario, MAPPING) else None
    if isinstance(scenario, MAPPING) and scenario.get("classification") == "safety":
        return Scoring(BINARY, block if isinstance(block, MAPPING) else {}, None, {})
    if not isinstance(block, MAPPING):
        return Scoring(NONE, {}, None, {})
    if any(k in block for k in FORMER_KEYS):
        return Scoring(FORMER, block, block.get("template"), {})
    has_t, has_c = TEMPLATE_KEY in block, COMPOSITE_KEY in block
    if has_t and has_c:
        return Scoring(BOTH, block, block[TEMPLATE_KEY], {}, block[COMPOSITE_KEY])
    if has_t:
        bindings = {k: v for k, v in block.items() if isinstance(k, str) and k not in RESERVED_KEYS}
        return Scoring(TEMPLATE, block, block[TEMPLATE_KEY], bindings)
    if has_c:
        return Scoring(COMPOSITE, block, None, {}, block[COMPOSITE_KEY])
    if any(k in block for k in FORM_A_KEYS):
        return Scoring(FORM_A, block, None, {})
    return Scoring(NONE, block, None, {})


# the injection manifest (SPEC §3, spec §1.11)


def deviations(scenario: Any) -> list[tuple[int, Mapping[str, Any]]]:
    devs = lookup(lookup(scenario, "injection"), "deviations", list, [])
    return [(i, d) for i, d in enumerate(devs) if isinstance(d, MAPPING)]


def deviation_ids(scenario: Any) -> frozenset:
    return frozenset(d["id"] for _, d in deviations(scenario) if isinstance(d.get("id"), str))


def deviation(scenario: Any, ref: Any) -> Mapping[str, Any] | None:
    """The deviation a factor's ``ref`` binds to (a duplicate id: the first wins)."""
    return next((d for _, d in deviations(scenario) if d.get("id") == ref), None)


# templates of a profile


def find_template(profile: Any, name: Any) -> Mapping[str, Any] | None:
    """The template document whose id is ``name`` (by key, else by ``template.id``)."""
    if not isinstance(name, str):
        return None
    templates = getattr(profile, "templates", None) or {}
    if not isinstance(templates, MAPPING):
        return None
    t = templates.get(name)
    if isinstance(t, MAPPING):
        return t
    for key in sorted(k for k in templates if isinstance(k, str)):
        cand = templates[key]
        head = cand.get("template") if isinstance(cand, MAPPING) else None
        if isinstance(head, MAPPING) and head.get("id") == name:
            return cand
    return None


def template_names(profile: Any) -> list[str]:
    templates = getattr(profile, "templates", None) or {}
    items = templates.items() if isinstance(templates, MAPPING) else []
    return sorted({lookup(lookup(t, "template"), "id", str, k) for k, t in items})


def template_roles(template: Any) -> Mapping[Any, Any]:  # YAML keys: not always strings
    return lookup(template, "roles", MAPPING, {})


#: keys that announce free-form code where a predicate or table is required (SI204)
CODE_KEYS = frozenset(
    "code python py lambda eval exec expr expression script javascript js function fn func "
    "callable source jinja template_code".split()
)


def is_code_key(key: Any) -> bool:
    return isinstance(key, str) and key.strip().lower() in CODE_KEYS


# the predicate walker (SPEC §2.2)

#: the keys that combine predicates (every other key names a primitive)
COMBINATORS = ("not", "all", "any")
#: nesting deeper than this is not walked (hostile input; the table rules report it)
MAX_DEPTH = 200


@value_object()
class Call(NamedTuple):
    """One primitive call in a predicate: ``path`` is that of the primitive's key
    (``base + ("all", 0, "named_in_output")``), ``args`` as written (any shape)."""

    name: str
    path: Path
    args: Any

    @property
    def arguments(self) -> Mapping[str, Any]:
        return self.args if isinstance(self.args, MAPPING) else {}


def predicate_calls(node: Any, path: Path = (), depth: int = 0) -> Iterator[Call]:
    """Every primitive call of a predicate, depth first. Malformed parts are skipped: the
    table rules report them."""
    if depth > MAX_DEPTH or not isinstance(node, MAPPING) or len(node) != 1:
        return
    ((key, value),) = node.items()
    if key == "not":
        yield from predicate_calls(value, path + ("not",), depth + 1)
    elif key in COMBINATORS:  # `all` / `any`
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from predicate_calls(item, path + (key, i), depth + 1)
    elif isinstance(key, str):
        yield Call(key, path + (key,), value)


def primitives_in(pred: Any, registered: Mapping[str, Any], depth: int = 0) -> Iterator[str]:
    """The registered primitive names a predicate uses (in order, with repeats), every key
    of a malformed mapping included: unlike :func:`predicate_calls` (which skips what is not
    a one-key mapping), so that SI409 names an untrusted primitive of a table that also
    fails to compile for another reason."""
    if depth > MAX_DEPTH or not isinstance(pred, MAPPING):
        return
    for key, value in pred.items():
        if key == "not":
            yield from primitives_in(value, registered, depth + 1)
        elif key in COMBINATORS and isinstance(value, list):
            for v in value:
                yield from primitives_in(v, registered, depth + 1)
        elif isinstance(key, str) and key in registered:
            yield key


def table_calls(table: Any, base: Path = ("table",)) -> Iterator[tuple[int, Call]]:
    if not isinstance(table, list):
        return
    for i, row in enumerate(table):
        if isinstance(row, MAPPING):
            for call in predicate_calls(row.get("when"), base + (i, "when")):
                yield i, call


def is_role_ref(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.startswith("$")


# the parameter-type table (roles of templates and parameters of primitives alike)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_str_list(value: Any) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


@dataclass(frozen=True)
class ParamType:
    """What a value of one role / parameter type must look like."""

    name: str
    #: "a list of identifiers" (used as "takes <noun>, not <type>")
    noun: str
    #: the value's shape is right (items are checked separately for lists)
    accepts: Callable[[Any], bool]
    help: str
    #: lists: what one item is ("identifier", "channel"); None for scalars
    item: str | None = None
    #: `minimum`/`maximum` apply
    ranged: bool = False


def _is(kind: type | tuple) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, kind)


PARAM_TYPES: dict[str, ParamType] = {
    t.name: t
    for t in (
        ParamType(
            "identifier_set",
            "a list of identifiers",
            _is(list),
            "write `[IDENTIFIER, ...]`",
            "identifier",
        ),
        ParamType(
            "channels", "a list of channels", _is(list), "write `[agent_response]`", "channel"
        ),
        ParamType(
            "factor",
            "a factor `{ref, required_identifiers}`",
            _is(MAPPING),
            "write `{ref: <deviation id>, required_identifiers: [...]}`",
        ),
        ParamType(
            "integer",
            "an integer",
            is_int,
            "write a whole number without a decimal point",
            ranged=True,
        ),
        ParamType("number", "a number", is_number, "write a number", ranged=True),
        ParamType("string", "a string", _is(str), "quote it"),
        ParamType("boolean", "a boolean", _is(bool), "write `true` or `false` (unquoted)"),
    )
}

#: the keys of a factor value (the deviation type is read from the deviation, never restated)
FACTOR_KEYS = ("ref", "required_identifiers")


def range_problem(value: Any, spec: Mapping[str, Any]) -> str | None:
    lo, hi = spec.get("minimum"), spec.get("maximum")
    if is_number(lo) and value < lo:
        return f"must be at least {lo}, is {value}"
    if is_number(hi) and value > hi:
        return f"must be at most {hi}, is {value}"
    return None


def params_of(primitive: Any) -> dict[str, Mapping[str, Any]]:
    """A registered primitive's parameters by name (the first of a repeated name wins)."""
    out: dict[str, Mapping[str, Any]] = {}
    for p in lookup(primitive, "params", list, []):
        if isinstance(p, MAPPING) and isinstance(p.get("name"), str):
            out.setdefault(p["name"], p)
    return out


def budget_roles(template: Any) -> set[str]:
    """Roles bound to ``within_step_budget.n`` in a template's table (plus ``step_budget``)."""
    out = {"step_budget"}
    for _, call in table_calls(lookup(template, "table")):
        n = call.arguments.get("n")
        if call.name == "within_step_budget" and is_role_ref(n):
            out.add(n[1:])
    return out


# evidence and fixtures (SPEC §4)

#: the key that names the scenario: transcript form, artifact form (oasisctl)
SCENARIO_KEYS = ("scenario", "scenario_id")


def evidence_scenario(doc: Any) -> tuple[Any, Path | None]:
    """The scenario id an evidence or fixture document names and that key's path. The
    evaluator's ``named_scenario`` reads the key of the document's form instead; the two
    differ only on a document holding the other form's key."""
    if isinstance(doc, MAPPING):
        for key in SCENARIO_KEYS:
            if key in doc:
                return doc[key], (key,)
    return None, None
