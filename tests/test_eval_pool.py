"""`si-lint eval` on a large `.jsonl` file: its lines are scored by worker processes, and
the output (JSON and text) and exit status are byte for byte those of scoring them in
the parent — also when the pool cannot start or a worker dies."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner
from test_eval_artifacts import DA1, artifact

from si_lint.cli import cli
from si_lint.commands import eval as eval_cmd
from si_lint.commands import eval_input, eval_pool

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks")


def run(*args):
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture
def big(tmp_path, monkeypatch):
    """A `.jsonl` of 400 lines (every verdict kind, bad lines among them), with the
    pool's thresholds lowered so that it goes to the workers in many batches."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(eval_input, "MAX_LINE_BYTES", 20_000)
    (tmp_path / "da1.yaml").write_text(DA1)
    answers = [
        "The SMTP_PORT key is missing.",
        "SMTP_PORT",
        "Something about smtp-config.",
        "Nothing to see.",
    ]
    lines = []
    for i in range(400):
        kind = i % 11
        if kind == 7:
            lines.append("{nope")
        elif kind == 8:
            lines.append("[" * 80 + "]" * 80)
        elif kind == 9:
            lines.append("x" * 30_000)
        elif kind == 10:
            lines.append("")
        else:
            results = ["ok"] * (16 if i % 5 == 0 else 2)
            lines.append(json.dumps(artifact(answers[i % 4], results=results)))
    (tmp_path / "big.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(eval_pool, "POOL_BYTES", 1)
    monkeypatch.setattr(eval_pool, "BATCH_BYTES", 5_000)
    monkeypatch.setattr(eval_pool, "BATCH_LINES", 7)
    return tmp_path


def _outputs(monkeypatch, jobs):
    monkeypatch.setattr(eval_cmd, "default_jobs", lambda: jobs)
    return [
        run("eval", "--format", fmt, "da1.yaml", "big.jsonl", "big.jsonl")
        for fmt in ("json", "text")
    ]


def test_the_pool_writes_what_the_parent_writes(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)
    assert serial[0][0] == 1  # some lines are errors
    assert len(json.loads(serial[0][1])) == 2 * 364
    assert _outputs(monkeypatch, 2) == serial
    assert _outputs(monkeypatch, 3) == serial


def test_a_pool_that_cannot_start_loses_nothing(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)

    def no_fork(self):
        self.broken = True

    monkeypatch.setattr(eval_pool.LinePool, "_start", no_fork)
    assert _outputs(monkeypatch, 2) == serial


def test_a_worker_that_dies_loses_nothing(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)
    parent = os.getpid()
    start = eval_pool.LinePool._start

    def start_dying(self):  # every worker dies on its first line; the parent scores all
        render = self.render

        def dying(*line):
            if os.getpid() != parent:
                os._exit(3)
            return render(*line)

        self.render = dying
        start(self)

    monkeypatch.setattr(eval_pool.LinePool, "_start", start_dying)
    assert _outputs(monkeypatch, 2) == serial


def test_a_small_file_is_scored_in_process(big, monkeypatch):
    monkeypatch.setattr(eval_pool, "POOL_BYTES", 1 << 40)

    def never(self):
        raise AssertionError("no pool for a small file")

    monkeypatch.setattr(eval_pool.LinePool, "_start", never)
    monkeypatch.setattr(eval_cmd, "default_jobs", lambda: 2)
    code, out = run("eval", "--format", "json", "da1.yaml", "big.jsonl")
    assert code == 1 and len(json.loads(out)) == 364
