"""The stat index (``stat.json``): ``abspath: [size, mtime_ns, ctime_ns, inode, device,
sha256]``, the ``fstat`` of the descriptor the hashed bytes were read from, stored under
git's racy-clean rule (ARCHITECTURE.md, "The cache")."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from .signed import dumps, verified_json, write_signed

FILENAME = "stat.json"
#: a file changed less than this long before a run began reading is never indexed (the
#: margin covers timestamp granularity, FAT's 2 s, and the kernel's coarse clock)
RACY_NS = 2_000_000_000


def stat_key(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


class StatIndex:
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
                obj = verified_json(self.directory / FILENAME, self.header)
                if obj is not None and type(obj.get("files")) is dict:
                    self._old = obj["files"]
        return self._old

    def begin(self) -> None:
        """A read stage starts: entries this run makes are judged racy from now."""
        self.started_ns = time.time_ns()

    def known(self, abspath: str, st: os.stat_result) -> str | None:
        """The sha256 of ``abspath``'s bytes when its stat is the entry's, else None."""
        entry = self._table().get(abspath)
        if not (type(entry) is list and len(entry) == 6):
            return None
        sha = entry[5]
        if entry[:5] != stat_key(st) or type(sha) is not str or len(sha) != 64:
            return None
        self._new[abspath] = entry
        return sha

    def note(self, abspath: str, st: os.stat_result, sha: str) -> None:
        """Index ``sha`` unless the file changed too recently to tell from a later change."""
        limit = self.started_ns - RACY_NS
        if st.st_mtime_ns < limit and st.st_ctime_ns < limit and sha:
            self._new[abspath] = [*stat_key(st), sha]
        else:
            self._new.pop(abspath, None)

    def save(self) -> None:
        unchanged = self._new == self._old if self._old is not None else not self._new
        if self.directory is None or unchanged:
            return
        body = dumps({"header": self.header, "files": self._new})
        write_signed(self.directory, FILENAME, [body])
