"""The pipeline, one module per stage (:data:`STAGES`), run in order on one :class:`State`;
:func:`build_corpus` runs those up to the corpus, without checks."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..config import Config
from ..corpus import Corpus
from ..discovery import inside, relpath_of
from ..errors import UsageError
from ..findings import Finding
from ..roots import plan_roots
from .context import Context, MergedCorpus, Options, RunResult, Source, State
from .corpus import corpus_checks, dry_runs, make_corpus
from .locate import locate_stage
from .perfile import per_file
from .read import read
from .report import report
from .select import Selection, configure, select

STAGES = (
    configure,
    select,
    read,
    per_file,
    make_corpus,
    corpus_checks,
    dry_runs,
    locate_stage,
    report,
)

CORPUS_STAGES = (configure, select, read, per_file, make_corpus)


def run(
    paths: list[str],
    options: Options,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
) -> RunResult:
    """``si-lint check``: every stage for each corpus root of the named paths (SPEC §9
    "Corpus root"), the results merged. ``overrides``: unsaved buffers by absolute path."""
    options = options or Options()
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
    findings: list[Finding] = []
    seen = set()
    for r in results:
        for f in r.findings:
            key = (f.path, f.document, f.line, f.column, f.code, f.message)
            if key not in seen:
                seen.add(key)
                findings.append(f)
    findings.sort(key=Finding.sort_key)
    corpora = [r.corpus for r in results if r.corpus is not None]
    config = results[0].config if results else Config(root=Path(cwd), root_how="none")
    return RunResult(
        findings,
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
    "Source",
    "State",
    "UsageError",
    "build_corpus",
    "run",
]
