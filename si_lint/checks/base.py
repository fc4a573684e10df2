"""What check modules import: the registration decorators (kept in
:mod:`si_lint.registry`, below both the checks and the pipeline) and :class:`Diag`.
:func:`all_checks` (in :mod:`si_lint.checks`) imports every check module once.
"""

from __future__ import annotations

from ..findings import Diag  # noqa: F401  (re-exported for check modules)
from ..registry import Check, corpus_check, file_check  # noqa: F401  (re-exported)
from . import all_checks, implemented_codes  # noqa: F401  (re-exported)
