"""Small file-system helpers shared by the cache, --fix and --output."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import BinaryIO, Iterator


@contextmanager
def atomic_writer(path) -> Iterator[BinaryIO]:
    """A binary file handle whose contents replace ``path`` atomically when the block ends
    (temporary file in the same directory + rename); on an exception ``path`` is untouched
    and the temporary file is removed. The file keeps ``path``'s permissions (0644 when new)."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".si-lint-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except OSError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path) as fh:
        fh.write(data)
