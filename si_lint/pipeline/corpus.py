"""Stage 4, corpus: the documents become one :class:`~si_lint.corpus.Corpus` (the
reference graph is built from it on first use) and the corpus checks run on it. Their
findings are cached under what they read (:func:`corpus_key`): a run where only the
content of fixtures changed -- the common edit -- builds no graph and runs none of them."""

from __future__ import annotations

import hashlib

from ..corpus import PACKED_KINDS, Corpus
from ..findings import Diag
from .context import Context, State


def corpus_diags(corpus: Corpus, ctx: Context, checks, stage: str) -> list[Diag]:
    """The Diags of the corpus checks of ``stage`` (``corpus`` or ``dryrun``); a check
    that raises is one SI000, the others still run."""
    from ..contract import enforce
    from .perfile import crash

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
    corpus.gc_frozen = state.frozen
    assert state.ctx is not None  # the select stage made it
    state.ctx.corpus = corpus


#: bump when what the corpus checks report for the same documents changes (part of the key)
CORPUS_MEMO = "si-corpus/2"


def corpus_key(state: State) -> tuple | None:
    """The key of the corpus checks' findings: what they read. Every document's path,
    index, kind and content hash -- for a fixture or evidence document its refs instead
    (``Document.artifact_refs``: the scenario it names; the corpus checks read nothing
    else of one, ``tests/test_corpus_memo.py`` holds them to it; its content is the
    per-file checks' and the dry runs', cached under its hash) -- which documents are
    the profile's, the profile documents, the working directory and the options. The
    cache's header holds the rest (si-lint's version, the profile, the configuration).
    None without a cache, or for a document with no content hash."""
    from ..cache.signed import dumps
    from .read import hash_profile_docs

    assert state.corpus is not None  # make_corpus ran
    cache, docs = state.cache, state.corpus.documents
    if cache is None or not cache.enabled or not all(d.sha for d in docs):
        return None
    options = state.options
    h = hashlib.sha256()
    h.update(
        repr(
            (str(state.cwd), options.select, options.ignore, options.trust_implementations)
        ).encode()
    )
    h.update(
        dumps(
            [
                (
                    d.relpath,
                    d.index,
                    d.ndocs,
                    d.kind,
                    d.profile_asset,
                    d.artifact_refs() if d.kind in PACKED_KINDS else d.sha,
                )
                for d in docs
            ]
        )
    )
    hash_profile_docs(h, state)
    return (CORPUS_MEMO, h.hexdigest())


def corpus_checks(state: State) -> None:
    """The corpus checks, or their findings from the cache. Under ``--jobs`` > 1 they are
    left to the dry-run stage, which runs them in the parent while its workers score the
    fixtures (``ctx.meanwhile``)."""
    from .forkmap import jobs_of

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
        if key is not None:
            state.cache.memo_put(key, diags)
        state.diags.extend(diags)

    if jobs_of(state.options.jobs) > 1 and ctx.meanwhile is None:
        ctx.meanwhile = run
    else:
        run()
