"""Report stage: findings → text, concise text, JSON, SARIF, JUnit, GitHub annotations, GitLab Code Quality.

Each format is a module ``si_lint.report.<name>`` with ``render(result) -> str``
(``result`` is a :class:`si_lint.pipeline.RunResult`), imported only when used.
"""

from __future__ import annotations

import importlib

FORMATS = ("text", "concise", "json", "sarif", "junit", "github", "gitlab")


def render(result, fmt: str, **options) -> str:
    module = importlib.import_module(f"{__name__}.{fmt.replace('-', '_')}")
    return module.render(result, **options)


def summary_counts(findings) -> dict[str, int]:
    counts = {"errors": 0, "warnings": 0, "infos": 0}
    for f in findings:
        counts[{"error": "errors", "warning": "warnings"}.get(f.severity, "infos")] += 1
    return counts
