"""`si-lint review`: a registry/profile change compared with its base — the profile diff
(:mod:`.diff`, :mod:`.change`), what it reaches in a corpus (:mod:`.reach`), the fixture
verdicts under both profiles and the report (:mod:`.run`, :mod:`.render`). The static
review of the proposed implementations (SI501–SI507) is the rules' own, imported from
:mod:`si_lint.checks.primitive_review` (review sits above checks; checks never import it)."""
