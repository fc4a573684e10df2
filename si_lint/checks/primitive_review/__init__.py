"""The static review of a profile's primitive implementations (SI501–SI507, SPEC §2.1
"Static review, pinned"): an implementation is parsed with libcst, never imported.
:mod:`.profile_review` reviews a whole profile, :mod:`.source_review` one source text;
``si-lint check`` (:mod:`si_lint.checks.implementations`) and ``si-lint review`` report
them. This package's own import loads nothing (``all_checks`` imports it)."""
