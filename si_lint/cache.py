"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root.

``results.pickle`` holds two tables, written as a stream of small pickles (a header, one
item per entry, an end marker):

- ``files``: per-file results keyed on the file's content hash. An entry is only used
  when the si-lint version, the profile fingerprint and the effective configuration are
  the ones it was written under (they are part of the header), so a per-file result can
  never outlive what it depends on.
- ``memo``: results of cross-file work (fixture dry runs, probes) keyed by the caller on
  the content hashes of *every* file the result depends on (e.g. the scenario and the
  fixture) — a change to any of them changes the key, so stale results cannot be served.

A third file, ``run.pickle``, holds the findings of the last whole run under a key made
of every file's path and content hash, the named paths and the options: an unchanged
re-check (the pre-commit case) is answered from it without building the corpus.

The files are written atomically (temporary file + rename) and only when something changed.
A corrupt, truncated or foreign cache is ignored and rebuilt, never trusted and never a
crash. Unpickling is restricted to plain data and si-lint's own classes.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from pathlib import Path
from typing import Any

from . import __version__

MAGIC = "si-lint-cache/2"
FILENAME = "results.pickle"
RUN_FILENAME = "run.pickle"

_SAFE_BUILTINS = {"set", "frozenset", "tuple", "list", "dict", "str", "int", "float", "bool", "bytes", "complex"}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if module == "builtins" and name in _SAFE_BUILTINS:
            return super().find_class(module, name)
        if module.startswith("si_lint.") and not name.startswith("_"):
            return super().find_class(module, name)
        if module == "collections" and name == "OrderedDict":
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing {module}.{name} in the cache")


def code_fingerprint() -> str:
    """si-lint's own code and data as installed (paths, sizes, modification times), so a
    changed checkout without a version bump never serves results of the old code."""
    from .resources import data_dir

    pkg = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for base, pattern in ((pkg, "*.py"), (data_dir("rules"), "*.yaml"), (data_dir("schemas"), "*.json"),
                          (pkg / "profile_data", "*.yaml")):
        for path in sorted(base.rglob(pattern)):
            try:
                st = path.stat()
            except OSError:
                continue
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def profile_fingerprint(profile) -> str:
    """Hash of everything in the profile that results depend on."""
    h = hashlib.sha256()
    h.update(repr(_canonical(profile.registry)).encode())
    h.update(repr(_canonical(profile.templates)).encode())
    root = getattr(profile, "root", None)
    if root is not None:
        for path in sorted(Path(root).rglob("*.py")):
            try:
                h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
            except OSError:
                pass
    h.update(repr(sorted(getattr(profile, "implementations", {}) or {})).encode())
    return h.hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((str(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    return (type(value).__name__, value)


class Cache:
    def __init__(self, directory: Path | None, header: tuple):
        self.directory = directory
        self.header = (MAGIC, __version__, code_fingerprint()) + tuple(header)
        self.files: dict[str, Any] = {}
        self.memo: dict[Any, Any] = {}
        self._used_files: dict[str, Any] = {}
        self._used_memo: dict[Any, Any] = {}
        self.dirty = False
        self._loaded = directory is None
        self._run: tuple | None = None

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    @staticmethod
    def _load(path: Path):
        try:
            with open(path, "rb") as fh:
                blob = fh.read()
            return _Unpickler(io.BytesIO(blob)).load()
        except Exception:  # missing, corrupt, truncated, foreign: rebuild
            return None

    def _read(self) -> None:
        """Read the per-file table on first use (a reused run never needs it)."""
        if self._loaded:
            return
        self._loaded = True
        files: dict = {}
        memo: dict = {}
        try:
            with open(self.directory / FILENAME, "rb") as fh:
                # one unpickler per item: each item was written with a memo of its own
                head = _Unpickler(fh).load()
                if not (isinstance(head, dict) and head.get("header") == self.header):
                    self.dirty = True
                    return
                while True:
                    item = _Unpickler(fh).load()
                    if item == ("end",):
                        break
                    table, key, value = item
                    (files if table == "f" else memo)[key] = value
        except Exception:  # missing, corrupt, truncated (no end marker), foreign: rebuild
            self.dirty = True
            return
        self.files, self.memo = files, memo

    # per-file results -------------------------------------------------------------------
    # whole runs ------------------------------------------------------------------------
    def get_run(self, key: str):
        """The findings of the last run, when nothing it depended on has changed."""
        obj = self._load(self.directory / RUN_FILENAME)
        if isinstance(obj, dict) and obj.get("header") == self.header and obj.get("key") == key:
            value = obj.get("value")
            if isinstance(value, (tuple, list)) and len(value) == 4:
                return tuple(value)
        return None

    def put_run(self, key: str, value: tuple) -> None:
        self._run = (key, value)

    def get_file(self, sha: str, relpath: str):
        self._read()
        hit = self.files.get((sha, relpath))
        if hit is not None:
            self._used_files[(sha, relpath)] = hit
        return hit

    def put_file(self, sha: str, relpath: str, entry) -> None:
        self._used_files[(sha, relpath)] = entry
        self.dirty = True

    # cross-file memo --------------------------------------------------------------------
    def memoize(self, key, compute):
        self._read()
        if key in self.memo:
            value = self.memo[key]
        elif key in self._used_memo:
            return self._used_memo[key]
        else:
            value = compute()
            self.dirty = True
        self._used_memo[key] = value
        return value

    def save(self) -> None:
        """Write what this run used (stale entries are dropped), atomically."""
        if self.directory is None:
            return
        if self._run is not None:
            key, value = self._run
            self._write(RUN_FILENAME, {"header": self.header, "key": key, "value": value})
        if not self._loaded:
            return
        if not self.dirty and len(self._used_files) == len(self.files) and len(self._used_memo) == len(self.memo):
            return
        self._write(FILENAME, None)

    def _items(self):
        """The per-file table as a stream of small pickles: one pickler memo per entry,
        never one over every object of the corpus (hundreds of MB at 40,000 files)."""
        yield {"header": self.header}
        for key, value in self._used_files.items():
            yield ("f", key, value)
        for key, value in self._used_memo.items():
            yield ("m", key, value)
        yield ("end",)

    def _write(self, name: str, obj) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("*\n")
            from .fsutil import atomic_writer

            # streamed into a temporary file, then renamed: no second copy of the whole
            # cache in memory, and readers see the old file or the new one, never half
            with atomic_writer(self.directory / name) as fh:
                for item in (self._items() if obj is None else (obj,)):
                    pickle.dump(item, fh, protocol=pickle.HIGHEST_PROTOCOL)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            pass  # a read-only tree still lints; it just isn't cached


def cache_dir_for(root: Path, options) -> Path | None:
    if not options.use_cache:
        return None
    if options.cache_dir:
        return Path(options.cache_dir).resolve()
    env = os.environ.get("SI_LINT_CACHE_DIR")
    if env:
        return Path(env).resolve()
    return root / ".si-lint-cache"
