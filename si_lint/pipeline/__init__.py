"""The pipeline, one module per stage; data flows one way:

    configure → select → read → per-file → corpus → dry runs → locate → report

:func:`run` calls the stages (:data:`STAGES`) in order on one :class:`State`.
:func:`build_corpus` runs the stages up to the corpus without any check — what
``graph``, ``review`` and the language server need.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..config import Config
from ..corpus import Corpus
from .configure import configure
from .context import Context, Options, RunResult, Source, State, UsageError
from .corpus import corpus_checks, make_corpus
from .dryruns import dry_runs
from .locate import locate_stage
from .multi import run_roots
from .perfile import per_file
from .read import read
from .report import report
from .select import Selection, select

#: the stages of ``si-lint check``, in order
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

#: the stages that build a corpus without checking it
CORPUS_STAGES = (configure, select, read, per_file, make_corpus)


def _state(paths, options, cwd, overrides, with_checks, config=None, root=None) -> State:
    return State(
        paths=list(paths),
        options=options or Options(),
        cwd=(Path(cwd) if cwd else Path.cwd()).resolve(),
        overrides=dict(overrides or {}),
        with_checks=with_checks,
        config=config,
        root_info=root,  # (None: the configure stage finds it)
    )


def run(
    paths: list[str],
    options: Options,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
) -> RunResult:
    """``si-lint check``: every stage, in order, for each corpus root of the named paths
    (:mod:`.multi`: one run per root, merged). ``overrides`` maps absolute paths to bytes
    that stand in for the files on disk (unsaved editor buffers)."""
    options = options or Options()
    cwd = (Path(cwd) if cwd else Path.cwd()).resolve()
    return run_roots(paths, options, cwd, overrides, _run_one)


def _run_one(paths, options, cwd, overrides, root) -> RunResult:
    """Every stage, in order, over the paths of one corpus root (``root``: a ``Root``)."""
    state = _state(paths, options, cwd, overrides, True, root=root)
    for stage in STAGES:
        stage(state)
    assert state.result is not None  # the report stage made it
    return state.result


def build_corpus(
    paths: Sequence[str] = (),
    options: Options | None = None,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
    *,
    config: Config | None = None,
) -> tuple[Corpus, Selection]:
    """The corpus ``check`` would build for ``paths`` (the whole corpus under the root,
    the profile in use, ``overrides`` in place of files on disk), with no check run:
    for ``graph``, ``review`` and the language server. ``config`` replaces the one found
    from the current directory (``review`` finds it from its target). Documents keep their
    positions. Returns (corpus, selection)."""
    options = options or Options(use_cache=False)
    state = _state(paths, options, cwd, overrides, False, config)
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
