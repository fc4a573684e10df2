"""What check modules import: the registration decorators (kept in
:mod:`si_lint.registry`, below both the checks and the pipeline) and :class:`Diag`.
:func:`all_checks` (in :mod:`si_lint.checks`) imports every check module once.
:func:`evaluator` is :mod:`si_lint.evaluator`, imported on first use.
"""

from __future__ import annotations

from functools import cache

from ..findings import Diag  # noqa: F401  (re-exported for check modules)
from ..registry import Check, corpus_check, file_check  # noqa: F401  (re-exported)
from . import all_checks, implemented_codes  # noqa: F401  (re-exported)


@cache
def evaluator():
    """:mod:`si_lint.evaluator`, imported the first time a check needs it (not by a run
    whose dry runs the cache answers). A check calls this instead of an import statement
    in a function that runs per fixture or verdict: that statement ran importlib's
    ``_handle_fromlist`` on every call (12,000 times on the 4,000-file bench corpus)."""
    import si_lint.evaluator as module

    return module
