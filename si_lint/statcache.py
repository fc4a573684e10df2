"""The stat index of the cache directory (``stat.json``): an unchanged file costs a ``stat``.

Like git's index: for every file the read stage hashed, the index records its size,
``mtime_ns``, ``ctime_ns``, inode and device next to the content hash (sha256). On the next
run a file whose ``stat`` gives the same five numbers gets the recorded hash without being
read; a file whose numbers differ (or that is not in the index) is read and hashed as
before. The bytes are read later only if the per-file cache has no entry for that hash.

Racily clean files (as git calls them): a file modified within :data:`RACY_NS` of the
moment the index was written could change again without its numbers changing (timestamp
granularity), so its entry is not trusted: it is read and hashed, and the index is
rewritten (with a later time), after which it is trusted. Any other change to a file
changes its ``ctime`` too (also one that puts the ``mtime`` back), which is in the key.

The file is data only (JSON: a magic string, the write time, ``{abspath: [size, mtime_ns,
ctime_ns, inode, device, sha256]}``), written atomically; anything else found there is
ignored (a cache may arrive in a pull request: never trusted, never a crash).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

MAGIC = "si-lint-stat/1"
FILENAME = "stat.json"
#: entries of files modified this close to the index's write time are not trusted
RACY_NS = 2_000_000_000
_SHA = re.compile(r"[0-9a-f]{64}\Z")


def stat_key(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


class StatIndex:
    def __init__(self, directory: Path | None):
        self.directory = directory
        self.written_ns = 0
        self.old: dict[str, list] = {}
        self.new: dict[str, list] = {}
        self.racy = False
        if directory is not None:
            self._load(Path(directory) / FILENAME)

    def _load(self, path: Path) -> None:
        try:
            with open(path, "rb") as fh:
                obj = json.loads(fh.read(256 * 2**20))
        except (OSError, ValueError, RecursionError):
            return
        if not (isinstance(obj, dict) and obj.get("magic") == MAGIC
                and type(obj.get("written_ns")) is int and isinstance(obj.get("entries"), dict)):
            return
        self.written_ns = obj["written_ns"]
        for path_, e in obj["entries"].items():
            if (isinstance(e, list) and len(e) == 6 and all(type(v) is int for v in e[:5])
                    and isinstance(e[5], str) and _SHA.match(e[5])):
                self.old[path_] = e

    def lookup(self, abspath: str, st: os.stat_result) -> str | None:
        """The recorded content hash when the file's stat is unchanged (and not racy)."""
        e = self.old.get(abspath)
        if e is None or e[:5] != stat_key(st):
            return None
        if st.st_mtime_ns >= self.written_ns - RACY_NS:
            self.racy = True  # rewrite the index so that the entry is trusted next time
            return None
        return e[5]

    def record(self, abspath: str, st: os.stat_result, sha: str) -> None:
        self.new[abspath] = stat_key(st) + [sha]

    def forget(self, abspath: str) -> None:
        self.new.pop(abspath, None)

    def save(self) -> None:
        """Write the index of this run's files when it differs from the one read."""
        if self.directory is None or (self.new == self.old and not self.racy):
            return
        blob = json.dumps({"magic": MAGIC, "written_ns": time.time_ns(),
                           "entries": self.new}, separators=(",", ":")).encode()
        try:
            directory = Path(self.directory)
            directory.mkdir(parents=True, exist_ok=True)
            gitignore = directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("*\n")
            from .fsutil import atomic_write

            atomic_write(directory / FILENAME, blob)
        except OSError:
            pass  # a read-only tree still lints; it just is not indexed
