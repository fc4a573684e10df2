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
