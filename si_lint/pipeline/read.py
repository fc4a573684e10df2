"""Stage 2, read: every selected file is read once; its content hash is the hash of
exactly the bytes the per-file stage checks (issue 11: hash and check the same bytes).

``overrides`` (``{abspath: bytes}``) stand in for files on disk — the language server
checks unsaved editor buffers this way; an override for a file not on disk is read too.
"""

from __future__ import annotations

import hashlib
import os
import stat

from ..statcache import ABSENT, stat_key, stat_or_absent
from .context import Source, State


def read_file(path, st=None) -> tuple[bytes | None, str | None]:
    """The file's bytes, or why it cannot be read. Only regular files are opened (never
    blocks on a FIFO or a device; checked again on the open descriptor), never more than
    the size limit allows (a larger file is refused by SI005). ``st``: a fresh
    ``os.stat`` of ``path`` the caller took (not taken again)."""
    from ..limits import MAX_BYTES, read_input

    return read_input(path, MAX_BYTES, st)


def source_of(abspath: str, raw: bytes | None = None, error: str | None = None, st=None) -> Source:
    if raw is None and error is None:
        raw, error = read_file(abspath, st)
    sha = hashlib.sha256(raw).hexdigest() if raw is not None else ""
    return Source(abspath, raw, error, sha)


def read(state: State) -> None:
    """Every selected file's content hash. Under a cache, a file whose ``stat`` is the
    one recorded in the stat index (:mod:`si_lint.statcache`) gets the recorded hash
    unread, and any other is read and hashed here: either way its bytes are (read again
    and) checked against the hash later, only when the per-file cache has no entry for it
    (:func:`ensure_read`). Without a cache the per-file stage reads each file once."""
    overrides = {os.path.abspath(k): v for k, v in (state.overrides or {}).items()}
    files = list(state.selection.files)
    known = set(files)
    files += sorted(p for p in overrides if p not in known)
    index = None
    if state.cache is not None and state.cache.enabled and state.with_checks:
        from ..statcache import StatIndex

        index = StatIndex(state.cache)
    state.stat_index = index
    # a cache that holds no file (a first run: CI's): no hash would find an entry, so the
    # files are read and hashed once, where they are checked (in the workers), not here
    defer = index is not None and not index.rows and not state.cache.holds_files()
    taken, state.stats_taken = state.stats_taken, {}
    sources = []
    for f in files:
        if f in overrides:
            sources.append(source_of(f, overrides[f]))
            continue
        if index is None:  # no cache: read by the per-file stage (read_unread)
            sources.append(Source(f, None, None, "", unread=True))
            continue
        # the stat the recall stage's check of the run memo took, else a new one
        st = taken.pop(f, None) or stat_or_absent(f)
        if st is ABSENT:
            state.deps.setdefault(f, None)
            sources.append(source_of(f))
            continue
        key = state.deps.setdefault(f, stat_key(st))
        sha = index.lookup(f, st) if stat.S_ISREG(st.st_mode) else None
        if sha is not None:  # (the index keeps the file's row)
            sources.append(Source(f, None, None, sha))
            continue
        if defer and stat.S_ISREG(st.st_mode):  # its row: once the per-file stage read it
            sources.append(Source(f, None, None, "", unread=True))
            state.deferred[f] = key  # (the run memo's list: no second copy)
            continue
        # the stat taken before the read: a file changed in between is re-read next time
        s = source_of(f, st=st)
        sources.append(s)
        if s.raw is not None:
            index.record(f, st, s.sha)
            # only the hash is kept: the bytes are read again where they are checked (in
            # a worker under --jobs; ensure_read checks they still hash to it), so the
            # parent never holds the corpus (221 MB at 40,000 files: its peak memory)
            s.raw = None
    state.sources = sources
    if index is not None and not state.deferred:  # else once they are read: record_deferred
        index.save()
    _read_profile_docs(state, index is not None)


def _read_profile_docs(state: State, cached: bool) -> None:
    """The Markdown documents of the files' OASIS profile directories (SPEC §1, §3.2)."""
    from ..profile_docs import read_for

    state.profile_dirs, state.profile_docs = read_for(
        [s.abspath for s in state.sources],
        state.selection.config.root,
        state.cwd,
        deps=state.deps if cached else None,
    )


def record_deferred(state: State) -> None:
    """After the per-file stage: the stat index rows of the files the read stage left to it
    (``state.deferred``: the ``stat`` taken before they were read; a file that changed
    after it gets a row that is not trusted next time), and the run's key, now that every
    file's hash is known."""
    index = state.stat_index
    if not state.deferred or index is None:
        return
    for s in state.sources:
        key = state.deferred.get(s.abspath)
        if key is not None and s.sha and s.error is None and not s.unread:
            index.record_key(s.abspath, key, s.sha)
    index.save()
    if not any(s.unread for s in state.sources) and not state.overrides:
        state.run_key = run_key(state, whole=_is_whole(state))


def read_unread(source: Source) -> None:
    """Read a source the read stage left unread (no cache): its bytes and their hash."""
    if source.unread:
        read = source_of(source.abspath)
        source.raw, source.error, source.sha, source.unread = read.raw, read.error, read.sha, False


def ensure_read(source: Source) -> None:
    """Read the bytes of a source whose hash is known but not its bytes (``raw`` and
    ``error`` both None: the read stage hashed it, or the stat index answered). When they
    no longer hash to it (the file changed since, or under an unchanged stat), the source
    takes the new hash and is ``changed``: no result keyed on the old one may be stored."""
    if source.unread or source.raw is not None or source.error is not None or not source.sha:
        return
    source.raw, source.error = read_file(source.abspath)
    sha = hashlib.sha256(source.raw).hexdigest() if source.raw is not None else ""
    if sha != source.sha:
        source.sha, source.changed = sha, True


def run_key(state: State, whole: bool = False) -> str:
    """Everything a whole run's findings depend on: every file's path and content hash,
    the named paths (``whole``: none -- the key of a run over the working directory,
    whose findings answer any run over paths under it), the working directory and the
    options (the cache header already holds the si-lint version, the profile and the
    effective config)."""
    options = state.options
    h = hashlib.sha256()
    paths = "whole" if whole else sorted(state.paths)
    h.update(
        repr(
            (str(state.cwd), paths, options.select, options.ignore, options.trust_implementations)
        ).encode()
    )
    for s in state.sources:
        h.update(f"{s.abspath}\0{s.sha or 'error:' + str(s.error)}\n".encode())
    hash_profile_docs(h, state)  # the profile documents too
    return h.hexdigest()


def hash_profile_docs(h, state: State) -> None:
    """Add the digests of every profile directory's Markdown documents to ``h``: part of
    the run key and of the corpus checks' key (``pipeline.corpus.corpus_key``)."""
    for pdir, pdocs in sorted(state.profile_docs.items()):
        h.update(f"{pdir}\0{sorted(pdocs.digests.items())}\n".encode())


def _is_whole(state: State) -> bool:
    """The run names only the working directory (``si-lint check`` or ``check .``)."""
    sel = state.selection
    return not sel.named_files and list(sel.named_dirs) == [str(state.cwd)]


def _under_cwd(state: State) -> bool:
    """Every named path is the working directory or under it."""
    sel = state.selection
    cwd = str(state.cwd)
    return all(
        p == cwd or p.startswith(cwd.rstrip(os.sep) + os.sep)
        for p in (*sel.named_files, *sel.named_dirs)
    )


def reported_files(state: State) -> list[str]:
    """The files findings are reported for (relative paths), sorted."""
    sel = state.selection
    return sorted(
        {sel.relpath(s.abspath) for s in state.sources if sel.reports(s.abspath)}
        | {sel.relpath(f) for f in sel.named_files}
    )


def keep_skipped(skipped: list[str], wanted: set[str]) -> list[str]:
    """The labels of skipped documents (``path`` or ``path#N``) of the files in ``wanted``."""
    return [
        lab
        for lab in skipped
        if lab in wanted
        or ("#" in lab and lab.rsplit("#", 1)[1].isdigit() and lab.rsplit("#", 1)[0] in wanted)
    ]


def reuse_run(state: State) -> None:
    """An unchanged re-check is answered from the last run's findings (no corpus); so is a
    run over paths under the working directory (one staged file: the pre-commit case)
    when the last run checked the whole working directory over the same files: its
    findings, filtered as the locate stage filters (:meth:`Selection.reports`)."""
    from .context import RunResult
    from .data import finding_from_data

    cache = state.cache
    if not cache.enabled or not state.with_checks or state.overrides or state.deferred:
        return  # (deferred: files not hashed yet; no last run saw them: record_deferred)
    whole = _is_whole(state)
    state.run_key = run_key(state, whole=whole)
    if not state.options.reuse_run:
        return
    subset = not whole and _under_cwd(state)
    hit = cache.get_run(state.run_key)
    if hit is None and subset:
        hit = cache.get_run(run_key(state, whole=True))
    else:
        subset = False
    if hit is None:
        return
    try:
        findings, nfiles, skipped, reported = hit
        findings = [finding_from_data(f) for f in findings]
        skipped, reported = list(skipped), list(reported)
    except (TypeError, ValueError):
        return
    if subset:
        sel = state.selection
        reported = reported_files(state)
        wanted = set(reported)
        findings = [f for f in findings if sel.reports(sel.absolute(f.path))]
        skipped = keep_skipped(skipped, wanted)
        nfiles = len(reported)
    state.result = RunResult(
        findings,
        nfiles,
        None,
        state.selection.config,
        skipped,
        reported,
        list(state.selection.notes),
    )
