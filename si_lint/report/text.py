"""`--format text` (SPEC §9): each finding with its source line, a caret, ``help:`` and
``note:`` lines, then the counts. Styled with ANSI styles; the caller decides whether they
reach the stream. Control characters are shown escaped (:mod:`.controls`)."""

from __future__ import annotations

from collections import Counter

from click import style

from ..catalogue import rules
from ..fix.files import fixable, is_safe
from ..source import SourceCache
from .controls import printable

_COLOUR = {"error": "red", "warning": "yellow", "info": "blue"}


def format_finding(f, cache: SourceCache, verbose: bool, fixable: bool) -> list[str]:
    colour = _COLOUR.get(f.severity)
    out = [
        style(f"{printable(f.path)}:{f.line}:{f.column}:", bold=True)
        + " "
        + style(printable(f.code), fg=colour, bold=True)
        + f" [{printable(f.severity)}] {printable(f.message)}"
    ]
    raw = cache.line(f.path, f.line)
    if raw is not None and len(raw) <= 400:
        gutter = str(f.line)
        out.append(f" {gutter} | {printable(raw)}")
        before = printable(raw[: max(f.column - 1, 0)])
        caret_pad = "".join("\t" if ch == "\t" else " " for ch in before)
        out.append(f" {' ' * len(gutter)} | {caret_pad}" + style("^", fg=colour, bold=True))
    if f.help:
        mark = " [*]" if fixable else ""
        out.append(style("  help:", fg="cyan", bold=True) + f"{mark} {printable(f.help)}")
    for r in f.related:
        msg = f": {printable(r.message)}" if r.message else ""
        out.append(style("  note:", bold=True) + f" {printable(r.path)}:{r.line}:{r.column}{msg}")
    if verbose and f.detail:
        out.extend("  | " + printable(line) for line in f.detail.rstrip().split("\n"))
    return out


def code_counts(findings) -> list[tuple[str, int, str | None]]:
    """``--statistics``: (code, count, the rule's name) per code, the most frequent first."""
    catalogue = rules()
    counts = Counter(f.code for f in findings)
    return [
        (code, n, catalogue[code].name if code in catalogue else None)
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def write(
    result,
    out,
    verbose: bool = False,
    statistics: bool = False,
    quiet: bool = False,
    unsafe_fixes: bool = False,
    **_options,
) -> None:
    if statistics:
        for code, n, name in code_counts(result.findings):
            out.write(f"{n:5d}  {printable(code):<7} {name or ''}\n")
    else:
        cache = SourceCache()  # follows no link: a link is never printed
        for f in result.findings:
            out.write("\n".join(format_finding(f, cache, verbose, fixable(f, unsafe_fixes))))
            out.write("\n\n")
    if quiet:
        return
    out.write(f"Found {found_line(result)}.\n" if result.findings else passed_line(result) + ".\n")
    safe = sum(fixable(f, unsafe_fixes) for f in result.findings)
    hidden = sum(not unsafe_fixes and fixable(f, True) and not is_safe(f) for f in result.findings)
    flag = "--fix --unsafe-fixes" if unsafe_fixes else "--fix"
    if safe and hidden:
        out.write(f"[*] {safe} fixable with {flag} ({hidden} more with --fix --unsafe-fixes).\n")
    elif safe:
        out.write(f"[*] {safe} fixable with {flag}.\n")
    elif hidden:
        out.write(f"{hidden} fix(es) available with --fix --unsafe-fixes.\n")
    if verbose and result.skipped:
        skipped = ", ".join(printable(s) for s in result.skipped)
        out.write(f"Skipped (no recognised kind): {skipped}\n")


def found_line(result) -> str:
    n = len(getattr(result, "skipped_paths", ()))
    skipped = f" ({n} named path(s) skipped)" if n else ""
    c = summary_counts(result.findings)
    return (
        f"{len(result.findings)} finding(s) in {result.files} file(s){skipped}: "
        f"{c['errors']} error(s), {c['warnings']} warning(s), {c['infos']} info(s)"
    )


def passed_line(result) -> str:
    n = len(getattr(result, "skipped_paths", ()))
    if not n:
        return f"All checks passed ({result.files} file(s))"
    if not result.files:
        return (
            f"No file checked: {n} named path(s) skipped "
            "(not corpus files or excluded; --verbose says why)"
        )
    return f"All checks passed ({result.files} file(s) checked, {n} named path(s) skipped)"


def summary_counts(findings) -> dict[str, int]:
    counts = {"errors": 0, "warnings": 0, "infos": 0}
    for f in findings:
        counts[{"error": "errors", "warning": "warnings"}.get(f.severity, "infos")] += 1
    return counts


def headline(f) -> str:
    """A finding on one line (escape it for the format)."""
    return f"{f.path}:{f.line}:{f.column}: {f.code} [{f.severity}] {f.message}"


def notes(f) -> list[str]:
    """A finding's ``help:`` line and a ``note:`` line per related location."""
    lines = [f"help: {f.help}"] if f.help else []
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        lines.append(f"note: {r.path}:{r.line}:{r.column}{msg}")
    return lines
