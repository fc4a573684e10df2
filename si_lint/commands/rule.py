"""`si-lint rule [CODE|PREFIX]`: the catalogue, the rules under a prefix, or one rule's page.

A page shows of each example only the files a finding names or the bad and good examples
write differently, trimmed to the lines around what the findings point at and what the
fix changes; the other files are named only. ``--full`` prints every file whole."""

from __future__ import annotations

import difflib
import json

import click

from ..catalogue import rules
from ..errors import UsageError
from . import options

#: lines shown either side of a line that matters
CONTEXT = 2
#: at most this many lines of one file on a short page
MAX_LINES = 30


@click.command("rule")
@click.argument("code", required=False)
@options.declare(
    ("--all all_", "List every rule (as with no CODE)."),
    ("--full", "Print every file of the examples whole (pages are trimmed)."),
    options.fmt("text", "json", help=None),
)
def command(code, all_, full, fmt):
    """List the rules, the rules under a code prefix (`SI1`), or explain CODE with its
    rationale and examples. CODE and prefixes are read in any case (`si115`)."""
    catalogue = rules()
    if code is not None and all_:
        raise UsageError("`rule --all` lists every rule: give CODE or --all, not both")
    wanted = (code or "").strip().upper()
    rule = catalogue.get(wanted)
    if rule is None:
        listed = [r for c, r in catalogue.items() if c.startswith(wanted)]
        if not listed:
            raise UsageError(f"unknown rule {code!r}; `si-lint rule` lists them")
        if fmt == "json":
            click.echo(json.dumps([r.doc_text for r in listed], indent=2))
        else:
            for r in listed:
                click.echo(f"{r.code:<7} {r.severity:<8} {r.name:<40} {r.summary}")
        return
    if fmt == "json":
        click.echo(json.dumps({**rule.doc_text, "examples": rule.examples}, indent=2))
        return
    click.echo(page(rule, full=full), nl=False)


def page(rule, *, full: bool = False) -> str:
    out = [f"{rule.code} ({rule.name}) [{rule.severity}]", "", rule.summary, ""]
    if rule.rationale:
        out += ["Why:", _indent(rule.rationale), ""]
    if rule.seed:
        out += [f"Enforces: {rule.seed}", ""]
    if rule.fix:
        out += ["Fix:", _indent(rule.fix), ""]
    examples = {k: v for k, v in rule.examples.items() if isinstance(v, dict)}
    for label, other in (("bad", "good"), ("good", "bad")):
        ex = examples.get(label)
        if ex is None:
            continue
        out.append(f"Example ({label}):")
        out += _example(rule.code, ex, examples.get(other) or {}, full)
        for f in ex.get("expect") or []:
            if isinstance(f, dict):
                out.append(
                    f"  -> {f.get('path')}:{f.get('line')}:{f.get('column')}: "
                    f"{f.get('code')} {f.get('message', '')}".rstrip()
                )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _example(code: str, ex: dict, other: dict, full: bool) -> list[str]:
    files = {str(p): str(c) for p, c in (ex.get("files") or {}).items()}
    if full:
        return [x for p, c in files.items() for x in (f"  # {p}", _indent(c.rstrip("\n"), 4))]
    out: list[str] = []
    marks = _marked_lines(ex, other, files)
    for path, content in files.items():
        if path in marks:
            out += [f"  # {path}", *_trimmed(code, content, marks[path])]
    context = [p for p in files if p not in marks]
    if context:
        out.append(f"  # also: {', '.join(context)} (the same in both examples; `--full`)")
    return out


def _marked_lines(ex: dict, other: dict, files: dict[str, str]) -> dict[str, set[int]]:
    """The files of an example that matter, each with its lines that matter (1-based):
    where a finding or a related location points, and what the other example writes
    differently (a file it does not have matters whole)."""
    marks: dict[str, set[int]] = {}
    for f in ex.get("expect") or []:
        if not isinstance(f, dict):
            continue
        for loc in [f, *(r for r in f.get("related") or [] if isinstance(r, dict))]:
            if loc.get("path") in files and isinstance(loc.get("line"), int):
                marks.setdefault(loc["path"], set()).add(loc["line"])
    if not isinstance(other.get("files"), dict):  # nothing to compare with: all matter
        for path, content in files.items():
            marks.setdefault(path, set(range(1, len(content.splitlines()) + 1)))
        return marks
    theirs = other["files"]
    for path, content in files.items():
        if path not in theirs:
            marks.setdefault(path, set()).update(range(1, len(content.splitlines()) + 1))
            continue
        if str(theirs[path]) == content:
            continue
        mine, their = content.splitlines(), str(theirs[path]).splitlines()
        changed = marks.setdefault(path, set())
        matcher = difflib.SequenceMatcher(a=mine, b=their, autojunk=False)
        for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
            if tag != "equal":  # a deletion here marks the line it was next to
                changed.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return marks


def _trimmed(code: str, content: str, marked: set[int]) -> list[str]:
    """The lines of ``content`` near the ``marked`` ones, numbered, at most
    :data:`MAX_LINES` of them; an elided stretch is one ``…`` line."""
    lines = content.rstrip("\n").split("\n")
    keep = sorted(
        {n for m in marked for n in range(m - CONTEXT, m + CONTEXT + 1) if 1 <= n <= len(lines)}
    )
    if len(lines) <= MAX_LINES:
        keep = list(range(1, len(lines) + 1))
    shown, out, last = keep[:MAX_LINES], [], 0
    width = len(str(shown[-1])) if shown else 1
    for n in shown:
        if n > last + 1:
            out.append(f"    {'…':>{width}} |")
        out.append(f"    {n:>{width}} | {lines[n - 1]}".rstrip())
        last = n
    rest = len(keep) - len(shown)
    if not rest and last < len(lines):
        out.append(f"    {'…':>{width}} |")
    if rest:
        out.append(f"    … {rest} more line(s) (`si-lint rule {code} --full`)")
    return out


def _indent(text: str, n: int = 2) -> str:
    return "\n".join((" " * n + line) if line else "" for line in text.split("\n"))
