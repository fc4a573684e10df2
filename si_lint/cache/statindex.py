"""The stat index: a file's content hash, known without reading the file when its
``stat`` has not changed since a run read and hashed it (``stat.json`` in the cache
directory, signed and under the cache's header like every table).

An entry is ``abspath: [size, mtime_ns, ctime_ns, inode, device, sha256]``: the stat of the
very file descriptor the bytes were read from, and the sha256 of those bytes. A later run
takes ``sha256`` without reading the file only when all five stat fields are equal.

git's racy-clean rule, by construction: an entry is stored only when the file's mtime
and ctime are both at least :data:`RACY_NS` older than the moment the run began to read
(taken before the ``stat``). Any later change to the file — a write of the same size, a
``touch`` back to the old mtime (the kernel sets ctime to the present on every change,
and nothing can set it back), a rename over it (another inode) — then gives a stat that
differs from the entry, so the file is read and hashed again. A file written less than
:data:`RACY_NS` before a run read it is hashed every time until it is older. The margin
covers file-system timestamp granularity (FAT: 2 s) and the kernel's coarse clock.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from .directory import prepare
from .signed import dumps, verified_json, write_signed

FILENAME = "stat.json"
#: a file changed less than this long before a run began reading is never indexed
RACY_NS = 2_000_000_000


def stat_key(st: os.stat_result) -> list[int]:
    """The stat fields an entry must match: size, mtime, ctime (ns), inode, device."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


class StatIndex:
    """The index of one cache directory under one header (``header``: the cache's)."""

    def __init__(self, directory: Path | None, header: list):
        self.directory = directory
        self.header = header
        self.started_ns = time.time_ns()  # before any stat of this run
        self._old: dict[str, Any] | None = None
        self._new: dict[str, list] = {}

    def _table(self) -> dict[str, Any]:
        if self._old is None:
            self._old = {}
            if self.directory is not None:
                obj = verified_json(self.directory / FILENAME)
                if (
                    type(obj) is dict
                    and obj.get("header") == self.header
                    and type(obj.get("files")) is dict
                ):
                    self._old = obj["files"]
        return self._old

    def begin(self) -> None:
        """A read stage starts: entries this run makes are judged racy from now."""
        self.started_ns = time.time_ns()

    def known(self, abspath: str, st: os.stat_result) -> str | None:
        """The sha256 of ``abspath``'s bytes when its stat is the entry's, else None (kept
        in the index written back)."""
        entry = self._table().get(abspath)
        if not (type(entry) is list and len(entry) == 6):
            return None
        sha = entry[5]
        if entry[:5] != stat_key(st) or type(sha) is not str or len(sha) != 64:
            return None
        self._new[abspath] = entry
        return sha

    def note(self, abspath: str, st: os.stat_result, sha: str) -> None:
        """``sha`` is the hash of the bytes read from the file whose stat is ``st``:
        indexed unless the file changed too recently to be told apart from a later change."""
        limit = self.started_ns - RACY_NS
        if st.st_mtime_ns < limit and st.st_ctime_ns < limit and sha:
            self._new[abspath] = [*stat_key(st), sha]
        else:
            self._new.pop(abspath, None)

    def save(self) -> None:
        """Write the entries this run confirmed or made, when they differ from the file's."""
        unchanged = self._new == self._old if self._old is not None else not self._new
        if self.directory is None or unchanged:
            return
        body = dumps({"header": self.header, "files": self._new})
        # not indexed: hashed again next time
        with contextlib.suppress(OSError, TypeError, ValueError, RecursionError):
            prepare(self.directory)
            write_signed(self.directory / FILENAME, [body], mode=0o600)
