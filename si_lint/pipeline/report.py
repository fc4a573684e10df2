"""Stage 7, report: the :class:`RunResult` the reporters (``si_lint.report``) render —
the located findings and the files they cover; the cache is written here."""

from __future__ import annotations

from .context import RunResult, State


def report(state: State) -> None:
    sel = state.selection
    corpus = state.corpus
    reported = reported_files(state)
    wanted = set(reported)
    skipped = [d.label for d in corpus.documents if d.kind is None and d.relpath in wanted]
    state.cache.save()
    state.result = RunResult(
        state.findings,
        len(reported),
        corpus,
        sel.config,
        skipped,
        reported,
        list(sel.notes) + profile_notes(corpus, wanted),
    )


def profile_notes(corpus, reported) -> list[str]:
    """One --verbose line when some reported scenario file has no OASIS profile directory
    (SI611, SI612, SI614 and SI619 are silent there)."""
    files = {d.relpath: d for d in corpus.of_kind("scenario") if d.relpath in reported}
    alone = sorted(rel for rel, d in files.items() if corpus.profile_docs_for(d) is None)
    if not alone:
        return []
    shown = ", ".join(alone[:3]) + (", ..." if len(alone) > 3 else "")
    return [
        f"no OASIS profile directory (profile.md in an ancestor up to the corpus root) for "
        f"{len(alone)} scenario file(s) ({shown}): SI611, SI612, SI614 and SI619 are not "
        "checked there"
    ]


def reported_files(state: State) -> list[str]:
    """The files findings are reported for (relative paths), sorted."""
    sel = state.selection
    return sorted(
        {sel.relpath(s.abspath) for s in state.sources if sel.reports(s.abspath)}
        | {sel.relpath(f) for f in sel.named_files}
    )
