"""The ``si-lint`` command in a process of its own: what it prints and its exit status are
:func:`si_lint.cli.main`'s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

REPO = Path(__file__).resolve().parents[1]
CONSOLE = "from si_lint.cli import main; main()"


def _console(cwd, env, *args, script=CONSOLE) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_process_prints_and_exits_as_main_does(tmp_path, user_env):
    (tmp_path / "s.yaml").write_text("id: x\nclassification: capability\n")
    args = ["check", "--no-cache", "--format", "json", "s.yaml"]
    proc = _console(tmp_path, user_env, *args)
    code, out, _err = run_cli(args, tmp_path)
    assert (proc.returncode, proc.stdout) == (code, out)
    assert code == 1 and json.loads(out)["diagnostics"]  # every byte was flushed


@pytest.mark.parametrize(
    ("args", "code", "stream", "text"),
    [
        (["--version"], 0, "stdout", "si-lint, version "),
        (["check", "--no-such-option"], 2, "stderr", "Error: No such option '--no-such-option'."),
        (["check", "--no-cache", "no-such-file.yaml"], 2, "stderr", "no-such-file.yaml"),
    ],
)
def test_the_process_keeps_every_exit_status_and_message(
    tmp_path, user_env, args, code, stream, text
):
    proc = _console(tmp_path, user_env, *args)
    assert proc.returncode == code
    assert text in getattr(proc, stream)
