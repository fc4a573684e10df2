"""Stage 4, corpus: the documents become one :class:`~si_lint.corpus.Corpus` (the
reference graph is built from it on first use) and the corpus checks run on it."""

from __future__ import annotations

from ..corpus import Corpus
from ..findings import Diag
from .context import Context, State


def corpus_diags(corpus: Corpus, ctx: Context, checks, stage: str) -> list[Diag]:
    """The Diags of the corpus checks of ``stage`` (``corpus`` or ``dryrun``); a check
    that raises is one SI000, the others still run."""
    from ..contract import enforce
    from .perfile import crash

    out: list[Diag] = []
    for check in checks:
        if check.scope != "corpus" or check.stage != stage:
            continue
        try:
            out.extend(enforce(check, check.func(corpus, ctx)))
        except Exception as exc:
            out.append(crash(check, exc, None))
    return out


def make_corpus(state: State) -> None:
    state.corpus = Corpus(state.docs, state.profile, state.selection.config)
    state.corpus.profile_dirs, state.corpus.profile_docs = state.profile_dirs, state.profile_docs
    state.ctx.corpus = state.corpus


def corpus_checks(state: State) -> None:
    """The corpus checks. Under ``--jobs`` > 1 they are left to the dry-run stage, which
    runs them in the parent while its workers score the fixtures (``ctx.meanwhile``)."""
    from .forkmap import jobs_of

    def run() -> None:
        state.diags.extend(corpus_diags(state.corpus, state.ctx, state.checks, "corpus"))

    if jobs_of(state.options.jobs) > 1 and state.ctx.meanwhile is None:
        state.ctx.meanwhile = run
    else:
        run()
