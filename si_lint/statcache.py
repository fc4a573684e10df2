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
ctime_ns, inode, device, sha256]}``), written and read like the cache's own files
(:mod:`si_lint.cache`: signed, atomic, regular files only, never through a symbolic link);
anything else found there is ignored (a cache may arrive in a pull request: never
trusted, never a crash).
"""

from __future__ import annotations

import os
import time
from functools import cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the replay path)
if TYPE_CHECKING:
    from typing import Any

MAGIC = "si-lint-stat/1"
FILENAME = "stat.json"
#: entries of files modified this close to the index's write time are not trusted
RACY_NS = 2_000_000_000
#: an index that differs from the one read in at most this many entries of at most
#: :data:`SMALL_BYTES` in all (the same files: none added or removed) is not rewritten:
#: those files are read and hashed again by the next run, where rewriting the index costs
#: every entry (a 4,000-file corpus: 11 ms for one edited file)
SMALL_CHANGE = 16
SMALL_BYTES = 1 << 20
_HEX = frozenset("0123456789abcdef")


def _is_sha(value: str) -> bool:
    return len(value) == 64 and _HEX.issuperset(value)


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
    stat = os.stat
    same = True
    for path in deps if paths is None else paths:
        if type(path) is not str or path not in deps:
            return False
        was = deps[path]
        if was == PRESENT:
            if not os.path.lexists(path):
                if took is None:
                    return False
                same = False
            continue
        st = seen.get(path)
        if st is None:
            try:
                st = stat(path)
            except (OSError, ValueError):
                st = ABSENT
            if took is not None:
                took[path] = st
        if st is ABSENT:
            if was is not None:
                if took is None:
                    return False
                same = False
            continue
        if not (type(was) is list and len(was) == 5 and _same_stat(st, was)) or (
            st.st_mtime_ns >= limit
        ):
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
        self.cache = cache
        self.written_ns = 0
        self.old: dict[str, tuple] = {}
        self.new: dict[str, tuple] = {}
        self.racy = False  # an entry was not trusted: it was racy
        if cache is not None and cache.enabled:
            from .cache.signed import verified_json

            self._load(verified_json(cache.directory / FILENAME, shape=_shape()))

    def _load(self, obj: Any) -> None:
        if not (
            isinstance(obj, dict)
            and obj.get("magic") == MAGIC
            and type(obj.get("written_ns")) is int
            and isinstance(obj.get("entries"), dict)
        ):
            return
        self.written_ns = obj["written_ns"]
        for path_, e in obj["entries"].items():
            if type(e) is tuple:  # decoded by msgspec, which checked it against _shape
                self.old[path_] = e
            elif (
                isinstance(e, list)
                and len(e) == 6
                and all(type(v) is int for v in e[:5])
                and isinstance(e[5], str)
                and _is_sha(e[5])
            ):
                self.old[path_] = tuple(e)

    def lookup(self, abspath: str, st: os.stat_result) -> str | None:
        """The recorded content hash when the file's stat is unchanged (and not racy)."""
        e = self.old.get(abspath)
        if e is None or not _same_stat(st, e):
            return None
        if st.st_mtime_ns >= self.written_ns - RACY_NS:
            self.racy = True  # rewrite the index so that the entry is trusted next time
            return None
        return e[5]

    def record(self, abspath: str, st: os.stat_result, sha: str) -> None:
        self.new[abspath] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, sha)

    def save(self) -> None:
        """Write the index of this run's files when it differs from the one read (by more
        than a small change: :data:`SMALL_CHANGE`)."""
        if self.cache is None or not self.cache.enabled:
            return
        if self._small_change():
            return
        obj = {"magic": MAGIC, "written_ns": time.time_ns(), "entries": self.new}
        self.cache.write(FILENAME, obj)  # signed and atomic, like the cache's files

    def _small_change(self) -> bool:
        """The index read is good enough: the same files, at most :data:`SMALL_CHANGE`
        of them, of :data:`SMALL_BYTES`, to hash again next time, and no racy entry
        (rewritten with a later time, it is trusted next time)."""
        old, new = self.old, self.new
        if self.racy or len(old) != len(new):
            return False
        changed = [e for path, e in new.items() if old.get(path) != e]
        return (
            len(changed) <= SMALL_CHANGE
            and sum(e[0] for e in changed) <= SMALL_BYTES
            and old.keys() == new.keys()
        )


@cache
def _shape() -> Any:
    """What msgspec decodes ``stat.json`` as (``cache.signed.decode_json``): the entries
    checked as they are decoded, in C (an index that does not fit is decoded by the stdlib
    and checked entry by entry in :meth:`StatIndex._load`)."""
    try:
        from typing import Annotated, TypedDict

        from msgspec import Meta
    except ImportError:  # pragma: no cover - msgspec is a dependency
        return None
    sha = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
    entry = tuple[int, int, int, int, int, sha]
    fields = {"magic": str, "written_ns": int, "entries": dict[str, entry]}
    return TypedDict("StatIndexFile", fields, total=False)
