"""`si-lint check --watch` (issue 44, ruff's ``-w``): a check, then another whenever a file
of the run changes; Ctrl-C exits 0; SI_LINT_WATCH_RUNS bounds the number of checks. The
loop runs in a process of its own, its whole stdout and stderr read back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import run_cli, write_files
from test_check_ruff_options import S101, S113, TWO
from test_cli_conventions import SCENARIO

WATCHING = "si-lint: watching 4 path(s) for changes (Ctrl-C stops)\n"
AGAIN = "si-lint: a file changed: checking again\n"


def _start(cwd, env, runs: str | None):
    env = dict(env)
    if runs is not None:
        env["SI_LINT_WATCH_RUNS"] = runs
    return subprocess.Popen(
        [sys.executable, "-m", "si_lint.cli", "check", "-n", "-w", "--format", "concise", *TWO],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _touch(path, text: str, corpus) -> None:
    """Write ``text`` with a modification time surely not the one the loop recorded, in one
    step: written in place, a poll between the truncation and the write would check an
    empty file; so it is written beside the corpus (no watched directory) and renamed in."""
    before = os.stat(path).st_mtime_ns
    tmp = Path(tempfile.mkdtemp(dir=corpus.parent)) / path.name
    tmp.write_text(text, encoding="utf-8")
    os.utime(tmp, ns=(before + 2_000_000_000, before + 2_000_000_000))
    os.replace(tmp, path)


def _corpus(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", "scenarios/s.yaml": SCENARIO})
    return tmp_path


def test_watch_checks_again_when_a_file_changes(tmp_path, user_env):
    corpus = _corpus(tmp_path)
    proc = _start(corpus, user_env, "2")
    try:
        assert proc.stderr.readline() == WATCHING  # the first check is done
        _touch(corpus / "scenarios/s.yaml", SCENARIO.replace("  type: graded\n", ""), corpus)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    # the first check, then the second (SI101 fixed by hand, SI113 now on line 17)
    assert (proc.returncode, out, err) == (
        0,
        S101 + S113 + S113.replace(":18:22:", ":17:22:"),
        AGAIN,
    )


def test_watch_reports_a_broken_configuration_and_goes_on(tmp_path, user_env):
    corpus = _corpus(tmp_path)
    proc = _start(corpus, user_env, "2")
    try:
        assert proc.stderr.readline() == WATCHING
        _touch(corpus / "si-lint.toml", 'select = ["XX9"]\n', corpus)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    toml = corpus / "si-lint.toml"
    assert (proc.returncode, out, err) == (
        0,
        S101 + S113,
        AGAIN
        + f"si-lint: {toml}: `select`: 'XX9' matches no rule (`si-lint rule` lists them; codes are case-sensitive)\n",
    )


def test_ctrl_c_ends_the_watch_with_status_0(tmp_path, user_env):
    corpus = _corpus(tmp_path)
    proc = _start(corpus, user_env, None)
    try:
        assert proc.stderr.readline() == WATCHING
        time.sleep(0.2)  # in the polling loop
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (0, S101 + S113, "")


def test_one_run_is_one_check(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path)
    monkeypatch.setenv("SI_LINT_WATCH_RUNS", "1")
    args = ["check", "-n", "--watch", "--format", "concise", *TWO]
    assert run_cli(args, corpus) == (0, S101 + S113, "")


def test_a_bad_bound_is_a_usage_error(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path)
    monkeypatch.setenv("SI_LINT_WATCH_RUNS", "0")
    assert run_cli(["check", "-n", "--watch"], corpus) == (
        2,
        "",
        "si-lint: SI_LINT_WATCH_RUNS='0': must be a whole number of checks, 1 or more\n",
    )


def test_watch_takes_paths_not_stdin(tmp_path):
    corpus = _corpus(tmp_path)
    args = ["check", "-n", "--watch", "-", "--stdin-filename", "scenarios/s.yaml"]
    assert run_cli(args, corpus) == (
        2,
        "",
        "si-lint: --watch works on files, not on stdin (`-`)\n",
    )


def test_silent_watch_prints_nothing(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path)
    monkeypatch.setenv("SI_LINT_WATCH_RUNS", "1")
    assert run_cli(["check", "-n", "--watch", "--silent", *TWO], corpus) == (0, "", "")
