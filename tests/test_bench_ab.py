"""bench/ab.py: two revisions compared on one corpus, in paired rounds, with the same
output required of both."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import REPO, bench_module


@pytest.fixture(scope="module")
def ab():
    return bench_module("ab")


def test_rounds_alternate_which_revision_runs_first(ab):
    assert [ab.order(r, ["base", "head"]) for r in range(3)] == [
        ["base", "head"],
        ["head", "base"],
        ["base", "head"],
    ]


def test_callgrind_counts_the_parent_alone_and_reads_its_summary(ab):
    assert ab.serial(["--no-cache", "--jobs", "2"]) == ["--no-cache", "--jobs", "1"]
    assert ab.serial(["-j", "3", "--select", "SI1"]) == ["--select", "SI1", "--jobs", "1"]
    assert ab.serial(["--jobs=4", "-j2"]) == ["--jobs", "1"]
    text = "==71== Events    : Ir\n==71== Collected : 1,363,142,455\n==71==\n"
    assert ab.collected(text) == 1_363_142_455
    assert ab.collected("valgrind: no such tool") is None


def _report(same=True, exits=(0, 0)):
    return {
        "files": 400,
        "rounds": 2,
        "options": ["--no-cache", "--jobs", "2"],
        "revisions": {"base": "HEAD", "head": "."},
        "same_output": same,
        "runs": {
            "base": {"seconds": 0.5, "cpu": 0.6, "rss_mb": 60.0, "exit": [0, exits[0]]},
            "head": {
                "seconds": 0.4,
                "cpu": 0.5,
                "rss_mb": 66.0,
                "exit": [0, exits[1]],
                "instructions": 900,
            },
        },
        "ratios": {"seconds": 0.8, "cpu": 0.833, "rss_mb": 1.1, "instructions": None},
    }


def test_the_table_names_both_revisions_and_their_ratio(ab):
    assert ab.markdown(_report()) == (
        "400 files, `si-lint check --no-cache --jobs 2 .`, median of 2 paired round(s); "
        "base `HEAD`, head `.`; same output: yes\n"
        "\n"
        "| | wall s | CPU s | peak RSS MB | instructions | exit |\n"
        "|---|---:|---:|---:|---:|---|\n"
        "| base | 0.5 | 0.6 | 60.0 | n/a | [0, 0] |\n"
        "| head | 0.4 | 0.5 | 66.0 | 900 | [0, 0] |\n"
        "| head / base | 0.8 | 0.833 | 1.1 | n/a | |"
    )


def test_a_different_output_or_a_failed_run_fails_the_comparison(ab):
    assert not ab.failed(_report())
    assert ab.failed(_report(same=False))
    assert ab.failed(_report(exits=(0, 2)))
    assert not ab.failed(_report(exits=(1, 1)))  # findings are not a failure
    assert "same output: **no**" in ab.markdown(_report(same=False))


def _git_checkout() -> bool:
    if shutil.which("git") is None or shutil.which("tar") is None:
        return False
    proc = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "HEAD"],
        capture_output=True,
        check=False,
    )
    return proc.returncode == 0


@pytest.mark.skipif(not _git_checkout(), reason="needs a git checkout of si-lint, git and tar")
def test_a_revision_against_itself_gives_the_same_output(ab, capsys):
    """End to end on a small corpus: both revisions are materialised from git with their
    data (rules/, schemas/), run, and give byte-identical reports."""
    argv = ["--base", "HEAD", "--head", "HEAD", "--files", "30", "--rounds", "1"]
    assert ab.main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["same_output"] is True
    assert report["revisions"] == {"base": "HEAD", "head": "HEAD"}
    for name in ("base", "head"):
        run = report["runs"][name]
        assert run["exit"] == [0]
        assert run["seconds"] > 0 and run["cpu"] > 0
