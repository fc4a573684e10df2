"""The pipeline: the stages (:data:`STAGES`) run in order on one :class:`State`;
:func:`build_corpus` runs those up to the corpus, without checks."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..config import Config
from ..corpus import Corpus
from ..discovery import inside, relpath_of
from ..errors import UsageError
from ..roots import plan_roots
from .context import Context, MergedCorpus, Options, RunResult, State
from .corpus import corpus_checks, dry_runs, make_corpus
from .locate import locate_stage, sorted_unique
from .perfile import not_corpus_note, per_file
from .read import read
from .select import Selection, configure, select


def report(state: State) -> None:
    """Stage 7: the :class:`RunResult` the reporters render; the cache is written."""
    sel = state.selection
    corpus = state.corpus
    assert corpus is not None  # the corpus stage ran
    aside = {sel.relpath(p) for p in state.not_corpus}
    # (every source has a document, whose relpath is the source's)
    wanted = {d.relpath for d in state.docs if sel.reports(d.abspath)}
    wanted = (wanted | {sel.relpath(f) for f in sel.named_files}) - aside
    reported = sorted(wanted)
    skipped = [d.label for d in corpus.documents if d.kind is None and d.relpath in wanted]
    # under a guessed root (SPEC §9) the checks whose targets may lie outside it report
    # nothing, and one warning says so
    guessed = sel.config.root_how == "file" and bool(reported)
    if guessed:
        state.findings = [f for f in state.findings if f.code not in OUTSIDE_CODES]
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
        skipped_paths=list(sel.skipped_named)
        + [(rel, "not a corpus file") for rel in map(sel.relpath, sel.named_files) if rel in aside],
        warnings=[GUESSED_WARNING] if guessed else [],
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


CORPUS_STAGES = (configure, select, read, per_file, make_corpus)
STAGES = CORPUS_STAGES + (corpus_checks, dry_runs, locate_stage, report)


def run(
    paths: list[str],
    options: Options,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
) -> RunResult:
    """``si-lint check``: every stage for each corpus root of the named paths (SPEC §9
    "Corpus root"), the results merged. ``overrides``: unsaved buffers by absolute path."""
    cwd = (Path(cwd) if cwd else Path.cwd()).resolve()
    plan = plan_roots(cwd, list(paths), options.config_file, options.isolated)
    skipped = [(relpath_of(p, cwd), why) for p, why in plan.skipped]
    results = []
    for group in plan.groups:
        root = str(group.root.path)
        # the unsaved buffers of the group: those under its root or named in it
        sub = {
            k: v
            for k, v in (overrides or {}).items()
            if inside(os.path.abspath(k), root) or os.path.abspath(k) in group.paths
        }
        state = State(list(group.paths), options, cwd, sub, root_info=group.root)
        for stage in STAGES:
            stage(state)
        assert state.result is not None  # the report stage made it
        results.append(state.result)
    if len(results) == 1 and not skipped:
        return results[0]
    return merge(results, skipped, cwd)


def merge(results: list[RunResult], skipped: list[tuple[str, str]], cwd: Path) -> RunResult:
    """``skipped``: the named paths no root holds, with their reasons."""
    corpora = [r.corpus for r in results if r.corpus is not None]
    config = results[0].config if results else Config(root=Path(cwd), root_how="none")
    return RunResult(
        sorted_unique([f for r in results for f in r.findings]),
        sum(r.files for r in results),
        MergedCorpus(corpora) if corpora and len(corpora) == len(results) else None,
        config,
        [s for r in results for s in r.skipped],
        [p for r in results for p in r.reported],
        [n for r in results for n in r.notes] + [f"skipped {p}: {why}" for p, why in skipped],
        [p for r in results for p in r.skipped_paths] + skipped,
        sorted({w for r in results for w in r.warnings}),  # (one line each)
    )


def build_corpus(
    paths: Sequence[str] = (),
    options: Options | None = None,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
    *,
    config: Config | None = None,
) -> tuple[Corpus, Selection]:
    """The corpus ``check`` would build for ``paths``, with no check run, documents keeping
    their positions. ``config`` replaces the one found from ``cwd``."""
    cwd = (Path(cwd) if cwd else Path.cwd()).resolve()
    options = options or Options(use_cache=False)
    state = State(list(paths), options, cwd, dict(overrides or {}), False, config)
    for stage in CORPUS_STAGES:
        stage(state)
    assert state.corpus is not None  # make_corpus made it
    return state.corpus, state.selection


__all__ = [
    "CORPUS_STAGES",
    "STAGES",
    "Context",
    "Options",
    "RunResult",
    "Selection",
    "State",
    "UsageError",
    "build_corpus",
    "run",
]
