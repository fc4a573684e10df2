"""Report stage: findings → text, concise text, JSON, SARIF, JUnit, GitHub annotations,
GitLab Code Quality (docs/integration.md).

Each format is a module ``si_lint.report.<name>`` with ``write(result, out, **options)``
(``result``: a :class:`si_lint.pipeline.RunResult`; ``out``: anything with ``write(str)``),
written piece by piece, never whole in memory (SPEC §9 "Output is bounded")."""

from __future__ import annotations

import importlib
import io

FORMATS = ("text", "concise", "json", "sarif", "junit", "github", "gitlab")


def write(result, fmt: str, out, **options) -> None:
    """The ``fmt`` report of ``result``, streamed to ``out`` (``out.write(str)``)."""
    # imported when used: junit reads every check, json the fixer
    importlib.import_module(f"{__name__}.{fmt}").write(result, out, **options)


def render(result, fmt: str, **options) -> str:
    """The ``fmt`` report of ``result`` as one string (tests, small reports)."""
    buf = io.StringIO()
    write(result, fmt, buf, **options)
    return buf.getvalue()


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
