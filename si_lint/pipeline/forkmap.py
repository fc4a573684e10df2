"""Pure computations of the corpus stages (a scenario's dry run) in forked worker
processes, under ``--jobs`` > 1 for many tasks; the results are in task order, whatever
the number of workers, so the output does not depend on ``--jobs``. Two ways:

- **the per-file stage's workers** (``Context.pool``: forked before the documents were
  loaded, kept for the dry runs) when every task is *packed* (``task.packed``: a module
  function and the marshal bytes of its arguments; called ``func(blob, ctx)`` in the
  worker with the Context it was forked with). Only the tasks' own data travel; the
  workers never hold the corpus (forked from the loaded corpus, each copied every page its
  dry runs touched: about 50 MB each at 12,000 files, most of the run's peak memory).
- **workers forked now** otherwise: they inherit the corpus the parent built
  (copy-on-write), so only the task's index goes to them.

Only the result (picklable data: a list of Diags) comes back."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

#: fewer tasks than this run in the parent: forking costs more than they do
THRESHOLD = 32

_TASKS: Sequence[Callable[[], Any]] = ()
#: the Context a kept pool's workers were forked with (set before they are forked)
_CTX: Any = None


def _run_chunk(bounds: tuple[int, int]) -> list:
    return [_TASKS[i]() for i in range(*bounds)]


def _run_packed(chunk: list) -> list:
    return [func(blob, _CTX) for func, blob in chunk]


def close_kept(ctx) -> None:
    """End ``ctx.pool``'s workers (and forget the Context they were forked with)."""
    global _CTX
    pool, ctx.pool = ctx.pool, None
    if _CTX is ctx:
        _CTX = None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def keep_pool(ctx, jobs: int):
    """``ctx.pool``, forked now when there is none (with ``ctx`` for its packed tasks):
    the per-file stage's workers, which the dry runs reuse; :func:`close_kept` ends
    them. None where the platform cannot fork."""
    global _CTX
    if ctx.pool is None:
        _CTX = ctx
        ctx.pool = fork_pool(jobs)
    return ctx.pool


#: with no ``--jobs``, a run over fewer files than this runs in one process: on the
#: 2-core bench machine a pool cost 15-20% more CPU at every size (4,000-12,000 files)
#: and saved wall time only from 8,000-12,000 files, and only while the cores were free
#: (bench/README.md, "--jobs")
POOL_FILES = 10_000


def jobs_of(jobs: int | None, files: int = 0) -> int:
    """The worker processes of a run over ``files`` files: ``--jobs`` when given; else one
    below :data:`POOL_FILES` files, the machine's cores from there."""
    if jobs:
        return jobs
    return (os.cpu_count() or 1) if files >= POOL_FILES else 1


def fork_map(
    tasks: Sequence[Callable[[], Any]],
    jobs: int | None,
    meanwhile: Callable[[], None] | None = None,
    kept=None,
) -> list:
    """``[task() for task in tasks]``, in ``jobs`` forked processes when there are enough
    tasks; ``meanwhile()`` is the parent's own work, done while the workers compute (or
    after the tasks, when they run here). ``kept``: the per-file stage's pool, used when
    every task is packed. A task that raises raises here as it would serially (a broken
    pool, or a result that cannot be pickled, is computed again here)."""
    global _TASKS
    jobs = jobs_of(jobs)
    if jobs < 2 or len(tasks) < THRESHOLD:
        out = [task() for task in tasks]
        if meanwhile is not None:
            meanwhile()
        return out
    if kept is not None and all(hasattr(type(task), "packed") for task in tasks):
        return _streamed(kept, tasks, jobs, meanwhile)
    # a few chunks per worker: the tasks differ in cost, the chunks even it out
    step = max(1, len(tasks) // (jobs * 4))
    bounds = [(a, min(a + step, len(tasks))) for a in range(0, len(tasks), step)]
    pool = fork_pool(jobs)
    if pool is None:  # pragma: no cover - platforms without fork
        return _mapped(None, None, (), meanwhile, tasks)
    _TASKS = tasks
    try:
        with pool:  # leaving it waits for the workers
            return _mapped(pool, _run_chunk, bounds, meanwhile, tasks)
    finally:
        _TASKS = ()


#: tasks per chunk sent to a kept pool, and chunks in flight per worker: the parent
#: packs a chunk only when a worker is about to need it, so it never holds a second copy
#: of the tasks' data (packing every task first cost 50 MB at 12,000 files)
PACKED_CHUNK = 64
IN_FLIGHT = 3


def _streamed(pool, tasks: Sequence[Any], jobs: int, meanwhile) -> list:
    """Packed tasks in ``pool``'s workers, a few chunks in flight: a thread packs and
    sends the next chunk as one comes back, while ``meanwhile`` runs here."""
    import threading

    chunks = [tasks[a : a + PACKED_CHUNK] for a in range(0, len(tasks), PACKED_CHUNK)]
    window = threading.Semaphore(jobs * IN_FLIGHT)
    futures: list = []
    failed: list = []

    def feed() -> None:
        try:
            for chunk in chunks:
                window.acquire()
                future = pool.submit(_run_packed, [task.packed for task in chunk])
                future.add_done_callback(lambda _f: window.release())
                futures.append(future)
        except Exception as exc:  # a task that cannot be packed, a broken pool
            failed.append(exc)

    feeder = threading.Thread(target=feed, name="si-lint-feed", daemon=True)
    feeder.start()
    try:
        if meanwhile is not None:
            meanwhile()
    finally:
        feeder.join()
    parts = None if failed else (f.result() for f in futures)
    out = _collect(parts)
    return out if out is not None else [task() for task in tasks]


def _mapped(pool, run_chunk, chunks, meanwhile, tasks) -> list:
    """The chunks' results in task order (the workers compute while ``meanwhile`` runs
    here); pool trouble, or a task's own exception: serially, as it would be."""
    try:
        parts = pool.map(run_chunk, chunks) if pool is not None else None
    except Exception:
        parts = None
    if meanwhile is not None:
        meanwhile()
    out = _collect(parts)
    return out if out is not None else [task() for task in tasks]


def _collect(parts) -> list | None:
    if parts is None:
        return None
    try:
        return [value for part in parts for value in part]
    except Exception:
        return None


def fork_pool(jobs: int):
    """A pool of ``jobs`` forked workers (they inherit the parent's memory), or None where
    the platform cannot fork."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        return None
    return ProcessPoolExecutor(max_workers=jobs, mp_context=mp)
