"""Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py).
The scenarios the cache does not answer are scored in worker processes under ``--jobs``
> 1 (``Context.memo_map``); the parent runs the corpus checks meanwhile (the corpus
stage left them in ``ctx.meanwhile``). The Diags keep the order: corpus checks, then
dry runs."""

from __future__ import annotations

from .context import State
from .corpus import corpus_diags


def dry_runs(state: State) -> None:
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # the corpus stage ran
    try:
        diags = corpus_diags(corpus, ctx, state.checks, "dryrun")
    finally:
        pending, ctx.meanwhile = ctx.meanwhile, None
    if pending is not None:  # no worker ran: the corpus checks run now
        pending()
    state.diags.extend(diags)
