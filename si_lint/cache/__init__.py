"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root.

**Data only.** A cache directory can arrive in a commit or a pull request, so nothing in
it is trusted: the files are JSON (decoded by msgspec, or by the stdlib :mod:`json` where
msgspec refuses; both build dicts, lists, strings, numbers and nothing else — no pickle, no
marshal, no class names), each one ends with an HMAC-SHA256 of its body under a key kept
outside the corpus (in the user's cache directory, see :func:`.signed.secret`), and every
entry is decoded by a fixed schema (:mod:`si_lint.codec`) when it is used. A file that is
not a regular file (a FIFO, a device, a symbolic link) is never opened; a file that is too
big, truncated, signed with another key, written by another version or of the wrong shape
is a miss — rebuilt, never a crash. Writes go only into the cache directory (temporary
file + rename), which holds a ``.gitignore`` (``*``) and a ``CACHEDIR.TAG``; a directory
that already exists and is not a si-lint cache (``--cache-dir .``) is not used at all.

What is cached, and the key of each (ARCHITECTURE.md, "The cache"): every table is valid
only under the header (``Cache.header``: the cache format, si-lint's version, a
digest of si-lint's own source and data, :func:`.keys.code_fingerprint`; the profile,
:func:`.keys.profile_fingerprint`; the effective configuration; the options). Under it:

- ``files`` in ``results.json``: a file's per-file result (its documents, the file checks'
  findings) keyed on its content hash and its path under the root;
- ``memo`` in ``results.json``: the findings of the corpus checks keyed on a digest of
  every file the run read (path and content hash), the profile documents and the working
  directory (``pipeline.corpus.corpus_key``); and each scenario's dry run keyed on a
  digest of what it reads: its parameters and each document's path, index and file
  content hash (``pipeline.context.task_key``, computed by ``Context.map``).

- ``stat.json``: the stat index (:mod:`.statindex`), a file's content hash keyed on its
  path and stat (size, mtime, ctime, inode, device), with git's racy-clean rule: only a
  file unchanged for 2 s before the run began reading is indexed.

Nothing else is persistent: no run memo, no check index.

``bodies-<id>.bin`` holds the bodies of the entries (a file's documents' data and
positions), out of ``results.json`` so that a run reads only those it uses; not signed,
each body is checked against the digest its entry in the signed table holds
(:mod:`.bodies`). ``delta.json`` holds what changed in those tables since
``results.json`` was written (its ``base`` names the table's ``id``): a run that changes a
few entries writes them only.

Public API: :meth:`Cache.get_file`/:meth:`Cache.put_file` (entries are plain JSON data;
pass ``decode`` to validate one), :meth:`Cache.memo_get`/:meth:`Cache.memo_put`/
:meth:`Cache.memoize` and :meth:`Cache.save`.

The package: :mod:`.store` (the :class:`Cache` and its tables), :mod:`.bodies` (the
entries' bodies), :mod:`.signed` (signed, atomic data files; the key), :mod:`.directory`
(what may be a cache directory), :mod:`.statindex` (the stat index) and :mod:`.keys` (the digests of si-lint's code and of
the profile in the header).
"""

from __future__ import annotations

#: the public names, imported from their module on first use
_FROM = {
    "canonical_text": "keys",
    "code_fingerprint": "keys",
    "profile_fingerprint": "keys",
    "FILENAME": "store",
    "MAGIC": "store",
    "Cache": "store",
    "cache_dir_for": "store",
    "open_cache": "store",
}


def __getattr__(name: str):
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{_FROM[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "FILENAME",
    "MAGIC",
    "Cache",
    "cache_dir_for",
    "canonical_text",
    "code_fingerprint",
    "open_cache",
    "profile_fingerprint",
]
