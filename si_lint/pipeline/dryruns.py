"""Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py),
in worker processes under ``--jobs`` > 1 while the parent runs the corpus checks (the
corpus stage left them in ``ctx.meanwhile``). The Diags keep the order: corpus checks,
then dry runs. Each scenario's dry run is cached on what it reads (``Context.map``)."""

from __future__ import annotations

from ..limits import MAX_CACHED_FINDINGS
from .context import State
from .corpus import corpus_diags, corpus_key


def dry_runs(state: State) -> None:
    """The dry-run stage's findings: from the cache when it holds them under the corpus
    key with the tag ``dryrun`` (every file's content hash: nothing a dry run reads has
    changed; the per-task answers are then kept as they are, for the next edit), else
    computed (each scenario's own dry run answered from the cache if it can be)."""
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # the corpus stage ran
    key = corpus_key(state)
    key = ("dryrun", key[1]) if key is not None else None
    try:
        found, cached = state.cache.memo_get(key) if key is not None else (False, None)
        if found:
            diags: list = cached or []
            state.cache.keep_memo("task")  # (context.task_key's tag)
        else:
            diags = corpus_diags(corpus, ctx, state.checks, "dryrun")
            if key is not None and len(diags) <= MAX_CACHED_FINDINGS:
                state.cache.memo_put(key, diags)
    finally:
        pending, ctx.meanwhile = ctx.meanwhile, None
    if pending is not None:  # no worker ran: the corpus checks run now
        pending()
    state.diags.extend(diags)
