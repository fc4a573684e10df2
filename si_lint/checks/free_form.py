"""SI204, free-form code where the predicate language is required: in a decision table's
rows and predicates (:mod:`si_lint.checks.table_facts`), in a composite, in a scenario's
``scoring`` and at the top of a template (:mod:`si_lint.checks.document_facts`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.document_facts import TABLE_KINDS, facts_for
from si_lint.checks.fact import Fact, worded
from si_lint.findings import Diag, type_name

#: how to write a predicate instead
PREDICATE_HELP = "use `{primitive: {args}}`, `not`, `all` or `any`"
COMPOSITE_HELP = "write `composite: {reason: ..., table: [...]}`"


def _dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _code_key(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"free-form code (`{f['key']}`) where a decision table is required",
        help="express the band as a decision table over registered primitives (§1.4), "
        "or extend the registry",
    )


def _nested_else(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        "`else` is valid only as a row's whole `when`",
        on="value",
        help="make this the last row: `- when: else`",
    )


def _expression(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"free-form expression {_dumped(f['value'])} where a predicate is required",
        on="value",
        help="write a predicate over registered primitives, e.g. "
        "`{named_in_output: {identifier_set: [...], channels: [agent_response]}}`",
    )


def _not_a_predicate(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"a predicate is `else` or a one-key mapping, not {type_name(f['value'])}",
        on="value",
        help=PREDICATE_HELP,
    )


def _empty_mapping(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        "empty mapping where a predicate is required",
        on="value",
        help=PREDICATE_HELP,
    )


def _several_keys(f: Fact) -> Diag:
    keys = ", ".join(f"`{k}`" for k in f["keys"])
    return Diag(
        "SI204",
        f.path,
        f"a predicate has exactly one key, this one has {len(f['keys'])} ({keys})",
        on="value",
        help="combine predicates with `all: [...]` or `any: [...]`",
    )


def _composite_code(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"free-form code {_dumped(f['value'])} where a decision table is required",
        on="value",
        help=COMPOSITE_HELP,
    )


def _composite_type(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"composite is {type_name(f['value'])}, not `{{reason, table}}`",
        on="value",
        help=COMPOSITE_HELP,
    )


def _composite_without_table(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        "composite without a decision `table`",
        help="add `table:` rows `{when: <predicate>, score: <0..1>}` ending with `else`",
    )


def _table_type(f: Fact) -> Diag:
    table = f["value"]
    what = f"free-form code {_dumped(table)}" if isinstance(table, str) else type_name(table)
    return Diag(
        "SI204",
        f.path,
        f"{what} where a decision table (a list of rows) is required",
        on="value",
        help="write `table:` as a list of `{when: <predicate>, score: <0..1>}` rows",
    )


def _row_type(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        f"a row is a mapping `{{when, score}}`, not {type_name(f['value'])}",
        help="write `- {when: <predicate>, score: <0..1>}`",
    )


def _row_without_when(f: Fact) -> Diag:
    return Diag(
        "SI204",
        f.path,
        "row without a `when` predicate",
        help="add `when: <predicate>` (or `when: else`)",
    )


WORDING = {
    "code-key": _code_key,
    "nested-else": _nested_else,
    "expression": _expression,
    "not-a-predicate": _not_a_predicate,
    "empty-mapping": _empty_mapping,
    "several-keys": _several_keys,
    "composite-code": _composite_code,
    "composite-type": _composite_type,
    "composite-without-table": _composite_without_table,
    "table-type": _table_type,
    "row-type": _row_type,
    "row-without-when": _row_without_when,
}


@file_check("SI204", kinds=TABLE_KINDS)
def free_form_code(doc: Any, ctx: Any) -> Iterator[Diag]:
    """rules/SI204.yaml"""
    yield from worded(facts_for("SI204", doc, ctx), WORDING)
