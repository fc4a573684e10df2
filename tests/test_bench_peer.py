"""bench/parallel_peer.py and how bench/run.py reports it: the scaling row's reference."""

from __future__ import annotations

import pytest
from conftest import bench_module


@pytest.fixture(scope="module")
def bench():
    return bench_module("parallel_peer"), bench_module("run")


def test_the_peer_does_the_same_work_whatever_the_number_of_processes(bench):
    peer, _run = bench
    one = peer.run(9, 1)
    assert peer.run(9, 2) == one
    assert peer.run(9, 3) == one
    assert peer.run(8, 1) != one


def test_the_peer_refuses_no_process_or_no_task(bench, capsys):
    peer, _run = bench
    with pytest.raises(SystemExit) as exc:
        peer.main(["--jobs", "0"])
    assert exc.value.code == 2
    assert "--jobs and --tasks must be at least 1" in capsys.readouterr().err


def test_scaling_is_the_median_of_the_rounds_where_both_ran(bench):
    _peer, run = bench
    one = [{"seconds": 3.0, "exit": 0}, {"seconds": 4.0, "exit": 0}, {"seconds": 9.0, "exit": 2}]
    two = [{"seconds": 2.0, "exit": 0}, {"seconds": 2.0, "exit": 1}, {"seconds": 1.0, "exit": 0}]
    assert run.scaling(one, two) == 1.75  # (1.5 + 2.0) / 2: the failed round is left out
    assert run.scaling([], []) is None
    assert run.scaling(one[2:], two[2:]) is None


def test_the_report_prints_the_reference_under_the_goals(bench):
    _peer, run = bench
    report = {
        "date": "2026-12-03 22:00 UTC",
        "corpus": {"big": {"files": 40000, "bytes": 95_000_000}},
        "machine": {"cpus": 2, "load_avg": [1.0, 1.0, 1.0], "python": "3.11.7"},
        "si_lint": {"jobs": 2},
        "rounds": 3,
        "goals": [
            {
                "key": "big_scaling",
                "figure": "40,000 files: --jobs 1 time / --jobs 2 time",
                "goal": ">= 1.7x",
                "measured": 1.56,
                "unit": "x",
                "met": False,
            }
        ],
        "references": [
            {"key": "peer_scaling", "figure": run.REFERENCES["peer_scaling"], "measured": 1.62}
        ],
        "measurements": {},
        "notes": [],
    }
    lines = run.markdown(report).splitlines()
    assert (
        "| 40,000 files: --jobs 1 time / --jobs 2 time | 1.56x | >= 1.7x | **not met** |" in lines
    )
    assert lines[-1] == (
        "- reference: what a second process gives work that splits evenly, here and in the "
        "same rounds: a pure-Python peer's --jobs 1 time / --jobs 2 time "
        "(bench/parallel_peer.py): 1.62x"
    )


def test_the_floor_ratio_is_the_median_of_the_rounds_where_both_ran(bench):
    _peer, run = bench
    cold = [{"cpu": 1.5, "exit": 0}, {"cpu": 2.2, "exit": 1}, {"cpu": 9.0, "exit": 2}]
    floor = [{"cpu": 0.15, "exit": 0}, {"cpu": 0.2, "exit": 0}, {"cpu": 0.1, "exit": 0}]
    assert run.floor_ratio(cold, floor) == 10.5  # (10.0 + 11.0) / 2: the failed run is out
    assert run.floor_ratio(cold[:1], [{"cpu": 0.15, "exit": 1}]) is None
    assert run.floor_ratio([], floor) is None


def test_the_report_prints_the_floor_reference_first(bench):
    _peer, run = bench
    report = {
        "date": "2026-12-04 20:40 UTC",
        "corpus": {},
        "machine": {"cpus": 2, "load_avg": [1.0, 1.0, 1.0], "python": "3.11.7"},
        "si_lint": {"jobs": 2},
        "rounds": 3,
        "goals": [],
        "references": [
            {"key": k, "figure": run.REFERENCES[k], "measured": v}
            for k, v in (("floor_jobs1", 10.2), ("peer_scaling", 1.79))
        ],
        "measurements": {},
        "notes": [],
    }
    lines = run.markdown(report).splitlines()
    assert lines[-2:] == [
        "- reference: the same cold check's CPU / the C-parse floor's with --jobs 1, in the "
        "same rounds (one process: none of a second busy process's cost on this machine): "
        "10.2x",
        "- reference: what a second process gives work that splits evenly, here and in the "
        "same rounds: a pure-Python peer's --jobs 1 time / --jobs 2 time "
        "(bench/parallel_peer.py): 1.79x",
    ]
