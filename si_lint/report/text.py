"""`--format text`: ``path:line:col: CODE [severity] message``, the source line with a
caret under the column, then ``help:`` (marked ``[*]`` when ``--fix`` can apply the fix) and
``note:`` lines (SPEC §9). Styles are ANSI styles (:mod:`.ansi`, as click writes them); the caller decides whether they reach
the stream (``--color``, ``NO_COLOR``/``FORCE_COLOR``, a terminal). Control characters of
the source and the messages (ESC, NUL, ...) are shown escaped, never sent to a terminal."""

from __future__ import annotations

import re
from collections import Counter

from ..source import SourceCache
from . import summary_counts
from .ansi import style

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


escape_controls = printable  # the name the rest of this module uses


def format_finding(
    f, cache: SourceCache, verbose: bool = False, fixable: bool = False
) -> list[str]:
    head = (
        style(f"{escape_controls(f.path)}:{f.line}:{f.column}:", bold=True)
        + " "
        + style(f.code, fg=_COLOUR.get(f.severity), bold=True)
        + f" [{f.severity}] {escape_controls(f.message)}"
    )
    out = [head]
    raw = cache.line(f.path, f.line)
    if raw is not None and len(raw) <= 400:
        gutter = str(f.line)
        pad = " " * len(gutter)
        out.append(f" {gutter} | {escape_controls(raw)}")
        before = escape_controls(raw[: max(f.column - 1, 0)])
        caret_pad = "".join("\t" if ch == "\t" else " " for ch in before)
        out.append(f" {pad} | {caret_pad}" + style("^", fg=_COLOUR.get(f.severity), bold=True))
    if f.help:
        mark = " [*]" if fixable else ""
        out.append(style("  help:", fg="cyan", bold=True) + f"{mark} {escape_controls(f.help)}")
    for r in f.related:
        msg = f": {escape_controls(r.message)}" if r.message else ""
        out.append(
            style("  note:", bold=True) + f" {escape_controls(r.path)}:{r.line}:{r.column}{msg}"
        )
    if verbose and f.detail:
        out.extend("  | " + escape_controls(line) for line in f.detail.rstrip().split("\n"))
    return out


def render(
    result,
    verbose: bool = False,
    statistics: bool = False,
    quiet: bool = False,
    unsafe_fixes: bool = False,
    **_options,
) -> str:
    if result.findings:  # a clean run does not load the fixer
        from ..fix import fixable, is_safe

    cache = SourceCache(follow_symlinks=False)  # a link is never printed
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
            lines.extend(format_finding(f, cache, verbose, fixable(f, unsafe_fixes)))
            lines.append("")
    if quiet:
        return "\n".join(lines) + "\n" if lines else ""
    counts = summary_counts(result.findings)
    total = len(result.findings)
    if total:
        parts = [
            f"{counts['errors']} error(s)",
            f"{counts['warnings']} warning(s)",
            f"{counts['infos']} info(s)",
        ]
        lines.append(
            f"Found {total} finding(s) in {result.files} file(s){skipped_part(result)}: "
            + ", ".join(parts)
            + "."
        )
        safe = sum(1 for f in result.findings if fixable(f, unsafe_fixes))
        hidden = (
            0
            if unsafe_fixes
            else sum(1 for f in result.findings if fixable(f, True) and not is_safe(f))
        )
        flag = "--fix --unsafe-fixes" if unsafe_fixes else "--fix"
        if safe and hidden:
            lines.append(
                f"[*] {safe} fixable with {flag} ({hidden} more with --fix --unsafe-fixes)."
            )
        elif safe:
            lines.append(f"[*] {safe} fixable with {flag}.")
        elif hidden:
            lines.append(f"{hidden} fix(es) available with --fix --unsafe-fixes.")
    else:
        lines.append(passed_line(result) + ".")
    if verbose and result.skipped:
        lines.append("Skipped (no recognised kind): " + ", ".join(result.skipped))
    return "\n".join(lines) + "\n"


def skipped_part(result) -> str:
    """`` (N named path(s) skipped)`` when some named path was not checked (SPEC §9)."""
    n = len(getattr(result, "skipped_paths", ()))
    return f" ({n} named path(s) skipped)" if n else ""


def passed_line(result) -> str:
    """The summary of a run without findings (SPEC §9: when nothing named was checked,
    it says so instead of "All checks passed")."""
    n = len(getattr(result, "skipped_paths", ()))
    if not n:
        return f"All checks passed ({result.files} file(s))"
    if not result.files:
        return (
            f"No file checked: {n} named path(s) skipped "
            "(not corpus files or excluded; --verbose says why)"
        )
    return f"All checks passed ({result.files} file(s) checked, {n} named path(s) skipped)"
