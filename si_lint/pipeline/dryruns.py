"""Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py).
The scenarios are scored in worker processes under ``--jobs`` > 1 (``Context.map``); the
parent runs the corpus checks meanwhile (the corpus stage left them in
``ctx.meanwhile``). The Diags keep the order: corpus checks, then dry runs. Nothing runs
when the cache answered the corpus stage; else the cache keeps both stages' findings
under the corpus stage's key (``pipeline.corpus.corpus_key``)."""

from __future__ import annotations

from ..limits import MAX_CACHED_FINDINGS
from .context import State
from .corpus import corpus_diags


def dry_runs(state: State) -> None:
    if state.corpus_cached:
        return
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # the corpus stage ran
    try:
        diags = corpus_diags(corpus, ctx, state.checks, "dryrun")
    finally:
        pending, ctx.meanwhile = ctx.meanwhile, None
    if pending is not None:  # no worker ran: the corpus checks run now
        pending()
    state.diags.extend(diags)
    if state.corpus_key is not None and len(state.diags) <= MAX_CACHED_FINDINGS:
        state.cache.memo_put(state.corpus_key, state.diags)
