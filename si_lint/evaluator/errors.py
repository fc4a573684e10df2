"""The exceptions of the evaluator. An :class:`EvaluationError` becomes an error verdict
(``{"score": None, "row": None, "error": str(exc)}``); it never escapes
:func:`si_lint.evaluator.evaluate`."""

from __future__ import annotations


class EvaluationError(ValueError):
    """The evidence, the table or an argument cannot be evaluated (SPEC §5)."""


class NoTable(EvaluationError):
    """The scenario has no decision table to evaluate (Form A or safety scoring, an unknown
    template, the former spelling, ...); ``str(exc)`` says why."""


class InvalidTable(EvaluationError):
    """The scenario's decision table does not validate; ``str(exc)`` says where."""
