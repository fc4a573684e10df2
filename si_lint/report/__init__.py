"""Report stage: findings → text, concise text, JSON, SARIF, JUnit, GitHub annotations,
GitLab Code Quality (docs/integration.md).

Each format is a module ``si_lint.report.<name>`` with ``write(result, out, **options)``
(``result``: a :class:`si_lint.pipeline.RunResult`; ``out``: anything with ``write(str)``),
written piece by piece, never whole in memory (SPEC §9 "Output is bounded")."""

from __future__ import annotations

from . import concise, github, gitlab, json, sarif, text

FORMATS = ("text", "concise", "json", "sarif", "junit", "github", "gitlab")
_MODULES = dict(text=text, concise=concise, json=json, sarif=sarif, github=github, gitlab=gitlab)


def write(result, fmt: str, out, **options) -> None:
    """The ``fmt`` report of ``result``, streamed to ``out`` (``out.write(str)``)."""
    if fmt == "junit":  # imported when used: its xml.sax.saxutils imports urllib.request
        from . import junit

        junit.write(result, out, **options)
    else:
        _MODULES[fmt].write(result, out, **options)
