"""Compatibility shim: the pipeline lives in :mod:`si_lint.pipeline` (one module per
stage). Import from there; this module goes once nothing imports it any more."""

from __future__ import annotations

from .pipeline import Context, Options, RunResult, UsageError, build_corpus, run  # noqa: F401
from .pipeline.locate import apply_suppressions, locate  # noqa: F401
from .pipeline.perfile import file_diags, scan_suppressions  # noqa: F401
from .pipeline.read import read_file  # noqa: F401
from .pipeline.select import build_profile  # noqa: F401
from .registry import PIPELINE_CODES as CODES  # noqa: F401
