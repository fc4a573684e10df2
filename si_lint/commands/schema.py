"""`si-lint schema KIND`: print the JSON Schema (draft 2020-12) of a document kind, of the
configuration, or of the JSON report (`report`)."""

from __future__ import annotations

import json

import click

from ..errors import UsageError
from ..schemas import KINDS, OUTPUT_KINDS, load_schema
from . import options


@click.command("schema")
@click.argument("kind", required=False)
@options.declare(("--list list_kinds", "List the kinds that have a schema."))
def command(kind, list_kinds):
    """Print the JSON Schema of KIND (indent 2), e.g. for an editor's YAML language server.

    KIND is a document kind (scenario, fixture, evidence, eio-module, eio-input, registry,
    template), `config` (the `[tool.si-lint]` table / `si-lint.toml`) or `report` (what
    `si-lint check --format json` prints).
    """
    kinds = KINDS + OUTPUT_KINDS
    if list_kinds:
        for k in kinds:
            click.echo(f"{k:<11} {load_schema(k).get('title', '')}")
        return
    if kind is None or kind.lower() not in kinds:
        what = "a KIND is required" if kind is None else f"unknown kind {kind!r}"
        raise UsageError(f"schema: {what}; kinds: {', '.join(kinds)}")
    click.echo(json.dumps(load_schema(kind.lower()), indent=2, ensure_ascii=False))
