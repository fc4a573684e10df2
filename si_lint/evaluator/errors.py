"""The one exception the evaluator raises internally.

Every :class:`EvaluationError` is caught by :func:`si_lint.evaluator.evaluate` and becomes an
error verdict (``{"score": None, "row": None, "error": str(exc)}``); it never escapes the
public ``evaluate`` entry point.
"""

from __future__ import annotations


class EvaluationError(ValueError):
    """The evidence, the table or an argument cannot be evaluated (SPEC §5)."""
