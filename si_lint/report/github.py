"""`--format github`: GitHub Actions workflow commands (SPEC §9), chosen automatically
under ``GITHUB_ACTIONS=true``.

One ``::error|warning|notice file=...,line=...,col=...,endLine=...,endColumn=...,title=CODE::message``
per finding (info → ``notice``). Escaping follows GitHub's runner (``toolkit/core``
``escapeData``/``escapeProperty``): in the message ``%``, ``\\r`` and ``\\n`` become ``%25``,
``%0D`` and ``%0A``; in properties ``:`` and ``,`` also become ``%3A`` and ``%2C``. Every
other control character (ESC, BEL, the rest of C0 and C1, DEL, tab) and the bidi controls
are shown as escapes (``\\x1b``; :mod:`.controls`): the runner prints annotations to the
job log, and a file name holding ``ESC ] 8 ;;`` ... ``BEL`` must not become a link or a
terminal command there.

GitHub shows at most 10 annotations of each level per step (:data:`ANNOTATION_CAP`), so
the order matters (:func:`ordered`): errors, then warnings, then notices; within a level
the rarest code of the run first (one real defect is not hidden behind 25 findings of one
code), then code, path and line. After the annotations of a level that went over the cap,
a ``::notice`` says how many more there are (a plain line after the notices). When
``$GITHUB_STEP_SUMMARY`` is set, a bounded Markdown summary (counts by code, the first
findings with links) is appended to it (:mod:`.github_summary`).
"""

from __future__ import annotations

import re

from ..source import SourceCache, token_end
from . import summary_counts
from .controls import printable
from .text import passed_line, skipped_part

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
#: what the runner cannot carry raw, but for ``\r`` and ``\n`` (``%0D``, ``%0A``)
_CONTROL = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escape_data(text: str) -> str:
    text = printable(text, _CONTROL)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f, cache: SourceCache | None = None) -> str:
    cache = cache or SourceCache()
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        end_line, end_col = f.line, token_end(cache.line(f.path, f.line), f.column)
    props = [
        ("file", f.path),
        ("line", str(f.line)),
        ("col", str(f.column)),
        ("endLine", str(end_line)),
        ("endColumn", str(end_col)),
        ("title", f.code),
    ]
    body = [f.message]
    if f.help:
        body.append(f"help: {f.help}")
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        body.append(f"note: {r.path}:{r.line}:{r.column}{msg}")
    head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{_COMMAND.get(f.severity, 'error')} {head}::{escape_data(chr(10).join(body))}"


#: GitHub shows at most this many annotations of each level (error, warning, notice) per
#: step; the rest are in the log only
ANNOTATION_CAP = 10
_LEVELS = ("error", "warning", "info")
_NAMES = {"error": "errors", "warning": "warnings", "info": "infos"}


def ordered(findings) -> list:
    """The findings in the order their annotations are printed: by severity (errors,
    warnings, infos), then by how rare their code is in the run (rarest first: one real
    defect is not hidden behind 25 findings of one code), then code, path, line, column."""
    from collections import Counter

    from ..findings import SEVERITY_RANK

    counts = Counter(f.code for f in findings)
    return sorted(
        findings,
        key=lambda f: (SEVERITY_RANK.get(f.severity, 0), counts[f.code], f.code, *f.sort_key()),
    )


def more_line(level: str, n: int, summary: bool) -> str:
    """What follows the annotations of ``level`` when more than :data:`ANNOTATION_CAP` were
    printed: a notice (a plain line after the infos, whose notices are capped too)."""
    where = "the job summary or the SARIF upload" if summary else "the SARIF upload"
    text = (
        f"{n - ANNOTATION_CAP} more {_NAMES[level]} not shown as annotations (GitHub shows "
        f"{ANNOTATION_CAP} per step); see {where}"
    )
    if level == "info":
        return f"si-lint: {text}"
    return f"::notice title=si-lint::{escape_data(text)}"


def write(result, out, step_summary: str | None = None, **_options) -> None:
    """The annotations (:func:`ordered`), a line after each level that went over GitHub's
    cap, the run's summary line; and the Markdown summary appended to ``step_summary``
    (default: ``$GITHUB_STEP_SUMMARY``, when set)."""
    import os

    if step_summary is None:
        step_summary = os.environ.get("GITHUB_STEP_SUMMARY") or None
    cache = SourceCache()
    findings = ordered(result.findings)
    counts = summary_counts(findings)
    for i, f in enumerate(findings):
        out.write(annotation(f, cache) + "\n")
        last = i + 1 == len(findings) or findings[i + 1].severity != f.severity
        n = counts[_NAMES.get(f.severity, "errors")]
        if last and n > ANNOTATION_CAP:
            out.write(more_line(f.severity, n, step_summary is not None) + "\n")
    total = len(findings)
    if total:
        out.write(
            f"si-lint: {total} finding(s) in {result.files} file(s){skipped_part(result)}: "
            f"{counts['errors']} error(s), "
            f"{counts['warnings']} warning(s), {counts['infos']} info(s)\n"
        )
    else:
        line = passed_line(result)
        out.write("si-lint: " + line[0].lower() + line[1:] + "\n")
    if step_summary is not None:
        from .github_summary import append

        append(step_summary, result, findings)
