"""Pure tasks (a scenario's dry run) in forked workers under ``--jobs`` > 1. They inherit
the corpus (copy-on-write), so only a chunk's bounds go out and the results come back in
task order: the output does not depend on ``--jobs``."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from typing import Any

#: fewer tasks than this run in the parent: forking costs more than they do
THRESHOLD = 32

#: with no ``--jobs``, a run over fewer files runs in one process: a pool costs more CPU
#: at every size and saves wall time only past it (bench/README.md, "--jobs")
POOL_FILES = 10_000

_TASKS: Sequence[Callable[[], Any]] = ()


def _run_chunk(bounds: tuple[int, int]) -> list:
    return [_TASKS[i]() for i in range(*bounds)]


def jobs_of(jobs: int | None, files: int = 0) -> int:
    if jobs:
        return jobs
    return (os.cpu_count() or 1) if files >= POOL_FILES else 1


def fork_map(
    tasks: Sequence[Callable[[], Any]],
    jobs: int | None,
    meanwhile: Callable[[], None] | None = None,
) -> list:
    """``[task() for task in tasks]``, in ``jobs`` forked processes when there are enough;
    ``meanwhile()`` is the parent's work, done while they compute. A task that raises
    raises here as it would serially (a broken pool is computed again here)."""
    global _TASKS
    jobs = jobs_of(jobs)
    pool = fork_pool(jobs) if jobs > 1 and len(tasks) >= THRESHOLD else None
    if pool is None:
        out = [task() for task in tasks]
        if meanwhile is not None:
            meanwhile()
        return out
    # a few chunks per worker: the tasks differ in cost, the chunks even it out
    step = max(1, len(tasks) // (jobs * 4))
    bounds = [(a, min(a + step, len(tasks))) for a in range(0, len(tasks), step)]
    _TASKS = tasks
    # the workers inherit the corpus: frozen, its objects are never traversed by their
    # cyclic GC, which would otherwise copy every page of it into each of them
    gc.freeze()
    try:
        with pool:  # leaving it waits for the workers
            try:
                parts = pool.map(_run_chunk, bounds)
            except Exception:
                parts = None
            if meanwhile is not None:
                meanwhile()
            try:
                got = [value for part in parts for value in part] if parts is not None else None
            except Exception:
                got = None
    finally:
        _TASKS = ()
        gc.unfreeze()
    # pool trouble, or a task's own exception: serially, as it would be
    return got if got is not None else [task() for task in tasks]


def fork_pool(jobs: int):
    """None where the platform cannot fork."""
    # (imported here: a serial run, the default, never needs them)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        return None
    return ProcessPoolExecutor(max_workers=jobs, mp_context=mp)
