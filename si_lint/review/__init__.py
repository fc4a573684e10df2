"""`si-lint review`: a registry/profile change compared with its base (:mod:`.run`). The
static review of the proposed implementations (SI501–SI507) is the rules' own
(:mod:`si_lint.checks.primitive_review`: review sits above checks)."""
