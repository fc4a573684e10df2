"""Report stage: findings → text, concise text, JSON, SARIF, JUnit, GitHub annotations,
GitLab Code Quality (docs/integration.md).

Each format is a module ``si_lint.report.<name>`` with ``write(result, out, **options)``
(``result``: a :class:`si_lint.pipeline.RunResult`; ``out``: anything with ``write(str)``),
written piece by piece, never whole in memory (SPEC §9 "Output is bounded")."""

from __future__ import annotations

import importlib

FORMATS = ("text", "concise", "json", "sarif", "junit", "github", "gitlab")


def write(result, fmt: str, out, **options) -> None:
    # only the format written is imported: a run writes one (or two, with --sarif-file)
    importlib.import_module(f"{__name__}.{fmt}").write(result, out, **options)
