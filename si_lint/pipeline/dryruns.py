"""Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py).
The scenarios are scored in worker processes under ``--jobs`` > 1 (``Context.map``); the
parent runs the corpus checks meanwhile (the corpus stage left them in
``ctx.meanwhile``). The Diags keep the order: corpus checks, then dry runs. Each
scenario's dry run is cached on what it reads (``Context.map``, ``context.task_key``:
the scenario's and its fixtures' paths and content hashes, under the cache header's
code, profile and configuration), so one changed file re-runs only the dry runs that
read it."""

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
