"""`--format text`: ``path:line:col: CODE [severity] message``, the source line with a
caret under the column, then ``help:`` and ``note:`` lines (SPEC §9). Colour is added
with click styles, which click strips when the output is not a terminal."""

from __future__ import annotations

import re
from collections import Counter

import click

from . import summary_counts

_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}


#: control characters (C0 but tab, DEL, C1) and the bidirectional overrides: a source line,
#: a message or a path that holds them is printed with them escaped (SPEC §9: never sent
#: raw to the terminal — an ESC or OSC sequence in a scenario could rewrite the screen)
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with its control characters shown as escapes (``\\x1b``, ``\\u202e``)."""
    if text.isprintable() or _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _source_lines(path: str, cache: dict) -> list[str] | None:
    """The lines of a finding's file: only a regular file is read, and a symbolic link is
    not followed (a link that leaves the corpus is never read, so never printed)."""
    if path not in cache:
        from ..fsutil import read_regular

        raw, _why = read_regular(path, 6 * 1024 * 1024, follow=False)
        cache[path] = raw.decode("utf-8", "replace").split("\n") if raw is not None else None
    return cache[path]


def format_finding(f, cache: dict, verbose: bool = False) -> list[str]:
    head = (
        click.style(printable(f"{f.path}:{f.line}:{f.column}:"), bold=True)
        + " "
        + click.style(f.code, fg=_COLOUR.get(f.severity), bold=True)
        + f" [{f.severity}] {printable(f.message)}"
    )
    out = [head]
    lines = _source_lines(f.path, cache)
    if lines is not None and 1 <= f.line <= len(lines):
        src = lines[f.line - 1].rstrip("\r")
        if len(src) <= 400:
            gutter = str(f.line)
            pad = " " * len(gutter)
            out.append(f" {gutter} | {printable(src)}")
            before = printable(src[: max(f.column - 1, 0)])  # escapes widen the line
            caret_pad = "".join("\t" if ch == "\t" else " " for ch in before)
            out.append(f" {pad} | {caret_pad}" + click.style("^", fg=_COLOUR.get(f.severity), bold=True))
    if f.help:
        out.append(click.style("  help:", fg="cyan", bold=True) + f" {printable(f.help)}")
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        out.append(click.style("  note:", bold=True) + printable(f" {r.path}:{r.line}:{r.column}{msg}"))
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
