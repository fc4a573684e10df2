"""What check modules import: the registration decorators (kept in
:mod:`si_lint.registry`, below both the checks and the pipeline)."""

from __future__ import annotations

from functools import cache

from ..registry import corpus_check, file_check  # noqa: F401  (re-exported)
from . import all_checks, implemented_codes  # noqa: F401  (re-exported)


@cache
def evaluator():
    """:mod:`si_lint.evaluator`, imported the first time a check needs it (a run whose dry
    runs the cache answers never imports it)."""
    import si_lint.evaluator as module

    return module
