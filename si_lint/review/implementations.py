"""SI501–SI507 over a whole profile, as ``si-lint review`` and the tests name it; it lives
with the rules in :mod:`si_lint.checks.primitive_review.profile_review`."""

from __future__ import annotations

from ..checks.primitive_review.profile_review import ImplFinding, review_profile

__all__ = ["ImplFinding", "review_profile"]
