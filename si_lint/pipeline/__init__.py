"""The pipeline, one module per stage; data flows one way:

    configure → recall → select → read → reuse_run → per-file → corpus → dry runs →
    locate → report → remember

:func:`run` is the list of stages (:data:`STAGES`) applied to one :class:`State`.
:func:`build_corpus` runs the stages up to the corpus without any check — what
``graph``, ``review`` and the language server need.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from .context import Context, Options, RunResult, Source, State, UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..config import Config
    from ..corpus import Corpus
    from .select import Selection


class Stage:
    """One stage: ``function`` of ``si_lint.pipeline.<module>``, imported when the stage
    first runs (a run the memo answers never loads the checks, the loader or the corpus)."""

    __slots__ = ("module", "name", "_func")

    def __init__(self, module: str, name: str):
        self.module = module
        self.name = name
        self._func: Callable[[State], None] | None = None

    def __call__(self, state: State) -> None:
        func = self._func
        if func is None:
            module = importlib.import_module(f"{__name__}.{self.module}")
            func = self._func = getattr(module, self.name)
        func(state)

    def __repr__(self) -> str:
        return f"Stage({self.module}.{self.name})"


#: the stages of ``si-lint check``, in order (``recall`` and ``reuse_run`` may answer
#: the run early; ``remember`` writes the run memo after a full run)
STAGES = (
    Stage("configure", "configure"),
    Stage("memo", "recall"),
    Stage("select", "select"),
    Stage("read", "read"),
    Stage("read", "reuse_run"),
    Stage("perfile", "per_file"),
    Stage("corpus", "make_corpus"),
    Stage("corpus", "corpus_checks"),
    Stage("dryruns", "dry_runs"),
    Stage("locate", "locate_stage"),
    Stage("report", "report"),
    Stage("memo", "remember"),
)

#: the stages that build a corpus without checking it
CORPUS_STAGES = tuple(
    s for s in STAGES if s.name in ("configure", "select", "read", "per_file", "make_corpus")
)


def _state(paths, options, cwd, overrides, with_checks, config=None, root=None) -> State:
    state = State(
        paths=list(paths),
        options=options or Options(),
        cwd=(Path(cwd) if cwd else Path.cwd()).resolve(),
        overrides=dict(overrides or {}),
        with_checks=with_checks,
        config=config,
    )
    state.root_info = root  # (None: the configure stage finds it)
    return state


def run(
    paths: list[str],
    options: Options,
    cwd: Path | None = None,
    overrides: dict[str, bytes] | None = None,
) -> RunResult:
    """``si-lint check``: every stage, in order, for each corpus root of the named paths
    (:mod:`.multi`: one run per root, merged). ``overrides`` maps absolute paths to bytes
    that stand in for the files on disk (unsaved editor buffers)."""
    from .multi import run_roots

    options = options or Options()
    cwd = (Path(cwd) if cwd else Path.cwd()).resolve()
    return run_roots(paths, options, cwd, overrides, _run_one)


def _run_one(paths, options, cwd, overrides, root) -> RunResult:
    """Every stage, in order, over the paths of one corpus root (``root``: a ``Root``)."""
    state = _state(paths, options, cwd, overrides, True, root=root)
    try:
        for stage in STAGES:
            if state.result is None or stage.name == "remember":
                stage(state)
    finally:
        import gc

        if state.ctx is not None:  # the per-file stage's workers, kept for the dry runs
            state.ctx.close_pool()
        if state.frozen:
            gc.unfreeze()
            if state.corpus is not None:  # a graph built after the run is not frozen
                state.corpus.gc_frozen = False
        if state.gc_threshold is not None:
            gc.set_threshold(*state.gc_threshold)
    assert state.result is not None  # the report stage (or the run memo) made it
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


def __getattr__(name: str):
    """``Selection`` (of the select stage), imported on first use."""
    if name == "Selection":
        from .select import Selection

        return Selection
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
