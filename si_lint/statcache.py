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

The file is data only (JSON: a magic string, the write time, the paths, and per path in
base64 its size, ``mtime_ns`` and ``ctime_ns`` as little-endian signed 64-bit numbers, its
inode and device as unsigned ones and its sha256 as 32 bytes: an array decodes in one
call, where a list per file cost a Python list and six objects each -- 7.9 ms of the
4,000-file index), written and read like the cache's own files
(:mod:`si_lint.cache`: signed, atomic, regular files only, never through a symbolic link);
anything else found there is ignored (a cache may arrive in a pull request: never
trusted, never a crash).
"""

from __future__ import annotations

import os
import sys
import time
from functools import cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the replay path)
if TYPE_CHECKING:
    from typing import Any

MAGIC = "si-lint-stat/2"
FILENAME = "stat.json"
#: entries of files modified this close to the index's write time are not trusted
RACY_NS = 2_000_000_000
#: an index that differs from the one read in at most this many entries of at most
#: :data:`SMALL_BYTES` in all (the same files: none added or removed) is not rewritten:
#: those files are read and hashed again by the next run, where rewriting the index costs
#: every entry (a 4,000-file corpus: 11 ms for one edited file)
SMALL_CHANGE = 16
SMALL_BYTES = 1 << 20


def stat_key(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def stat_of(path: str) -> list[int] | None:
    """:func:`stat_key` of ``path`` (following a symbolic link), or None when it is absent
    or cannot be reached (what the run memo records for a path looked for)."""
    try:
        return stat_key(os.stat(path))
    except (OSError, ValueError):
        return None


#: what :func:`record_presence` records for a path that exists: only its existence matters
#: (a work tree's ``.git``, whose mtime every ``git add`` changes)
PRESENT = [-1]


def record_presence(deps: dict | None, path: str) -> None:
    """Note in ``deps`` whether ``path`` exists (``os.path.lexists``), not its ``stat``."""
    if deps is not None and path not in deps:
        deps[path] = PRESENT if os.path.lexists(path) else None


#: the dependencies :func:`unchanged` last found changed, with their write time: the
#: replay check and the recall stage ask about the same run memo (the same object:
#: ``cache.signed.verified_json(keep=True)``), and once changed it may be taken as changed
#: (a run that re-checks is never wrong)
_CHANGED: list = []
#: ``[deps, {path: os.stat_result or ABSENT}]``: the ``stat`` of every path of ``deps``
#: the check that found them changed took (:func:`taken` hands them over once)
_TAKEN: list = []
#: what :func:`taken` gives for a path whose ``stat`` failed (absent, unreachable)
ABSENT = object()


def stat_or_absent(path: str):
    """``os.stat(path)``, or :data:`ABSENT` when it fails (absent, unreachable, a NUL in
    the path)."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return ABSENT


def unchanged(deps: dict, written_ns: int, paths=None, seen: dict | None = None) -> bool:
    """Every path of ``deps`` (``{path: stat_of(path)}`` recorded by a run that wrote its
    result at ``written_ns``), or those of ``paths``, has the ``stat`` it had. A path
    modified within :data:`RACY_NS` of the writing could change again unseen (timestamp
    granularity): not trusted (git's "racily clean" rule).

    Checking every path, it goes on past the first change and keeps each ``stat`` it
    took for :func:`taken`: the run that follows re-checks, and stats those paths again
    otherwise (the files in the read stage, the directories for the walk). ``seen``
    (from :func:`taken`): ``stat`` results taken already this run, used instead of a
    new one."""
    if paths is None and _CHANGED and _CHANGED[0] is deps and _CHANGED[1] == written_ns:
        return False
    took = {} if paths is None else None
    if _check_all(deps, written_ns, paths, seen or {}, took):
        return True
    if took is not None:
        _CHANGED[:] = [deps, written_ns]
        _TAKEN[:] = [deps, took]
    return False


def taken(deps: dict) -> dict:
    """The ``stat`` results (``{path: os.stat_result}``, :data:`ABSENT` where it failed)
    taken by the :func:`unchanged` that found ``deps`` (the same object) changed, handed
    over once: none else."""
    if _TAKEN and _TAKEN[0] is deps:
        took = _TAKEN[1]
        _TAKEN.clear()
        return took
    return {}


def _check_all(deps: dict, written_ns: int, paths, seen: dict, took: dict | None) -> bool:
    """``took`` None: stop at the first change; else check every path, keeping in
    ``took`` each ``stat`` taken."""
    limit = written_ns - RACY_NS
    same = True
    for path in deps if paths is None else paths:
        if type(path) is not str or path not in deps:
            return False
        was = deps[path]
        if was == PRESENT:
            ok = os.path.lexists(path)
        else:
            st = seen.get(path)
            if st is None:
                st = stat_or_absent(path)
                if took is not None:
                    took[path] = st
            if st is ABSENT:
                ok = was is None
            else:
                ok = (
                    type(was) is list
                    and len(was) == 5
                    and _same_stat(st, was)
                    and st.st_mtime_ns < limit
                )
        if not ok:
            if took is None:
                return False
            same = False
    return same


def _same_stat(st: os.stat_result, key) -> bool:
    """``stat_key(st)`` is the first five of ``key`` (a run memo's list, an index entry),
    without building the list: this runs for every file of every run."""
    return (
        st.st_mtime_ns == key[1]
        and st.st_size == key[0]
        and st.st_ctime_ns == key[2]
        and st.st_ino == key[3]
        and st.st_dev == key[4]
    )


def record(deps: dict | None, path: str) -> None:
    """Note in ``deps`` (the run memo's dependencies, or None) the ``stat`` of ``path``."""
    if deps is not None and path not in deps:
        deps[path] = stat_of(path)


class StatIndex:
    def __init__(self, cache: Any):
        """``cache``: the run's :class:`si_lint.cache.Cache` (its directory holds the index)."""
        from array import array

        self.cache = cache
        self.written_ns = 0
        self.rows: dict[str, int] = {}  # the index read: path -> its row
        self.times = array("q")  # size, mtime_ns, ctime_ns of each row
        self.ids = array("Q")  # inode, device of each row
        self.shas = b""  # the sha256 of each row, 32 bytes each
        #: this run's files: ``(size, mtime_ns, ctime_ns, inode, device, sha)``, or None
        #: for a file whose row :meth:`lookup` gave
        self.new: dict[str, tuple | None] = {}
        self.racy = False  # an entry was not trusted: it was racy
        if cache is not None and cache.enabled:
            from .cache.signed import verified_json

            self._load(verified_json(cache.directory / FILENAME, shape=_shape()))

    def _load(self, obj: Any) -> None:
        """The rows of a decoded index; anything not exactly what :meth:`save` writes
        leaves the index empty (every file is read and hashed)."""
        import binascii

        if not (
            isinstance(obj, dict)
            and obj.get("magic") == MAGIC
            and type(obj.get("written_ns")) is int
            and type(obj.get("paths")) is list
            and type(obj.get("times")) is str
            and type(obj.get("ids")) is str
            and type(obj.get("shas")) is str
        ):
            return
        paths = obj["paths"]
        try:
            times, ids, shas = (
                binascii.a2b_base64(obj[k], strict_mode=True) for k in ("times", "ids", "shas")
            )
        except (binascii.Error, ValueError):
            return
        n = len(paths)
        rows = dict(zip(paths, range(n)))
        if not (
            len(rows) == n
            and all(type(p) is str for p in paths)
            and len(times) == 24 * n
            and len(ids) == 16 * n
            and len(shas) == 32 * n
        ):
            return
        self.times.frombytes(times)
        self.ids.frombytes(ids)
        if _BIG_ENDIAN:
            self.times.byteswap()
            self.ids.byteswap()
        self.rows, self.shas, self.written_ns = rows, shas, obj["written_ns"]

    def lookup(self, abspath: str, st: os.stat_result) -> str | None:
        """The recorded content hash when the file's stat is unchanged (and not racy);
        then the file's row is kept as it is (:meth:`record` not needed)."""
        i = self.rows.get(abspath)
        if i is None:
            return None
        times, ids, j = self.times, self.ids, 3 * i
        if not (
            st.st_mtime_ns == times[j + 1]
            and st.st_size == times[j]
            and st.st_ctime_ns == times[j + 2]
            and st.st_ino == ids[2 * i]
            and st.st_dev == ids[2 * i + 1]
        ):
            return None
        if st.st_mtime_ns >= self.written_ns - RACY_NS:
            self.racy = True  # rewrite the index so that the entry is trusted next time
            return None
        self.new[abspath] = None
        return self.shas[32 * i : 32 * i + 32].hex()

    def record(self, abspath: str, st: os.stat_result, sha: str) -> None:
        self.record_key(abspath, stat_key(st), sha)

    def record_key(self, abspath: str, key: list, sha: str) -> None:
        """:meth:`record` of a :func:`stat_key` taken before ``abspath`` was read."""
        self.new[abspath] = (*key, sha)

    def _row(self, abspath: str) -> tuple | None:
        """The row read for ``abspath``, as :meth:`record` would make it (None: none)."""
        i = self.rows.get(abspath)
        if i is None:
            return None
        t, d = self.times[3 * i : 3 * i + 3], self.ids[2 * i : 2 * i + 2]
        return (*t, *d, self.shas[32 * i : 32 * i + 32].hex())

    def save(self) -> None:
        """Write the index of this run's files when it differs from the one read (by more
        than a small change: :data:`SMALL_CHANGE`)."""
        from array import array
        from base64 import b64encode

        if self.cache is None or not self.cache.enabled or self._small_change():
            return
        times, ids, shas = array("q"), array("Q"), bytearray()
        try:
            for path, e in self.new.items():
                e = e or self._row(path)  # None: the row read
                times.extend(e[:3])
                ids.extend(e[3:5])
                shas += bytes.fromhex(e[5])
        except (OverflowError, ValueError):  # a stat number past 64 bits: no index
            return
        if _BIG_ENDIAN:
            times.byteswap()
            ids.byteswap()
        obj = {
            "magic": MAGIC,
            "written_ns": time.time_ns(),
            "paths": list(self.new),
            "times": b64encode(times).decode(),
            "ids": b64encode(ids).decode(),
            "shas": b64encode(shas).decode(),
        }
        self.cache.write(FILENAME, obj)  # signed and atomic, like the cache's files

    def _small_change(self) -> bool:
        """The index read is good enough: the same files, at most :data:`SMALL_CHANGE`
        of them, of :data:`SMALL_BYTES`, to hash again next time, and no racy entry
        (rewritten with a later time, it is trusted next time)."""
        rows, new = self.rows, self.new
        if self.racy or len(rows) != len(new) or rows.keys() != new.keys():
            return False
        changed = [e for p, e in new.items() if e is not None and e != self._row(p)]
        return len(changed) <= SMALL_CHANGE and sum(e[0] for e in changed) <= SMALL_BYTES


_BIG_ENDIAN = sys.byteorder == "big"  # the file holds little-endian numbers


@cache
def _shape() -> Any:
    """What msgspec decodes ``stat.json`` as (``cache.signed.decode_json``): strings and
    a list of strings, checked in C (a file that does not fit is decoded by the stdlib and
    checked in :meth:`StatIndex._load`)."""
    from typing import TypedDict

    fields = {
        "magic": str,
        "written_ns": int,
        "paths": list[str],
        "times": str,
        "ids": str,
        "shas": str,
    }
    return TypedDict("StatIndexFile", fields, total=False)
