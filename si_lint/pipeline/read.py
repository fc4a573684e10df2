"""Stage 2, read: every selected file is read once; its content hash is the hash of
exactly the bytes the per-file stage checks (issue 11: hash and check the same bytes).

``overrides`` (``{abspath: bytes}``) stand in for files on disk — the language server
checks unsaved editor buffers this way; an override for a file not on disk is read too.
"""

from __future__ import annotations

import hashlib
import os

from ..limits import MAX_BYTES, read_input
from ..profile_docs import read_for
from .context import Source, State


def read_file(path) -> tuple[bytes | None, str | None]:
    """The file's bytes, or why it cannot be read. Only regular files are opened (never
    blocks on a FIFO or a device; checked again on the open descriptor), never more than
    the size limit allows (a larger file is refused by SI005)."""
    return read_input(path, MAX_BYTES)


def source_of(abspath: str, raw: bytes | None = None, error: str | None = None) -> Source:
    """The file as a :class:`Source`: ``raw`` (bytes given: an editor buffer, stdin) or
    the file read now, and the sha256 of those bytes."""
    if raw is None and error is None:
        raw, error = read_file(abspath)
    sha = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return Source(abspath, raw, error, sha)


def read(state: State) -> None:
    """Every selected file (and every override) read once and hashed: the per-file stage
    checks these very bytes, or takes the cache's entry for their hash."""
    overrides = {os.path.abspath(k): v for k, v in (state.overrides or {}).items()}
    files = list(state.selection.files)
    known = set(files)
    files += sorted(p for p in overrides if p not in known)
    state.sources = [source_of(f, overrides[f]) if f in overrides else source_of(f) for f in files]
    state.profile_dirs, state.profile_docs = read_for(
        [s.abspath for s in state.sources], state.selection.config.root, state.cwd
    )
