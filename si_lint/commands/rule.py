"""`si-lint rule [CODE]`: the catalogue, or one rule with its examples."""

from __future__ import annotations

import json

import click


@click.command("rule")
@click.argument("code", required=False)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def command(code, fmt):
    """List the rules, or explain CODE with its rationale and examples."""
    from ..catalogue import rules
    from ..errors import UsageError

    catalogue = rules()
    if code is None:
        if fmt == "json":
            click.echo(json.dumps([r.doc_text for r in catalogue.values()], indent=2))
            return
        for r in catalogue.values():
            click.echo(f"{r.code:<7} {r.severity:<8} {r.name:<40} {r.summary}")
        return
    rule = catalogue.get(code.upper())
    if rule is None:
        raise UsageError(f"unknown rule {code!r}; `si-lint rule` lists them")
    if fmt == "json":
        click.echo(json.dumps({**rule.doc_text, "examples": rule.examples}, indent=2))
        return
    out = [f"{rule.code} ({rule.name}) [{rule.severity}]", "", rule.summary, ""]
    if rule.rationale:
        out += ["Why:", _indent(rule.rationale), ""]
    if rule.seed:
        out += [f"Enforces: {rule.seed}", ""]
    if rule.fix:
        out += ["Fix:", _indent(rule.fix), ""]
    for label in ("bad", "good"):
        ex = rule.examples.get(label)
        if not isinstance(ex, dict):
            continue
        out.append(f"Example ({label}):")
        for path, content in (ex.get("files") or {}).items():
            out.append(f"  # {path}")
            out.append(_indent(str(content).rstrip("\n"), 4))
        for f in ex.get("expect") or []:
            if isinstance(f, dict):
                out.append(
                    f"  -> {f.get('path')}:{f.get('line')}:{f.get('column')}: {f.get('code')}"
                )
        out.append("")
    click.echo("\n".join(out).rstrip() + "\n")


def _indent(text: str, n: int = 2) -> str:
    return "\n".join((" " * n + line) if line else "" for line in text.split("\n"))
