"""Stage 4, corpus: the documents become one :class:`~si_lint.corpus.Corpus` and the
corpus checks run on it, their findings cached under :func:`corpus_key`; stage 5, the dry
runs."""

from __future__ import annotations

import hashlib

from ..corpus import Corpus
from ..findings import Diag
from ..limits import MAX_CACHED_FINDINGS
from ..registry import STAGES, enforce
from .context import Context, State
from .forkmap import jobs_of
from .perfile import crash


def corpus_diags(corpus: Corpus, ctx: Context, checks, stages=STAGES) -> list[Diag]:
    """The Diags of the corpus checks of ``stages`` (``corpus``, ``dryrun``), in that order."""
    out: list[Diag] = []
    # (a file check's stage is "file")
    for check in (c for stage in stages for c in checks if c.stage == stage):
        try:
            out.extend(enforce(check, check.func(corpus, ctx)))
        except Exception as exc:
            out.append(crash(check, exc, None))
    return out


def make_corpus(state: State) -> None:
    corpus = state.corpus = Corpus(state.docs, state.profile, state.selection.config)
    corpus.profile_dirs, corpus.profile_docs = state.profile_dirs, state.profile_docs
    assert state.ctx is not None  # the select stage made it
    state.ctx.corpus = corpus


def corpus_key(state: State) -> tuple[str, str] | None:
    """A digest of what the corpus checks read beyond the cache's header: every file's
    path and hash (or why it could not be read), the profile documents and the working
    directory (findings name paths relative to it). None without a cache."""
    cache = state.cache
    if cache is None or not cache.enabled:
        return None
    if state.corpus_key is not None:  # (made once per run: the corpus and dry-run stages)
        return state.corpus_key
    h = hashlib.sha256(f"corpus\0{state.cwd}\n".encode("utf-8", "surrogatepass"))
    for s in state.sources:
        h.update(f"{s.abspath}\0{s.sha}\0{s.error}\n".encode("utf-8", "surrogatepass"))
    for pdir, pdocs in sorted(state.profile_docs.items()):
        h.update(f"{pdir}\0{sorted(pdocs.digests.items())}\n".encode("utf-8", "surrogatepass"))
    state.corpus_key = ("corpus", h.hexdigest())
    return state.corpus_key


def corpus_checks(state: State) -> None:
    """Under ``--jobs`` > 1 left to the dry-run stage, which runs them while its workers
    score the fixtures (``ctx.meanwhile``)."""
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # make_corpus ran
    key = corpus_key(state)
    if key is not None:
        found, diags = state.cache.memo_get(key)
        if found:
            state.diags.extend(diags)
            return

    def run() -> None:
        diags = corpus_diags(corpus, ctx, state.checks, ("corpus",))
        corpus.drop_graph()  # no later stage reads it
        state.diags.extend(diags)
        if key is not None and len(diags) <= MAX_CACHED_FINDINGS:
            state.cache.memo_put(key, diags)

    if jobs_of(ctx.workers) > 1 and ctx.meanwhile is None:
        ctx.meanwhile = run
    else:
        run()


def dry_runs(state: State) -> None:
    """Stage 5: every fixture scored and the probes run; cached whole under the corpus key
    (the per-task answers kept for the next edit), else per scenario (``Context.map``)."""
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # the corpus stage ran
    key = corpus_key(state)
    key = ("dryrun", key[1]) if key is not None else None
    try:
        found, cached = state.cache.memo_get(key) if key is not None else (False, None)
        if found:
            diags: list = cached or []
            state.cache.keep_memo("task")  # (context.task_key's tag)
        else:
            diags = corpus_diags(corpus, ctx, state.checks, ("dryrun",))
            if key is not None and len(diags) <= MAX_CACHED_FINDINGS:
                state.cache.memo_put(key, diags)
    finally:
        pending, ctx.meanwhile = ctx.meanwhile, None
    if pending is not None:  # no worker ran: the corpus checks run now
        pending()
    state.diags.extend(diags)
