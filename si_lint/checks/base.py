"""What check modules import: the registration decorators (kept in
:mod:`si_lint.registry`, below both the checks and the pipeline) and :class:`Diag`.

There is no hand-kept list of rules: :func:`all_checks` imports every module of the
``si_lint.checks`` package, and the decorators collect what they define.
"""

from __future__ import annotations

from ..findings import Diag  # noqa: F401  (re-exported for check modules)
from ..registry import (  # noqa: F401  (re-exported)
    _REGISTRY,
    Check,
    all_checks,
    corpus_check,
    file_check,
    implemented_codes,
)
