"""The registry of checks and codes, and the rule contract: below both the checks and the
pipeline, so that neither points up at the other."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .findings import Diag

#: codes the pipeline itself emits: a crashed check, a suppression that suppresses nothing
PIPELINE_CODES = ("SI000", "SI009")

#: corpus checks run in one of two stages: ``corpus`` (the reference graph and other
#: cross-file rules) or ``dryrun`` (fixtures and probes through the evaluator)
STAGES = ("corpus", "dryrun")

#: what a corpus check's findings may depend on, declared by ``corpus_check(reads=...)``:
#: every name but ``corpus`` is a relation the language server slices on
#: (:func:`si_lint.server.state.plan`), so a check that reads only those gives, over the slice
#: of an edit, the findings the whole corpus gives for the slice's files.
READS = {
    "profile": "the profile in use (registry, templates, implementations) and the OASIS "
    "profile documents (behavior-definitions.md, ...) beside a document",
    "document": "the document a finding is on, by itself",
    "scenario": "the documents that share a scenario id with it: the scenario's "
    "definitions, the fixtures and evidence that name it, a companion that names it",
    "intent": "the scenarios that state the same `intent`",
    "eio": "the EIO criteria modules and inputs",
    "corpus": "anything else in the corpus (every scenario id, for a nearest-id hint, say)",
}


@dataclass(frozen=True)
class Check:
    func: Callable
    codes: tuple[str, ...]
    scope: str  # "file" | "corpus"
    kinds: tuple | None = None  # file checks: the document kinds it runs on (None = all)
    stage: str = "file"  # "file" for file checks; "corpus" | "dryrun" for corpus checks
    #: corpus checks: what its findings may depend on (names of :data:`READS`); None = not
    #: declared, taken as the whole corpus
    reads: tuple[str, ...] | None = None

    @property
    def name(self) -> str:
        return f"{self.func.__module__}.{self.func.__qualname__}"


_REGISTRY: list[Check] = []


def file_check(*codes: str, kinds: Iterable | None = None):
    """``func(doc, ctx) -> Iterator[Diag]``"""

    def deco(func):
        _REGISTRY.append(
            Check(func, tuple(codes), "file", tuple(kinds) if kinds is not None else None)
        )
        return func

    return deco


def corpus_check(*codes: str, stage: str = "corpus", reads: Iterable[str] | None = None):
    """``func(corpus, ctx) -> Iterator[Diag]``; without ``reads`` the language server runs
    it over the whole corpus at every edit."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}")
    declared = None if reads is None else tuple(sorted(set(reads)))
    unknown = [r for r in declared or () if r not in READS]
    if unknown or declared == ():
        raise ValueError(f"reads: {unknown or 'nothing'} (known: {', '.join(READS)})")

    def deco(func):
        _REGISTRY.append(Check(func, tuple(codes), "corpus", stage=stage, reads=declared))
        return func

    return deco


def registered() -> tuple[Check, ...]:
    return tuple(sorted(_REGISTRY, key=lambda c: (c.scope, c.name)))


def file_checks_for(checks, kind) -> list:
    return [c for c in checks if c.scope == "file" and (c.kinds is None or kind in c.kinds)]


def enforce(check: Check, diags: Iterable[Diag] | None) -> list[Diag]:
    """The rule contract (ARCHITECTURE.md): a Diag with a code its check does not declare
    becomes one SI000 naming the check and the code, so that a mistake in a check shows up
    as an internal error, not as a finding ``select``, the catalogue and the docs ignore."""
    return [d if d.code in check.codes else _undeclared(check, d) for d in diags or ()]


def _undeclared(check: Check, diag: Diag) -> Diag:
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
