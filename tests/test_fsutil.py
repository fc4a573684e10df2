"""``fsutil.read_regular``: the bytes of a regular file, at most the limit plus one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from si_lint.fsutil import read_regular


@pytest.mark.parametrize("size", [0, 1, 4095, 65_536, 70_000, 1 << 20])
def test_a_regular_file_is_read_whole(tmp_path, size):
    path = tmp_path / "f"
    data = bytes(i % 251 for i in range(size))
    path.write_bytes(data)
    assert read_regular(path, 2 << 20) == (data, None)
    assert read_regular(path, 2 << 20, st=os.stat(path)) == (data, None)


def test_over_the_limit_reads_one_byte_more(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 1000)
    assert read_regular(path, 10) == (b"x" * 11, None)


def test_a_file_whose_stat_gives_no_size_is_read_to_its_end():
    status = Path("/proc/self/status")
    if not status.is_file() or os.stat(status).st_size != 0:
        pytest.skip("no /proc file that stat says is empty")
    raw, why = read_regular(status, 1 << 20)
    assert why is None and raw.startswith(b"Name:") and raw.endswith(b"\n")


def test_not_a_regular_file_is_never_opened(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    assert read_regular(fifo, 10) == (None, "not a regular file (a FIFO)")
    assert read_regular(tmp_path, 10) == (None, "not a regular file (a directory)")
