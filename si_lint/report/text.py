"""`--format text`: ``path:line:col: CODE [severity] message``, the source line with a
caret under the column, then ``help:`` (marked ``[*]`` when ``--fix`` can apply the fix) and
``note:`` lines (SPEC §9). Styles are ANSI styles (:mod:`.ansi`, as click writes them); the caller decides whether they reach
the stream (``--color``, ``NO_COLOR``/``FORCE_COLOR``, a terminal). Control characters of
the source and the messages (ESC, NUL, ...) are shown escaped, never sent to a terminal
(:mod:`.controls`). Written finding by finding (:func:`write`)."""

from __future__ import annotations

from collections import Counter

from ..source import SourceCache
from . import summary_counts
from .ansi import style
from .controls import printable

_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}

escape_controls = printable  # the name the rest of this module uses


def format_finding(
    f, cache: SourceCache, verbose: bool = False, fixable: bool = False
) -> list[str]:
    head = (
        style(f"{escape_controls(f.path)}:{f.line}:{f.column}:", bold=True)
        + " "
        + style(escape_controls(f.code), fg=_COLOUR.get(f.severity), bold=True)
        + f" [{escape_controls(f.severity)}] {escape_controls(f.message)}"
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


def write(
    result,
    out,
    verbose: bool = False,
    statistics: bool = False,
    quiet: bool = False,
    unsafe_fixes: bool = False,
    **_options,
) -> None:
    if result.findings:  # a clean run does not load the fixer
        from ..fix import fixable

    if statistics:
        _statistics(result.findings, out)
    else:
        cache = SourceCache(follow_symlinks=False)  # a link is never printed
        for f in result.findings:
            out.write("\n".join(format_finding(f, cache, verbose, fixable(f, unsafe_fixes))))
            out.write("\n\n")
    if quiet:
        return
    for line in _summary(result, unsafe_fixes):
        out.write(line + "\n")
    if verbose and result.skipped:
        out.write(
            "Skipped (no recognised kind): "
            + ", ".join(escape_controls(s) for s in result.skipped)
            + "\n"
        )


def _statistics(findings, out) -> None:
    from ..catalogue import rules

    counts = Counter(f.code for f in findings)
    catalogue = rules()
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        name = catalogue[code].name if code in catalogue else ""
        out.write(f"{n:5d}  {escape_controls(code):<7} {name}\n")


def _summary(result, unsafe_fixes: bool) -> list[str]:
    """The closing lines: the counts and what ``--fix`` can do, or "All checks passed"."""
    total = len(result.findings)
    if not total:
        return [passed_line(result) + "."]
    from ..fix import fixable, is_safe

    counts = summary_counts(result.findings)
    parts = [
        f"{counts['errors']} error(s)",
        f"{counts['warnings']} warning(s)",
        f"{counts['infos']} info(s)",
    ]
    lines = [
        f"Found {total} finding(s) in {result.files} file(s){skipped_part(result)}: "
        + ", ".join(parts)
        + "."
    ]
    safe = hidden = 0
    for f in result.findings:
        safe += fixable(f, unsafe_fixes)
        hidden += not unsafe_fixes and fixable(f, True) and not is_safe(f)
    flag = "--fix --unsafe-fixes" if unsafe_fixes else "--fix"
    if safe and hidden:
        lines.append(f"[*] {safe} fixable with {flag} ({hidden} more with --fix --unsafe-fixes).")
    elif safe:
        lines.append(f"[*] {safe} fixable with {flag}.")
    elif hidden:
        lines.append(f"{hidden} fix(es) available with --fix --unsafe-fixes.")
    return lines


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
