"""The ``si-lint`` command (``cli.console``) exits without the interpreter's teardown once
its output is flushed: what it prints and its exit status are :func:`si_lint.cli.main`'s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

REPO = Path(__file__).resolve().parents[1]
CONSOLE = "from si_lint.cli import console; console()"


def _console(cwd, env, *args, script=CONSOLE) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_console_prints_and_exits_as_main_does(tmp_path, user_env):
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
def test_the_console_keeps_every_exit_status_and_message(
    tmp_path, user_env, args, code, stream, text
):
    proc = _console(tmp_path, user_env, *args)
    assert proc.returncode == code
    assert text in getattr(proc, stream)


def test_a_message_given_to_sys_exit_is_printed_with_status_1(tmp_path, user_env):
    script = (
        "import sys; import si_lint.cli as c; "
        "c.main = lambda: sys.exit('si-lint: stopped'); c.console()"
    )
    proc = _console(tmp_path, user_env, script=script)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", "si-lint: stopped\n")


def test_the_installed_command_is_the_console():
    text = (REPO / "pyproject.toml").read_text()
    assert 'si-lint = "si_lint.cli:console"' in text


def test_a_check_keeps_its_last_result_for_the_exit(tmp_path):
    """The check command keeps the last run's result (one slot) so that its corpus is not
    freed object by object before the console's exit; a second run replaces it."""
    from si_lint.commands import check_run

    (tmp_path / "s.yaml").write_text("id: x\nclassification: capability\n")
    run_cli(["check", "--no-cache", "--format", "json", "s.yaml"], tmp_path)
    first = check_run._LAST[0]
    assert [f.code for f in first.findings] and first.corpus.documents[0].relpath == "s.yaml"
    run_cli(["check", "--no-cache", "--format", "json", "s.yaml"], tmp_path)
    assert check_run._LAST[0] is not first and len(check_run._LAST) == 1
