"""Errors reported to the user rather than as findings; ``si_lint.cli`` is the only place
that prints one (``si-lint: <message>`` on stderr) and exits."""

from __future__ import annotations


class SiLintError(Exception):
    exit_code = 2

    def __init__(self, message: str, *, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code

    @property
    def message(self) -> str:
        return str(self)


class UsageError(SiLintError):
    """Bad paths, arguments or options (exit status 2)."""


class ConfigError(UsageError):
    """The configuration cannot be used (exit status 2)."""


class OutputError(UsageError):
    """A report, baseline or fixed file cannot be written (exit status 2)."""
