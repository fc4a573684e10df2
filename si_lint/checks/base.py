"""What check modules import: the decorators of :mod:`si_lint.registry`."""

from __future__ import annotations

from functools import cache

from ..registry import corpus_check, file_check  # noqa: F401  (re-exported)


@cache
def evaluator():
    """:mod:`si_lint.evaluator`, imported late: a run the cache answers never needs it."""
    import si_lint.evaluator as module

    return module
