"""The exceptions of the evaluator: :class:`EvaluationError` and its kinds.

Every :class:`EvaluationError` is caught by :func:`si_lint.evaluator.evaluate` and becomes an
error verdict (``{"score": None, "row": None, "error": str(exc)}``); it never escapes the
public ``evaluate`` entry point. :func:`~si_lint.evaluator.scenario_table`,
:func:`~si_lint.evaluator.prepare`, ``locate_table`` and ``compile_table`` raise them; the
caller that makes a verdict or a finding catches them.
"""

from __future__ import annotations


class EvaluationError(ValueError):
    """The evidence, the table or an argument cannot be evaluated (SPEC §5)."""


class NoTable(EvaluationError):
    """The scenario has no decision table to evaluate (Form A or safety scoring, an unknown
    template, the former spelling, ...); ``str(exc)`` says why
    (:func:`si_lint.evaluator.tables.locate_table`)."""


class InvalidTable(EvaluationError):
    """The scenario's decision table does not validate; ``str(exc)`` says where
    (:func:`si_lint.evaluator.tables.compile_table`)."""
