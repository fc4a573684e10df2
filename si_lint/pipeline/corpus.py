"""Stage 4, corpus: the documents become one :class:`~si_lint.corpus.Corpus` (the
reference graph is built from it on first use) and the corpus checks run on it. Their
findings are cached under a digest of every file the run read (:func:`corpus_key`): a
re-check of an unchanged corpus builds no graph and runs none. (The dry runs are cached
each on what it reads: ``Context.map``.)"""

from __future__ import annotations

import hashlib

from ..corpus import Corpus
from ..findings import Diag
from ..limits import MAX_CACHED_FINDINGS
from ..registry import enforce
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


# Stage 5, dry runs: every fixture is scored by the evaluator against its scenario, and
# the probes run (the corpus checks registered with ``stage="dryrun"``, checks/dryrun.py),
# in worker processes under ``--jobs`` > 1 while the parent runs the corpus checks (the
# corpus stage left them in ``ctx.meanwhile``). The Diags keep the order: corpus checks,
# then dry runs. Each scenario's dry run is cached on what it reads (``Context.map``).


def dry_runs(state: State) -> None:
    """The dry-run stage's findings: from the cache when it holds them under the corpus
    key with the tag ``dryrun`` (every file's content hash: nothing a dry run reads has
    changed; the per-task answers are then kept as they are, for the next edit), else
    computed (each scenario's own dry run answered from the cache if it can be)."""
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
            diags = corpus_diags(corpus, ctx, state.checks, "dryrun")
            if key is not None and len(diags) <= MAX_CACHED_FINDINGS:
                state.cache.memo_put(key, diags)
    finally:
        pending, ctx.meanwhile = ctx.meanwhile, None
    if pending is not None:  # no worker ran: the corpus checks run now
        pending()
    state.diags.extend(diags)
