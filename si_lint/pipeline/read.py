"""Stage 2, read: every selected file is read once; its content hash is the hash of
exactly the bytes the per-file stage checks.

``overrides`` (``{abspath: bytes}``) stand in for files on disk — the language server
checks unsaved editor buffers this way; an override for a file not on disk is read too.
"""

from __future__ import annotations

import hashlib
import os
import stat

from ..fsutil import read_regular
from ..limits import MAX_BYTES
from ..profile_docs import read_for
from .context import Source, State


def read_file(path, **stats) -> tuple[bytes | None, str | None]:
    """The file's bytes, or why it cannot be read (regular files only, never more than
    the size limit allows)."""
    return read_regular(path, MAX_BYTES, **stats)


def source_of(abspath: str, raw: bytes | None = None, error: str | None = None) -> Source:
    """The file as a :class:`Source`: ``raw`` (bytes given: an editor buffer, stdin) or
    the file read now, and the sha256 of those bytes."""
    if raw is None and error is None:
        raw, error = read_file(abspath)
    sha = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return Source(abspath, raw, error, sha)


def indexed_source(abspath: str, stats) -> Source:
    """The file as a :class:`Source` through the cache's stat index (``stats``,
    :class:`si_lint.cache.statindex.StatIndex`): its hash without reading it when its stat
    is the index's (``raw`` None, ``error`` None: :func:`ensure_read` reads it if the
    bytes are needed), else read and hashed now and noted in the index."""
    try:
        st = os.stat(abspath)
    except (OSError, ValueError):
        return source_of(abspath)  # the reason, as reading gives it
    sha = stats.known(abspath, st) if stat.S_ISREG(st.st_mode) else None
    if sha is not None:
        return Source(abspath, None, None, sha)
    opened: list = []
    raw, error = read_file(abspath, st=st, opened=opened)
    source = source_of(abspath, raw, error)
    if raw is not None and opened and len(raw) <= MAX_BYTES:
        stats.note(abspath, opened[0], source.sha)
    return source


def raw_of(abspath: str, overrides: dict) -> bytes | None:
    """An unsaved buffer's bytes (``overrides``), else the file's; None: it cannot be read."""
    raw = overrides.get(abspath)
    return raw if raw is not None else read_regular(abspath, MAX_BYTES)[0]


def ensure_read(source: Source) -> None:
    """Read a source the stat index answered (its bytes are needed after all: its hash
    has no cache entry), and hash the bytes read."""
    if source.raw is None and source.error is None:
        fresh = source_of(source.abspath)
        source.raw, source.error, source.sha = fresh.raw, fresh.error, fresh.sha


def read(state: State) -> None:
    """Every selected file (and every override) read once and hashed; under a cache, a
    file whose stat the stat index holds is not read: its hash is the index's."""
    overrides = {os.path.abspath(k): v for k, v in (state.overrides or {}).items()}
    files = list(state.selection.files)
    known = set(files)
    files += sorted(p for p in overrides if p not in known)
    cache = state.cache
    stats = cache.stats if cache is not None and cache.enabled else None
    if stats is not None:
        stats.begin()
    state.sources = [
        source_of(f, overrides[f])
        if f in overrides
        else (indexed_source(f, stats) if stats is not None else source_of(f))
        for f in files
    ]
    state.profile_dirs, state.profile_docs = read_for(
        [s.abspath for s in state.sources], state.selection.config.root, state.cwd
    )
