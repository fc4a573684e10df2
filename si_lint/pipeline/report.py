"""Stage 7, report: the :class:`RunResult` the reporters render; the cache is written."""

from __future__ import annotations

from .context import RunResult, State
from .notcorpus import not_corpus_note


def report(state: State) -> None:
    sel = state.selection
    corpus = state.corpus
    assert corpus is not None  # the corpus stage ran
    aside = {sel.relpath(p) for p in state.not_corpus}
    wanted = {sel.relpath(s.abspath) for s in state.sources if sel.reports(s.abspath)}
    wanted = (wanted | {sel.relpath(f) for f in sel.named_files}) - aside
    reported = sorted(wanted)
    skipped = [d.label for d in corpus.documents if d.kind is None and d.relpath in wanted]
    warnings = guessed_scope(state, reported)
    state.cache.save()
    state.result = RunResult(
        state.findings,
        len(reported),
        corpus,
        sel.config,
        skipped,
        reported,
        list(sel.notes)
        + [not_corpus_note(r) for r in sorted(aside)]
        + profile_notes(corpus, wanted),
        # the named paths that were not checked, with why (SPEC §9: counted in the summary)
        skipped_paths=list(sel.skipped_named)
        + [(rel, "not a corpus file") for rel in map(sel.relpath, sel.named_files) if rel in aside],
        warnings=warnings,
    )


#: the checks whose targets may lie outside a guessed root (SPEC §9 "Cross-file scope")
OUTSIDE_CODES = ("SI303", "SI611", "SI612", "SI613", "SI614", "SI619")
GUESSED_WARNING = (
    "no corpus root found for the named file(s) (no si-lint.toml, pyproject.toml with "
    "[tool.si-lint], OASIS profile layout or git work tree above): the corpus was guessed "
    "as the file's directory and may be incomplete, so "
    + ", ".join(OUTSIDE_CODES)
    + " (whose targets may lie outside it) were not checked; name the corpus directory or "
    "add si-lint.toml at the corpus root"
)


def guessed_scope(state: State, reported: list[str]) -> list[str]:
    """Under a guessed root (SPEC §9) the checks whose targets may lie outside it report
    nothing, and one warning says so."""
    if state.selection.config.root_how != "file" or not reported:
        return []
    state.findings = [f for f in state.findings if f.code not in OUTSIDE_CODES]
    return [GUESSED_WARNING]


def profile_notes(corpus, reported) -> list[str]:
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
