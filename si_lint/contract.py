"""The rule contract, enforced at run time (ARCHITECTURE.md "Rule contract").

A check declares the codes it may emit (``@file_check("SI101", ...)``). A Diag with a code
the check did not declare is not reported under that code: it becomes one SI000 naming the
check and the code, so a mistake in a check shows up as an internal error instead of a
finding that ``select``/``ignore``, the catalogue and the docs know nothing about."""

from __future__ import annotations

from collections.abc import Iterable

from .findings import Diag


def undeclared(check, diag: Diag) -> Diag:
    return Diag(
        "SI000",
        (),
        f"internal error: check {check.name} emitted {diag.code}, which it does not declare "
        f"(it declares {', '.join(check.codes) or 'no codes'}); the finding was: {diag.message}",
        file=diag.file,
        line=1,
        col=1,
        help="please report this: the check's decorator and its rules/CODE.yaml must name the code",
    )


def enforce(check, diags: Iterable[Diag] | None) -> list[Diag]:
    """The Diags of one check run, each with a declared code (others become SI000)."""
    return [d if d.code in check.codes else undeclared(check, d) for d in diags or ()]
