"""The static review of one primitive implementation, as ``si-lint review`` and the tests
name it; it lives with the SI501–SI507 rules in
:mod:`si_lint.checks.primitive_review.source_review`."""

from __future__ import annotations

from ..checks.primitive_review.parsed import StaticFinding
from ..checks.primitive_review.source_review import review_source

__all__ = ["StaticFinding", "review_source"]
