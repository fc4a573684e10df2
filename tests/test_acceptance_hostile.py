"""Issue 11 acceptance: a corpus of hostile files finishes fast with a finding or a note for
each and never prints a file outside the root; a file edited while ``check`` runs is never
cached under the wrong key."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import REPO, run_cli, write_files

DUP = "title: t\nowner: a\nowner: b\n"


@pytest.mark.slow
def test_hostile_corpus_finishes_fast_with_a_finding_or_note_for_each(tmp_path):
    outside = tmp_path / "outside"
    write_files(outside, {"secrets.yaml": "DB_PASSWORD: hunter2\nDB_PASSWORD: hunter2\n"})
    root = tmp_path / "corpus"
    write_files(root, {"si-lint.toml": "", "ok.yaml": DUP})
    os.mkfifo(root / "fifo.yaml")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock.yaml"))
    os.symlink("loop-b.yaml", root / "loop-a.yaml")
    os.symlink("loop-a.yaml", root / "loop-b.yaml")
    os.symlink(outside / "secrets.yaml", root / "leak.yaml")
    (root / "unreadable.yaml").write_text("a: 1\n")
    os.chmod(root / "unreadable.yaml", 0)
    with open(root / "million.yaml", "w") as fh:
        fh.write("-\n" * 1_000_000)
    with open(root / "dups.yaml", "w") as fh:
        fh.write("".join(f"k: {i}\n" for i in range(3000)))
    # one line of 4.6 MB and 45,000 scalars (minified JSON): quadratic once (~7 s)
    (root / "one-line.json").write_text(json.dumps(["x" * 100] * 45_000, separators=(",", ":")))
    try:
        start = time.perf_counter()
        code, out, err = run_cli(["check", "--no-cache", "--format", "json", "--verbose"], root)
        elapsed = time.perf_counter() - start
        code_t, text, err_t = run_cli(["check", "--no-cache", "--verbose"], root)
    finally:
        sock.close()
        os.chmod(root / "unreadable.yaml", 0o644)
    assert code == 1 and code_t == 1, err
    assert elapsed < 5.0
    assert "hunter2" not in out + err + text + err_t
    got = {(d["code"], d["path"]) for d in json.loads(out)["diagnostics"]}
    assert ("SI005", "million.yaml") in got  # the node limit, within a fraction of a second
    assert ("SI001", "loop-a.yaml") in got and ("SI001", "loop-b.yaml") in got
    dups = [d for d in json.loads(out)["diagnostics"] if d["path"] == "dups.yaml"]
    assert len(dups) == 1001 and dups[-1]["message"] == (
        "1,999 more findings suppressed (at most 1,000 are reported per file)"
    )
    assert "skipped fifo.yaml: a FIFO, not a regular file; never opened" in err
    assert "skipped sock.yaml: a socket, not a regular file; never opened" in err
    assert "skipped leak.yaml: a symbolic link to a file outside the corpus root; not read" in err
    if os.geteuid() != 0:  # root reads a mode-000 file: nothing to report then
        assert ("SI001", "unreadable.yaml") in got


def _check(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "si_lint.cli", "check", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


@pytest.mark.slow
def test_files_edited_while_check_runs_are_never_cached_under_the_wrong_key(tmp_path):
    """Two contents flip while checks with the cache run, round after round; afterwards the
    cached result must be the one for the content on disk (issue 11 item 2: the run cache
    stored the second read's findings under the first read's key)."""
    contents = [DUP, "title: clean\n"]
    files = {f"f{i}.yaml": contents[i % 2] for i in range(20)}
    write_files(tmp_path, files)
    stop = threading.Event()

    def flip():
        n = 0
        while not stop.is_set():
            n += 1
            for i in range(20):
                (tmp_path / f"f{i}.yaml").write_text(contents[(i + n) % 2])
            time.sleep(0.002)

    for _round in range(2):
        t = threading.Thread(target=flip)
        t.start()
        try:
            for _ in range(2):
                _check(tmp_path)
        finally:
            stop.set()
            t.join()
        stop.clear()
        assert _check(tmp_path) == _check(tmp_path, "--no-cache")
        (tmp_path / "f0.yaml").write_text(contents[_round % 2])  # one more change
        assert _check(tmp_path) == _check(tmp_path, "--no-cache")
