"""Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py)."""

from __future__ import annotations

from .context import State
from .corpus import corpus_diags


def dry_runs(state: State) -> None:
    state.diags.extend(corpus_diags(state.corpus, state.ctx, state.checks, "dryrun"))
