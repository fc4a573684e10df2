"""`si-lint review`: a registry/profile change compared with its base (SI501–SI507, its
static review, are the rules' own: si_lint.checks.primitive_review)."""
