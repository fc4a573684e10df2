"""`--format text`: ``path:line:col: CODE [severity] message``, the source line with a
caret under the column, then ``help:`` and ``note:`` lines (SPEC §9). Colour is added
with click styles, which click strips when the output is not a terminal."""

from __future__ import annotations

from collections import Counter

import click

from . import summary_counts

_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}


def _source_lines(path: str, cache: dict) -> list[str] | None:
    if path not in cache:
        try:
            with open(path, "rb") as fh:
                cache[path] = fh.read(6 * 1024 * 1024).decode("utf-8", "replace").split("\n")
        except OSError:
            cache[path] = None
    return cache[path]


def format_finding(f, cache: dict, verbose: bool = False) -> list[str]:
    head = (
        click.style(f"{f.path}:{f.line}:{f.column}:", bold=True)
        + " "
        + click.style(f.code, fg=_COLOUR.get(f.severity), bold=True)
        + f" [{f.severity}] {f.message}"
    )
    out = [head]
    lines = _source_lines(f.path, cache)
    if lines is not None and 1 <= f.line <= len(lines):
        src = lines[f.line - 1].rstrip("\r")
        if len(src) <= 400:
            gutter = str(f.line)
            pad = " " * len(gutter)
            out.append(f" {gutter} | {src}")
            caret_pad = "".join("\t" if ch == "\t" else " " for ch in src[: max(f.column - 1, 0)])
            out.append(f" {pad} | {caret_pad}" + click.style("^", fg=_COLOUR.get(f.severity), bold=True))
    if f.help:
        out.append(click.style("  help:", fg="cyan", bold=True) + f" {f.help}")
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        out.append(click.style("  note:", bold=True) + f" {r.path}:{r.line}:{r.column}{msg}")
    if verbose and f.detail:
        out.extend("  | " + line for line in f.detail.rstrip().split("\n"))
    return out


def render(result, verbose: bool = False, statistics: bool = False, **_options) -> str:
    cache: dict = {}
    lines: list[str] = []
    if statistics:
        from ..catalogue import rules

        counts = Counter(f.code for f in result.findings)
        catalogue = rules()
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            name = catalogue[code].name if code in catalogue else ""
            lines.append(f"{n:5d}  {code:<7} {name}")
    else:
        for f in result.findings:
            lines.extend(format_finding(f, cache, verbose))
            lines.append("")
    counts = summary_counts(result.findings)
    total = len(result.findings)
    if total:
        parts = [f"{counts['errors']} error(s)", f"{counts['warnings']} warning(s)", f"{counts['infos']} info(s)"]
        lines.append(f"Found {total} finding(s) in {result.files} file(s): " + ", ".join(parts) + ".")
    else:
        lines.append(f"All checks passed ({result.files} file(s)).")
    if verbose and result.skipped:
        lines.append("Skipped (no recognised kind): " + ", ".join(result.skipped))
    return "\n".join(lines) + "\n"
