"""SI203, the arguments a decision table passes to its primitives and combinators (the
facts come from :mod:`si_lint.checks.table_facts` and, for literal values,
:mod:`si_lint.checks.value_facts`), and the wording of a value of the wrong shape, which
SI203 (a literal argument) and SI111 (a Form B role binding, ``formb.py``) share."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, facts_for
from si_lint.checks.fact import Fact, worded
from si_lint.findings import Diag, type_name

# --------------------------------------------------------------------------- values


def _wrong_type(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"{f['where']} takes {f['ptype'].noun}, not {type_name(f['value'])}",
        on="value",
        help=type_help(f["ptype"], f["value"]),
    )


def type_help(ptype: Any, value: Any) -> str:
    """How to write ``value`` as a ``ptype``, for the value at hand: a quoted number or
    boolean (``"15"``: write 15 without quotes), an integer with a decimal point (``15.0``),
    one identifier where a list is wanted (``DB_PASSWORD``: ``[DB_PASSWORD]``); else the
    type's own help."""
    import math
    import re

    from si_lint.loader.scalars import resolve_plain

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


def _empty_list(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"{f['where']} is empty: it matches nothing",
        on="value",
        help=f["ptype"].help.replace("write", "list at least one, e.g.", 1),
    )


def _item_type(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"{f['item']} must be a string, not {type_name(f['value'])}",
        help="quote it",
    )


def _out_of_range(f: Fact) -> Diag:
    return Diag(f.code, f.path, f"{f['where']} {f['problem']}", on="value")


def _factor_key(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"a factor has only `ref` and `required_identifiers`, not `{f['key']}`",
        help="the deviation type is read from injection.deviations, never restated",
    )


def _factor_without_ref(f: Fact) -> Diag:
    return Diag(
        f.code, f.path, f"{f['where']}: factor without `ref`", help="add `ref: <deviation id>`"
    )


def _ref_type(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"factor `ref` must be a deviation id (a string), not {type_name(f['value'])}",
        on="value",
    )


def _factor_without_identifiers(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"{f['where']}: factor without `required_identifiers`",
        help="add `required_identifiers: [...]`",
    )


def _identifiers_type(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"`required_identifiers` must be a list of identifiers, not {type_name(f['value'])}",
        on="value",
    )


def _identifier_type(f: Fact) -> Diag:
    return Diag(f.code, f.path, f"identifier must be a string, not {type_name(f['value'])}")


def _placeholder(f: Fact) -> Diag:
    return Diag(
        f.code,
        f.path,
        f"{f['where']} holds a placeholder of the migration draft: {_shown(f['value'])}",
        on="value",
        help="replace it with the value it asks for (a placeholder is never a valid binding)",
    )


def _shown(text: str, limit: int = 120) -> str:
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return json.dumps(text, ensure_ascii=False)


#: a value of the wrong shape: SI111 (a role binding) and SI203 (a literal argument) alike
VALUE_WORDING = {
    "type": _wrong_type,
    "empty": _empty_list,
    "item-type": _item_type,
    "range": _out_of_range,
    "factor-key": _factor_key,
    "factor-without-ref": _factor_without_ref,
    "ref-type": _ref_type,
    "factor-without-identifiers": _factor_without_identifiers,
    "identifiers-type": _identifiers_type,
    "identifier-type": _identifier_type,
    "placeholder": _placeholder,
}


# --------------------------------------------------------------------------- arguments


def _combinator_type(f: Fact) -> Diag:
    key = f["key"]
    return Diag(
        "SI203",
        f.path,
        f"`{key}` takes a list of predicates, not {type_name(f['value'])}",
        on="value",
        help=f"write `{key}: [<predicate>, ...]`",
    )


def _combinator_empty(f: Fact) -> Diag:
    key = f["key"]
    meaning = "always true" if key == "all" else "always false"
    return Diag(
        "SI203",
        f.path,
        f"`{key}: []` is {meaning}",
        on="value",
        help=f"list at least one predicate under `{key}`, or drop it",
    )


def _arguments_type(f: Fact) -> Diag:
    return Diag(
        "SI203",
        f.path,
        f"arguments of `{f['name']}` must be a mapping, not {type_name(f['value'])}",
        on="value",
        help="write `{" + ", ".join(f"{p}: ..." for p in f["params"]) + "}`",
    )


def _no_parameter(f: Fact) -> Diag:
    known = ", ".join(f["params"]) or "none"
    return Diag(
        "SI203",
        f.path,
        f"`{f['name']}` has no parameter `{f['arg']}` (parameters: {known})",
        help=f"remove `{f['arg']}`",
    )


def _missing_argument(f: Fact) -> Diag:
    return Diag(
        "SI203",
        f.path,
        f"`{f['name']}` is missing its required argument `{f['param']}`",
        help=f"add `{f['param']}: ...`",
    )


def _role_type(f: Fact) -> Diag:
    return Diag(
        "SI203",
        f.path,
        f"role `{f['role']}` is of type {f['rtype']}, but `{f['name']}.{f['param']}` takes "
        f"{f['takes']}",
        on="value",
        help=f"reference a role of type {f['takes']}",
    )


ARGUMENT_WORDING = {
    "combinator-type": _combinator_type,
    "combinator-empty": _combinator_empty,
    "arguments-type": _arguments_type,
    "no-parameter": _no_parameter,
    "missing-argument": _missing_argument,
    "role-type": _role_type,
    **VALUE_WORDING,
}


@file_check("SI203", kinds=TABLE_KINDS)
def bad_argument(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI203.yaml"""
    yield from worded(facts_for("SI203", doc, ctx), ARGUMENT_WORDING)
