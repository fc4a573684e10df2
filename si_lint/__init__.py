"""si-lint: static analysis and linting for SI scenario corpora and EIO criteria modules.

The Python API is :mod:`si_lint.api` (``check``, ``evaluate``, ``explain`` and their
result types), also reachable here (``si_lint.check(...)``)."""

__version__ = "0.2.0"

#: where the source and the generated rule pages (docs/rules/CODE.md) live; SARIF ``helpUri``
#: and the wheel's project URLs point here (keep pyproject.toml's [project.urls] in step)
REPOSITORY_URL = "https://github.com/oasis-si/si-lint"


def rule_url(code: str) -> str:
    """The generated page of one rule, on the default branch (the repository has no
    release tags yet: a URL at ``v{__version__}`` would lead nowhere)."""
    return f"{REPOSITORY_URL}/blob/main/docs/rules/{code}.md"


# the API imports only the findings and the errors at its top: importing it here costs
# `si-lint check` nothing it would not import anyway
from .api import (  # noqa: E402
    Finding,
    Location,
    Report,
    RuleDoc,
    SiLintError,
    UnknownRuleError,
    Verdict,
    Why,
    check,
    evaluate,
    explain,
)

__all__ = [
    "REPOSITORY_URL",
    "__version__",
    "rule_url",
    "Finding",
    "Location",
    "Report",
    "RuleDoc",
    "SiLintError",
    "UnknownRuleError",
    "Verdict",
    "Why",
    "check",
    "evaluate",
    "explain",
]
