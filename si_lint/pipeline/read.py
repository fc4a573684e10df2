"""Stage 2, read: every selected file is read once; its content hash is the hash of
exactly the bytes the per-file stage checks (issue 11: hash and check the same bytes).

``overrides`` (``{abspath: bytes}``) stand in for files on disk — the language server
checks unsaved editor buffers this way; an override for a file not on disk is read too.
"""

from __future__ import annotations

import hashlib
import os

from .context import Source, State


def read_file(path) -> tuple[bytes | None, str | None]:
    """The file's bytes, or why it cannot be read. Only regular files are opened (never
    blocks on a FIFO or a device; checked again on the open descriptor), never more than
    the size limit allows (a larger file is refused by SI005)."""
    from ..limits import read_input

    return read_input(path)


def source_of(abspath: str, raw: bytes | None = None, error: str | None = None) -> Source:
    if raw is None and error is None:
        raw, error = read_file(abspath)
    sha = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return Source(abspath, raw, error, sha)


def read(state: State) -> None:
    overrides = {os.path.abspath(k): v for k, v in (state.overrides or {}).items()}
    files = list(state.selection.files)
    known = set(files)
    files += sorted(p for p in overrides if p not in known)
    state.sources = [
        source_of(f, overrides[f]) if f in overrides else source_of(f) for f in files
    ]


def run_key(state: State) -> str:
    """Everything a whole run's findings depend on: every file's path and content hash,
    the named paths, the working directory and the options (the cache header already
    holds the si-lint version, the profile and the effective config)."""
    options = state.options
    h = hashlib.sha256()
    h.update(repr((str(state.cwd), sorted(state.paths), options.select, options.ignore,
                   options.trust_implementations)).encode())
    for s in state.sources:
        h.update(f"{s.abspath}\0{s.sha or 'error:' + str(s.error)}\n".encode())
    return h.hexdigest()


def reuse_run(state: State) -> None:
    """An unchanged re-check is answered from the last run's findings (no corpus)."""
    from .data import finding_from_data
    from .context import RunResult

    cache = state.cache
    if not cache.enabled or not state.with_checks or state.overrides:
        return
    state.run_key = run_key(state)
    if not state.options.reuse_run:
        return
    hit = cache.get_run(state.run_key)
    if hit is None:
        return
    try:
        findings, nfiles, skipped, reported = hit
        findings = [finding_from_data(f) for f in findings]
    except (TypeError, ValueError):
        return
    state.result = RunResult(findings, nfiles, None, state.selection.config, list(skipped),
                             list(reported), list(state.selection.notes))
