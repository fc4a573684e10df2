"""pipeline.forkmap: pure tasks in forked workers give what they give serially, in task
order, whatever the number of workers; the parent's own work runs once while they
compute; a task that raises raises as it would serially."""

from __future__ import annotations

import os

import pytest

from si_lint.pipeline import forkmap


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch):
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)


def _task(i):
    return lambda: (i, i * i, os.getpid())


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_in_task_order(jobs):
    got = forkmap.fork_map([_task(i) for i in range(50)], jobs)
    assert [g[:2] for g in got] == [(i, i * i) for i in range(50)]
    pids = {g[2] for g in got}
    assert (pids == {os.getpid()}) == (jobs == 1)  # workers compute under --jobs > 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_in_the_parent(jobs):
    calls = []
    forkmap.fork_map([_task(i) for i in range(10)], jobs, lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_task_that_raises_raises_here(jobs):
    def bad():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        forkmap.fork_map([_task(0), bad, _task(2)], jobs)


def test_an_unpicklable_result_is_computed_here():
    got = forkmap.fork_map([lambda: lambda: 1] * 4, 2)  # a lambda cannot be pickled back
    assert [f() for f in got] == [1, 1, 1, 1]


class _Ctx:
    """What a kept pool needs of a Context: its ``pool``, and what packed tasks read."""

    def __init__(self):
        self.pool = None
        self.marker = "forked with this context"


def _square(blob: bytes, ctx) -> tuple:
    i = int(blob)
    return i, i * i, os.getpid(), ctx.marker


class _Packed:
    def __init__(self, i, packable=True):
        self.i, self.packable = i, packable

    def __call__(self):
        return self.i, self.i * self.i, os.getpid(), "here"

    @property
    def packed(self):
        if not self.packable:
            raise ValueError("cannot be marshalled")
        return _square, str(self.i).encode()


@pytest.fixture
def kept(monkeypatch):
    monkeypatch.setattr(forkmap, "PACKED_CHUNK", 3)  # many chunks, a few in flight
    ctx = _Ctx()
    pool = forkmap.keep_pool(ctx, 2)
    yield ctx, pool
    forkmap.close_kept(ctx)
    assert ctx.pool is None and forkmap._CTX is None


def test_packed_tasks_run_in_the_kept_pool_in_task_order(kept):
    ctx, pool = kept
    calls = []
    got = forkmap.fork_map([_Packed(i) for i in range(40)], 2, lambda: calls.append(1), pool)
    assert [g[:2] for g in got] == [(i, i * i) for i in range(40)]
    assert os.getpid() not in {g[2] for g in got}
    assert {g[3] for g in got} == {"forked with this context"}  # the worker's Context
    assert calls == [1]
    # the same workers serve the next map: the pool is kept, not forked again
    again = forkmap.fork_map([_Packed(i) for i in range(40)], 2, None, pool)
    assert len({g[2] for g in got} | {g[2] for g in again}) <= 2


def test_a_task_that_cannot_be_packed_has_every_task_computed_here(kept):
    _ctx, pool = kept
    tasks = [_Packed(i) for i in range(10)] + [_Packed(10, packable=False)]
    got = forkmap.fork_map(tasks, 2, None, pool)
    assert got == [(i, i * i, os.getpid(), "here") for i in range(11)]


def test_tasks_without_a_packed_form_are_forked_as_before(kept):
    _ctx, pool = kept
    got = forkmap.fork_map([_task(i) for i in range(10)], 2, None, pool)
    assert [g[:2] for g in got] == [(i, i * i) for i in range(10)]
    assert os.getpid() not in {g[2] for g in got}


def test_jobs_of_is_one_process_by_default_below_pool_files(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    got = [
        forkmap.jobs_of(None),
        forkmap.jobs_of(None, forkmap.POOL_FILES - 1),
        forkmap.jobs_of(None, forkmap.POOL_FILES),
        forkmap.jobs_of(3),
        forkmap.jobs_of(1, forkmap.POOL_FILES),
    ]
    assert got == [1, 1, 4, 3, 1]
