"""The writing side of --fix (issue 11 item 10): through symbolic links to their targets,
keeping modes and hard links, refusing read-only files, and no temporary file left behind
on SIGINT or SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import REPO, run_cli, write_files
from test_fix import BROKEN, FIXED

CONFIG = 'ignore = ["SI3", "SI4"]\n'


def test_fix_writes_through_a_symlink_to_its_target(tmp_path):
    write_files(tmp_path, {"si-lint.toml": CONFIG, "real/s.yaml": BROKEN})
    os.symlink("real/s.yaml", tmp_path / "alias.yaml")
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes", "alias.yaml"],
        tmp_path,
    )
    assert (tmp_path / "alias.yaml").is_symlink()
    assert (tmp_path / "real/s.yaml").read_text() == FIXED
    assert code == 0, (out, err)


def test_fix_keeps_the_mode_and_hard_links(tmp_path):
    root = tmp_path / "corpus"
    write_files(root, {"si-lint.toml": CONFIG, "s.yaml": BROKEN})
    path = root / "s.yaml"
    os.chmod(path, 0o640)
    os.link(path, tmp_path / "other-name.yaml")  # a second name, outside the corpus
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], root
    )
    assert code == 0, (out, err)
    assert path.read_text() == FIXED == (tmp_path / "other-name.yaml").read_text()
    assert os.stat(path).st_nlink == 2
    assert os.stat(path).st_mode & 0o7777 == 0o640
    assert sorted(p.name for p in root.iterdir()) == ["s.yaml", "si-lint.toml"]


def test_fix_refuses_a_read_only_file(tmp_path):
    write_files(tmp_path, {"si-lint.toml": CONFIG, "s.yaml": BROKEN})
    path = tmp_path / "s.yaml"
    os.chmod(path, 0o444)
    try:
        code, out, err = run_cli(
            ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], tmp_path
        )
        assert path.read_text() == BROKEN
        assert (
            "si-lint: s.yaml: not fixed: the file is read-only; its findings stay reported" in err
        )
        assert code == 1 and "s.yaml:" in out  # the findings stay reported
        assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml", "si-lint.toml"]
    finally:
        os.chmod(path, 0o644)


def _writer(tmp_path: Path) -> subprocess.Popen:
    script = textwrap.dedent(f"""
        import signal, sys, time
        # a child of a background job inherits SIGINT ignored: restore Python's default
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.path.insert(0, {str(REPO)!r})
        from si_lint.fsutil import atomic_writer
        with atomic_writer({str(tmp_path / "f.yaml")!r}) as fh:
            fh.write(b"new")
            print("writing", flush=True)
            time.sleep(30)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "writing\n"
    return proc


def test_interrupted_writes_leave_no_temporary_file(tmp_path):
    (tmp_path / "f.yaml").write_text("old")
    for sig in (signal.SIGTERM, signal.SIGINT):
        proc = _writer(tmp_path)
        assert any(p.name.startswith(".si-lint-") for p in tmp_path.iterdir())
        proc.send_signal(sig)
        proc.wait(timeout=10)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["f.yaml"], sig
        assert (tmp_path / "f.yaml").read_text() == "old"
