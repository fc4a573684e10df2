"""`--format github`: GitHub Actions workflow commands (SPEC §9), chosen automatically
under ``GITHUB_ACTIONS=true``.

One ``::error|warning|notice file=...,line=...,col=...,endLine=...,endColumn=...,title=CODE::message``
per finding (info → ``notice``). Escaping follows GitHub's runner (``toolkit/core``
``escapeData``/``escapeProperty``): in the message ``%``, ``\\r`` and ``\\n`` become ``%25``,
``%0D`` and ``%0A``; in properties ``:`` and ``,`` also become ``%3A`` and ``%2C``. Every
other control character and the bidi controls are shown as escapes (``\\x1b``;
:mod:`.controls`): the runner prints annotations to the job log, and a file name holding
``ESC ] 8 ;;`` ... ``BEL`` must not become a link or a terminal command there.

GitHub shows at most 10 annotations of each level per step (:data:`ANNOTATION_CAP`), so
the order matters (:func:`ordered`). After the annotations of a level that went over the
cap, a ``::notice`` says how many more there are (a plain line after the notices). When
``$GITHUB_STEP_SUMMARY`` is set, a bounded Markdown summary (counts by code, the first
findings with links) is appended to it (:mod:`.github_summary`).
"""

from __future__ import annotations

import os
from collections import Counter

from ..findings import SEVERITY_RANK
from ..source import SourceCache, token_end
from . import github_summary, notes, summary_counts
from .controls import GITHUB, printable
from .text import found_line, passed_line

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
#: GitHub shows at most this many annotations of each level (error, warning, notice) per
#: step; the rest are in the log only
ANNOTATION_CAP = 10
_NAMES = {"error": "errors", "warning": "warnings", "info": "infos"}


def escape_data(text: str) -> str:
    text = printable(text, GITHUB)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f, cache: SourceCache | None = None) -> str:
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        src = (cache or SourceCache()).line(f.path, f.line)
        end_line, end_col = f.line, token_end(src, f.column)
    props = {
        "file": f.path,
        "line": f.line,
        "col": f.column,
        "endLine": end_line,
        "endColumn": end_col,
        "title": f.code,
    }
    head = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items())
    body = escape_data("\n".join([f.message, *notes(f)]))
    return f"::{_COMMAND.get(f.severity, 'error')} {head}::{body}"


def ordered(findings) -> list:
    """The findings in the order their annotations are printed: by severity (errors,
    warnings, infos), then by how rare their code is in the run (rarest first: one real
    defect is not hidden behind 25 findings of one code), then code, path, line, column."""
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
    """The annotations, a line after each level that went over GitHub's cap, the run's
    summary line; and the Markdown summary appended to ``step_summary`` (default:
    ``$GITHUB_STEP_SUMMARY``, when set)."""
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
    line = found_line(result) if findings else passed_line(result)
    out.write("si-lint: " + line[0].lower() + line[1:] + "\n")
    if step_summary is not None:
        github_summary.append(step_summary, result, findings)
