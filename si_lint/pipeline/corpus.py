"""Stage 4, corpus: the documents become one :class:`~si_lint.corpus.Corpus` (the
reference graph is built from it on first use) and the corpus checks run on it. Their
findings are cached under a digest of every file the run read (:func:`corpus_key`): a
re-check of an unchanged corpus builds no graph and runs none. (The dry runs are cached
each on what it reads: ``Context.map``.)"""

from __future__ import annotations

import hashlib

from ..contract import enforce
from ..corpus import Corpus
from ..findings import Diag
from ..limits import MAX_CACHED_FINDINGS
from .context import Context, State
from .forkmap import jobs_of
from .perfile import crash


def corpus_diags(corpus: Corpus, ctx: Context, checks, stage: str) -> list[Diag]:
    """The Diags of the corpus checks of ``stage`` (``corpus`` or ``dryrun``); a check
    that raises is one SI000, the others still run."""
    out: list[Diag] = []
    for check in checks:
        if check.scope != "corpus" or check.stage != stage:
            continue
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
    """The key of the corpus checks' findings: a digest of everything they may read that
    the cache's header does not hold -- every file's path and content hash (or why it
    could not be read), the profile documents and the working directory (findings name
    paths relative to it). The header holds the rest: si-lint's code, the profile, the
    effective configuration and the options. None without a cache."""
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
    """The corpus checks, unless the cache holds their findings under :func:`corpus_key`.
    Under ``--jobs`` > 1 they are left to the dry-run stage, which runs them in the parent
    while its workers score the fixtures (``ctx.meanwhile``)."""
    corpus, ctx = state.corpus, state.ctx
    assert corpus is not None and ctx is not None  # make_corpus ran
    key = corpus_key(state)
    if key is not None:
        found, diags = state.cache.memo_get(key)
        if found:
            state.diags.extend(diags)
            return

    def run() -> None:
        diags = corpus_diags(corpus, ctx, state.checks, "corpus")
        corpus.drop_graph()  # no later stage reads it
        state.diags.extend(diags)
        if key is not None and len(diags) <= MAX_CACHED_FINDINGS:
            state.cache.memo_put(key, diags)

    if jobs_of(ctx.workers) > 1 and ctx.meanwhile is None:
        ctx.meanwhile = run
    else:
        run()
