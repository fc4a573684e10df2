"""The JSON Schemas (draft 2020-12, ``schemas/<kind>.schema.json``) of si-lint's document
kinds, and human-readable errors. :func:`validate` turns jsonschema's errors into one
``(path, message, on)`` per failing node, in the conventions of Diag (SPEC §8 locations):

- a missing required key  -> the mapping that lacks it, ``on="key"`` (all its missing keys
  in one message);
- an unexpected key       -> that key, ``on="key"``;
- a wrong value            -> the value, ``on="value"``;
- a ``oneOf``/``anyOf`` failure -> the errors of the best-matching branch only (the branch
  whose ``type`` fits the value and that got deepest), or one "must be A or B" error when
  no branch's type fits.

The schemas check structure only; whatever a specific rule reports is allowed by them (see
each schema's ``description``), so one node never gets both SI003 and a specific code.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported when a document is first validated
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from .findings import format_path, type_name
from .fsutil import data_dir

#: every kind that has a schema: the SPEC §1 document kinds, then the configuration table
KINDS = tuple("scenario fixture evidence eio-module eio-input registry template config".split())

#: the schemas of si-lint's own output: ``report`` is ``check --format json``'s
OUTPUT_KINDS: tuple[str, ...] = ("report",)

DocPath = tuple[str | int, ...]
SchemaError = tuple[DocPath, str, str]  # (path, message, on)


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """(cached: do not mutate)"""
    if kind not in KINDS and kind not in OUTPUT_KINDS:
        raise KeyError(kind)
    return json.loads((data_dir("schemas") / f"{kind}.schema.json").read_text(encoding="utf-8"))


@cache
def validator(kind: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # (heavy: only for a document the gate rejects)

    return Draft202012Validator(load_schema(kind))


@cache
def fast_validator(kind: str) -> Any:
    """jsonschema-rs's validator, or None when it refuses the schema."""
    import jsonschema_rs  # (9 ms: only once a document or configuration is validated)

    try:
        return jsonschema_rs.Draft202012Validator(load_schema(kind))
    except Exception:
        return None


def validate(kind: str, data: Any) -> list[SchemaError]:
    """One ``(path, message, on)`` per failing node, sorted by path, ``on``, message.

    jsonschema-rs is the gate: only its *valid* answer is trusted, and jsonschema writes the
    messages for the documents it rejects. jsonschema-rs is the stricter (its regex ``$``
    does not match before a final newline); a value it cannot take (an integer beyond 64
    bits, a lone surrogate) goes to jsonschema.
    """
    fast = fast_validator(kind)
    with contextlib.suppress(Exception):
        if fast is not None and fast.is_valid(data):
            return []
    found: dict[tuple[DocPath, str], tuple[int, str]] = {}
    missing: dict[DocPath, list[str]] = {}
    for top in validator(kind).iter_errors(data):
        for err in _leaves(top):
            for path, rank, message, on in _describe(err):
                if rank < 0:  # a missing key: merged per mapping below
                    missing.setdefault(path, []).append(message)
                    continue
                key = (path, on)
                if key not in found or (rank, message) < found[key]:
                    found[key] = (rank, message)
    for path, names in missing.items():
        names = sorted(set(names))
        listed = _join([f"`{n}`" for n in names], "and")
        what = "key" if len(names) == 1 else "keys"
        found[(path, "key")] = (0, f"{_where(path)} is missing the required {what} {listed}")
    out = [(path, message, on) for (path, on), (_rank, message) in found.items()]
    # an index sorts before a key
    out.sort(key=lambda i: ([(type(p) is str, p) for p in i[0]], i[2], i[1]))
    return out


# -- oneOf / anyOf: pick the best branch ------------------------------------------------


def _leaves(err: ValidationError) -> list[ValidationError]:
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return [err]
    branches: dict[str | int, list[ValidationError]] = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    depth = len(err.absolute_path)
    fitting = [
        (index, errs)
        for index, errs in sorted(branches.items())
        # a branch whose `type` rejects the value itself is not the one the author meant
        if not any(e.validator == "type" and len(e.absolute_path) == depth for e in errs)
    ]
    if not fitting:
        return [err]
    # the branch that got deepest into the value, then the one with fewest errors, then the first
    _index, errs = min(
        fitting, key=lambda b: (-max(len(e.absolute_path) for e in b[1]), len(b[1]), b[0])
    )
    return [leaf for sub in errs for leaf in _leaves(sub)]


# -- messages ----------------------------------------------------------------------------

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "a boolean (true or false)",
    "null": "null",
}


def _describe(err: ValidationError) -> Iterable[tuple[DocPath, int, str, str]]:
    """(path, rank, message, on) for one leaf error; rank < 0 marks a missing key (message = name)."""
    path: DocPath = tuple(err.absolute_path)
    value = err.instance
    if err.validator == "required":
        required: Any = err.validator_value  # (jsonschema sets it on every error it yields)
        if isinstance(value, dict):
            for name in required:
                if name not in value:
                    yield path, -1, name, "key"
    elif err.validator == "additionalProperties" and isinstance(value, dict):
        yield from _unexpected_keys(err, path, value)
    else:
        rank, message = _value_problem(err, path)
        yield path, rank, message, "value"


def _unexpected_keys(
    err: ValidationError, path: DocPath, value: dict
) -> Iterable[tuple[DocPath, int, str, str]]:
    schema = err.schema if isinstance(err.schema, dict) else {}
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    allowed = _join([f"`{k}`" for k in known], "and") if known else None
    for name in value:
        if name in known or any(re.search(p, name) for p in patterns):
            continue
        hint = f"; allowed keys: {allowed}" if allowed else ""
        yield path + (name,), 1, f"unexpected key `{name}` in {_where(path)}{hint}", "key"


_BOUNDS = dict(
    minimum="at least",
    maximum="at most",
    exclusiveMinimum="greater than",
    exclusiveMaximum="less than",
)


def _value_problem(err: ValidationError, path: DocPath) -> tuple[int, str]:
    kw, value, where = err.validator, err.instance, _where(path)
    # the keyword's value in the schema: set on every error a validator yields (the stubs
    # also allow jsonschema's Unset, which only an error made by hand holds)
    schema_value: Any = err.validator_value
    if kw == "type":
        expected = schema_value if isinstance(schema_value, list) else [schema_value]
        wanted = _join([_TYPE_NAMES.get(t, str(t)) for t in expected], "or")
        return 0, f"{where} must be {wanted}, not {_show(value)}"
    if kw in ("oneOf", "anyOf"):
        options = [
            b.get("title") or _branch_summary(b) for b in schema_value if isinstance(b, dict)
        ]
        if kw == "oneOf" and not err.context:  # valid under several branches
            return 2, f"{where} matches more than one of: {_join(options, 'or')}"
        return 2, f"{where} must be {_join(options, 'or')}, not {_show(value)}"
    if kw in ("enum", "const"):
        options = schema_value if kw == "enum" else [schema_value]
        listed = _join([f"`{o if isinstance(o, str) else json.dumps(o)}`" for o in options], "or")
        return 2, f"{where} must be {listed}, not {_show(value)}"
    if kw in _BOUNDS:
        return 2, f"{where} must be {_BOUNDS[kw]} {schema_value}, not {_show(value)}"
    if kw == "minLength" and schema_value == 1:
        return 2, f"{where} must not be empty"
    if kw == "pattern":
        what = err.schema.get("title") if isinstance(err.schema, dict) else None
        what = f" ({what})" if what else ""
        return 2, f"{where} must match `{schema_value}`{what}, not {_show(value)}"
    return 3, f"{where}: {err.message}"


def _branch_summary(branch: dict[str, Any]) -> str:
    t = branch.get("type")
    return _TYPE_NAMES.get(t, t) if isinstance(t, str) else "a value of another shape"


def _where(path: DocPath) -> str:
    return f"`{format_path(path)}`" if path else "the document"


def _show(value: Any) -> str:
    kind = type_name(value)
    if isinstance(value, (dict, list)) or value is None:
        return kind
    text = json.dumps(value, ensure_ascii=False)
    return kind if len(text) > 40 else f"{kind} {text}"


def _join(items: list[str], word: str) -> str:
    return ", ".join(items[:-1]) + f" {word} " + items[-1] if len(items) > 1 else "".join(items)
