"""si-lint: static analysis and linting for SI scenario corpora and EIO criteria modules.

The Python API, :mod:`si_lint.api`, is also reachable here (``si_lint.check(...)``): imported
on first use, as it imports every command's implementation that ``si-lint check`` never needs.
"""

from typing import TYPE_CHECKING

__version__ = "0.2.0"

#: where the source and the generated rule pages (docs/rules/CODE.md) live; SARIF ``helpUri``
#: and the wheel's project URLs point here (keep pyproject.toml's [project.urls] in step)
REPOSITORY_URL = "https://github.com/oasis-si/si-lint"


def rule_url(code: str) -> str:
    """On the default branch (no release tags yet: a URL at ``v{__version__}`` would lead
    nowhere)."""
    return f"{REPOSITORY_URL}/blob/main/docs/rules/{code}.md"


__all__ = [
    "REPOSITORY_URL",
    "__version__",
    "rule_url",
    # si_lint.api's, handed out on first use (__getattr__)
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
_API = frozenset(__all__[3:])

if TYPE_CHECKING:  # what type checkers see of the names __getattr__ hands out
    from .api import (
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


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API)
