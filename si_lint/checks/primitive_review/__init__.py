"""The static review of a profile's primitive implementations (SI501–SI507, SPEC §2.1
"Static review, pinned"): an implementation is parsed with libcst, never imported.

* :mod:`.profile_review` — every registered primitive of a profile: its
  ``implementation:`` entry, the file it names, and a template that uses it.
* :mod:`.source_review` — one implementation's source text: :func:`review_source`.
* :mod:`.bounds` — the nesting bounds a module must keep before libcst reads it.
* :mod:`.parsed` — the parsed module and the findings it yields.
* :mod:`.names` — what SI503/SI504/SI506 look for (nondeterministic names, ``re``
  functions, mutating methods).
* :mod:`.body` — SI503, SI505, SI506 over a function body; :mod:`.taint` — SI504;
  :mod:`.signature` — SI502.

The check that reports them in ``si-lint check`` is :mod:`si_lint.checks.implementations`;
``si-lint review`` (:mod:`si_lint.review`) reports them too. This package's own import
loads nothing (``all_checks`` imports it with every module of ``checks``).
"""
