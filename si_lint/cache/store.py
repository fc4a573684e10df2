"""The cache's tables, per-file and corpus-wide results, read on first use and written
back with what this run used."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, TypedDict

from msgspec import Raw

from .. import __version__
from ..codec import diags_from_json, diags_to_json
from ..fsutil import atomic_writer
from .bodies import Stored, bodies_file, body_text, digest, remove_others
from .keys import code_fingerprint
from .signed import (
    CacheDirUnusable,
    check_usable,
    distrust,
    dumps,
    prepare,
    verified_json,
    write_signed,
)
from .statindex import StatIndex

MAGIC = "si-lint-cache/5"
FILENAME = "results.json"
#: what changed since ``results.json`` was written: a run that changes a few entries of a
#: large table writes only them
DELTA_FILENAME = "delta.json"
#: a delta larger than this share of the table (or than the floor) rewrites the table
DELTA_SHARE = 0.1
DELTA_FLOOR = 256


def object_chunks(fields: dict):
    """A JSON object as text, a piece at a time: a field given as ``(table, encode)`` is
    written entry by entry (one ``encode`` cannot write is left out)."""
    sep = b"{"
    for name, value in fields.items():
        if type(value) is not tuple:
            yield sep + dumps(name) + b":" + dumps(value)
        else:
            table, encode = value
            yield sep + dumps(name) + b":{"
            first = True
            for key, entry in table.items():
                try:
                    piece = dumps(key) + b":" + encode(entry)
                except (TypeError, ValueError, RecursionError):
                    continue
                yield piece if first else b"," + piece
                first = False
            yield b"}"
        sep = b","
    yield b"}"


def entry_json(entry) -> bytes:
    """``[head, body]`` as JSON text; a body left undecoded (``msgspec.Raw``) as read."""
    head, body = entry
    if type(body) is Raw:
        return b"[" + dumps(head) + b"," + bytes(body) + b"]"
    return dumps([head, body])


# what msgspec decodes the table and its delta as: a body stays ``Raw`` until read


class Table(TypedDict, total=False):
    header: Any
    id: Any
    files: dict[str, tuple[Any, Raw]]
    memo: Any


class Delta(TypedDict, total=False):
    header: Any
    base: Any
    files_added: dict[str, tuple[Any, Raw]]
    files_removed: Any
    memo_added: Any
    memo_removed: Any


class Cache:
    def __init__(self, directory: Path | None, header: tuple, *, owned: bool = False):
        """``directory`` None disables the cache. ``owned``: the directory is the default
        ``.si-lint-cache`` (it may be adopted even when it has no ``CACHEDIR.TAG`` yet)."""
        self.directory = directory
        self.header: list[Any] = code_header() + [
            h if isinstance(h, (str, bool, int)) or h is None else str(h) for h in header
        ]
        self.note: str | None = None  # why the cache is not used (for --verbose)
        if directory is not None:
            try:
                check_usable(directory, owned)
            except CacheDirUnusable as why:
                self.note = f"cache directory {directory} not used: {why}"
                self.directory = None
        self.files: dict[str, Any] = {}
        self.memo: dict[str, Any] = {}
        self._used_files: dict[str, Any] = {}
        self._used_memo: dict[str, Any] = {}
        self._memo_values: dict[str, Any] = {}
        self.dirty = False
        self._loaded = self.directory is None
        self._base_id: str | None = None  # the ``id`` of the results.json read
        self._bodies: str | None = None  # its bodies file (:mod:`.bodies`)
        self._base_size = (0, 0)
        self._delta: dict | None = None  # the delta.json applied over it
        self.stats = StatIndex(self.directory, self.header)

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _dir(self) -> Path:
        assert self.directory is not None
        return self.directory

    def _read(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        obj = verified_json(self._dir() / FILENAME, self.header, Table)
        if obj is None or type(obj.get("files")) is not dict or type(obj.get("memo")) is not dict:
            self.dirty = True
            return
        self.files, self.memo = obj["files"], obj["memo"]
        self._base_id = obj.get("id") if type(obj.get("id")) is str else None
        self._bodies = bodies_file(self.directory, self._base_id)
        self._base_size = (len(self.files), len(self.memo))
        # ``delta.json`` applies when it was written over this very table (its ``base`` is
        # the table's ``id``); anything else there is ignored
        delta = verified_json(self._dir() / DELTA_FILENAME, self.header, Delta)
        if self._base_id is None or delta is None or delta.get("base") != self._base_id:
            return
        for table, name in ((self.files, "files"), (self.memo, "memo")):
            added, removed = delta.get(name + "_added"), delta.get(name + "_removed")
            if type(added) is not dict or type(removed) is not list:
                return
            for k in removed:
                if type(k) is str:
                    table.pop(k, None)
            table.update(added)
        self._delta = delta

    def get_file(self, sha: str, relpath: str):
        """``[head, Stored body]`` for this content and path, or None."""
        self._read()
        k = f"{sha}:{relpath}"
        hit = self.files.get(k)
        if hit is None:
            return None
        self._used_files[k] = hit
        return (hit[0], Stored(hit[1], self._bodies)) if _is_pair(hit) else hit

    def put_file(self, sha: str, relpath: str, entry) -> None:
        self._used_files[f"{sha}:{relpath}"] = entry
        self.dirty = True

    def memo_get(self, key) -> tuple[bool, Any]:
        """(True, the Diags stored under ``key``) or (False, None)."""
        k = _memo_key(key)
        if k in self._memo_values:
            return True, self._memo_values[k]
        self._read()
        if k in self.memo:
            try:
                value = diags_from_json(self.memo[k])
            except Exception:
                self.memo.pop(k, None)
            else:
                self._used_memo[k] = self.memo[k]
                self._memo_values[k] = value
                return True, value
        return False, None

    def keep_memo(self, tag: str) -> None:
        """Keep every memo entry whose key starts with ``tag`` (written back though this
        run did not look it up): a cached answer over them all stood for them."""
        self._read()
        start = _memo_key([tag])[:-1] + ","
        for k, v in self.memo.items():
            if k.startswith(start):
                self._used_memo.setdefault(k, v)

    def memo_put(self, key, value) -> None:
        k = _memo_key(key)
        with contextlib.suppress(Exception):  # not storable: computed again next time
            self._used_memo[k] = diags_to_json(value)
        self._memo_values[k] = value
        self.dirty = True

    def save(self) -> None:
        """Write what this run used (stale entries are dropped), atomically."""
        if self.directory is None:
            return
        self.stats.save()
        if not self._loaded:
            return
        if (
            not self.dirty
            and len(self._used_files) == len(self.files)
            and len(self._used_memo) == len(self.memo)
        ):
            return
        if self._base_id is not None and self._save_delta():
            return
        old = self._bodies
        if not self._write_bodies(old):
            return  # no bodies file: no table either
        # the per-file table written one entry at a time (no second copy of it in memory)
        table = {
            "header": self.header,
            "id": self._base_id,
            "files": (self._used_files, entry_json),
            "memo": (self._used_memo, dumps),
        }
        write_signed(self._dir(), FILENAME, object_chunks(table))
        remove_others(self.directory, {self._bodies, old})  # the last two generations
        with contextlib.suppress(OSError):
            os.unlink(self.directory / DELTA_FILENAME)

    def _write_bodies(self, old: str | None) -> bool:
        """Write the used entries' bodies as a new table's bodies file (refs copied from
        ``old``); each entry becomes ``[head, ref]`` in place, one whose body cannot be had
        is left out. False when the file cannot be written."""
        self._base_id = os.urandom(8).hex()
        path = bodies_file(self.directory, self._base_id)
        used = self._used_files
        try:
            prepare(self._dir())
            with atomic_writer(path, mode=0o600) as fh:
                offset = 0
                for key, entry in list(used.items()):
                    try:
                        text = body_text(entry[1], old) if _is_pair(entry) else None
                    except (TypeError, ValueError, RecursionError):  # not JSON data
                        text = None
                    if text is None:
                        del used[key]
                        continue
                    fh.write(text)
                    # in place: the body's data is not held twice while the file is written
                    used[key] = (entry[0], [offset, len(text), digest(text)])
                    offset += len(text)
        except OSError:  # the entries refer to a file that is not there: none is kept
            self.files, self._used_files, self._base_id = {}, {}, None
            return False
        self._bodies = path
        self.files = dict(used)
        return True

    def _save_delta(self) -> bool:
        """Write what changed since the table was read as ``delta.json``; False when too
        large for a delta."""
        delta: dict[str, Any] = {"header": self.header, "base": self._base_id}
        size = 0
        base = self._delta or {}
        for name, used, table, base_n in (
            ("files", self._used_files, self.files, self._base_size[0]),
            ("memo", self._used_memo, self.memo, self._base_size[1]),
        ):
            # against the base table: what the delta read already holds is carried over
            added = dict(base.get(name + "_added") or {})
            removed = set(base.get(name + "_removed") or ())
            for k, v in used.items():
                if table.get(k) is not v:
                    added[k] = v
                    removed.discard(k)
            for k in table:
                if k not in used:
                    removed.add(k)
                    added.pop(k, None)
            delta[name + "_added"] = (added, entry_json if name == "files" else dumps)
            delta[name + "_removed"] = sorted(removed)
            size += len(added) + len(removed)
            if size > max(DELTA_FLOOR, DELTA_SHARE * base_n):
                return False
        write_signed(self._dir(), DELTA_FILENAME, object_chunks(delta))
        return True


def _is_pair(entry: Any) -> bool:
    return type(entry) in (list, tuple) and len(entry) == 2


def _memo_key(key: tuple | list) -> str:
    return dumps(list(key)).decode()


def code_header() -> list[Any]:
    """What every cache file's header starts with: the format, si-lint's version and the
    digest of its code."""
    return [MAGIC, __version__, code_fingerprint()]


def _directory(root: Path, options) -> tuple[Path | None, bool]:
    """The cache directory of a run at ``root`` (None: no cache), and whether it is the
    default ``.si-lint-cache`` (``Cache``'s ``owned``)."""
    if not options.use_cache:
        return None, False
    given = options.cache_dir or os.environ.get("SI_LINT_CACHE_DIR")
    if given:
        return Path(given).resolve(), False
    return root / ".si-lint-cache", True


def _usable_directory(root: Path, options) -> Path | None:
    directory, owned = _directory(root, options)
    if directory is not None:
        try:
            check_usable(directory, owned)
        except CacheDirUnusable:
            return None
    return directory


def open_cache(root: Path, options, header: tuple) -> Cache:
    """The cache for a run at ``root``; no key inside ``root`` or its git work tree signs
    it (:func:`.signed.distrust`)."""
    distrust([root])
    directory, owned = _directory(root, options)
    return Cache(directory, header, owned=owned)


#: the configuration texts the last run found valid (``config.load_config``'s ``valid``)
CONFIGS_FILENAME = "configs.json"


def valid_configs(root: Path, options) -> frozenset[str]:
    """The sha256 of each configuration text the last run at ``root`` read, all valid:
    signed under the header of si-lint's code alone (the answer depends on the text and
    the schema, nothing else), so that a re-check need not load the schema validator."""
    distrust([root])
    directory = _usable_directory(root, options)
    obj = None if directory is None else verified_json(directory / CONFIGS_FILENAME, code_header())
    found = obj.get("configs") if obj is not None else None
    if type(found) is not list or not all(type(d) is str for d in found):
        return frozenset()
    return frozenset(found)


def note_valid_configs(root: Path, options, before: frozenset[str], now: set[str]) -> None:
    """Write ``now`` (the texts this run read, all valid) when it differs from ``before``."""
    directory = _usable_directory(root, options) if now != before else None
    if directory is not None:
        body = dumps({"header": code_header(), "configs": sorted(now)})
        write_signed(directory, CONFIGS_FILENAME, [body])
