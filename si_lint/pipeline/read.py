"""Stage 2, read: every selected file read once and hashed: the bytes hashed are the bytes
checked. ``overrides`` (``{abspath: bytes}``, unsaved editor buffers) stand in for files."""

from __future__ import annotations

import hashlib
import os
import stat

from ..fsutil import read_regular
from ..limits import MAX_BYTES
from ..profile_docs import read_for
from .context import Source, State


def read_file(path, **stats) -> tuple[bytes | None, str | None]:
    return read_regular(path, MAX_BYTES, **stats)


def source_of(abspath: str, raw: bytes | None = None, error: str | None = None) -> Source:
    """``raw`` given (an editor buffer, stdin), else the file read now."""
    if raw is None and error is None:
        raw, error = read_file(abspath)
    sha = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return Source(abspath, raw, error, sha)


def indexed_source(abspath: str, stats) -> Source:
    """Through the stat index: the hash alone when the stat is the index's (``raw`` None:
    :func:`ensure_read` reads it if needed), else read, hashed and noted."""
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
    raw = overrides.get(abspath)
    return raw if raw is not None else read_regular(abspath, MAX_BYTES)[0]


def ensure_read(source: Source) -> None:
    """Read and hash a source the stat index answered whose hash has no cache entry."""
    if source.raw is None and source.error is None:
        fresh = source_of(source.abspath)
        source.raw, source.error, source.sha = fresh.raw, fresh.error, fresh.sha


def read(state: State) -> None:
    sel = state.selection
    overrides = {os.path.abspath(k): v for k, v in (state.overrides or {}).items()}
    files = [*sel.files, *sorted(set(overrides) - set(sel.files))]
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
        [s.abspath for s in state.sources], sel.config.root, state.cwd, sel.profile_md
    )
