"""Report stage: findings → text, concise text, JSON, SARIF, JUnit, GitHub annotations, GitLab Code Quality.

Each format is a module ``si_lint.report.<name>``, imported only when used, with
``write(result, out, **options)``: the report written piece by piece to ``out`` (anything
with ``write(str)``; :class:`si_lint.report.output.Sink` for the check command), never
built whole in memory (SPEC §9 "Output is bounded": a run of 1,000,000 findings stays
under 1 GB in every format). ``result`` is a :class:`si_lint.pipeline.RunResult`.
:func:`render` gives the whole report as one string (tests, small reports).
"""

from __future__ import annotations

import importlib

FORMATS = ("text", "concise", "json", "sarif", "junit", "github", "gitlab")


def _module(fmt: str):
    return importlib.import_module(f"{__name__}.{fmt.replace('-', '_')}")


def write(result, fmt: str, out, **options) -> None:
    """The ``fmt`` report of ``result``, streamed to ``out`` (``out.write(str)``)."""
    _module(fmt).write(result, out, **options)


def render(result, fmt: str, **options) -> str:
    """The ``fmt`` report of ``result`` as one string."""
    import io

    buf = io.StringIO()
    write(result, fmt, buf, **options)
    return buf.getvalue()


def summary_counts(findings) -> dict[str, int]:
    counts = {"errors": 0, "warnings": 0, "infos": 0}
    for f in findings:
        counts[{"error": "errors", "warning": "warnings"}.get(f.severity, "infos")] += 1
    return counts
