"""What flows through the pipeline: the options, the context checks see, the run state
the stages fill in one after another, and the result the reporters read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError  # noqa: F401  (re-exported: pipeline.UsageError)
from ..findings import Diag, Finding

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
if TYPE_CHECKING:  # annotations only: a run answered by the memo never loads the corpus
    from typing import Any

    from ..config import Config
    from ..corpus import Corpus


@dataclass
class Options:
    """What a run was asked for besides its paths (the command line's options)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    trust_implementations: bool = False
    verbose: bool = False
    use_cache: bool = True
    cache_dir: str | None = None
    jobs: int | None = None
    #: a run whose files, paths and options are all unchanged reuses the last run's
    #: findings (no corpus is built: only for reports that need findings alone)
    reuse_run: bool = False
    progress: bool = False  # a transient bar on stderr (only on a terminal, runs over 1 s)
    config_file: str | None = None  # --config FILE (its directory is the corpus root)
    #: ``--profile``: replaces the configured ``profile`` (builtin, builtin:oasisctl, DIR)
    profile: str | None = None


@dataclass
class Context:
    """What a check gets besides its document or corpus."""

    profile: Any
    config: Config
    options: Options = field(default_factory=Options)
    corpus: Corpus | None = None
    cache: Any = None
    #: the parent's own work while workers compute (:func:`pipeline.forkmap.fork_map`):
    #: under ``--jobs`` > 1 the corpus checks, while the dry runs are in workers
    meanwhile: Any = None

    def memo(self, key: tuple, compute):
        """Cross-file results (dry runs, probes: a list of Diags) cached across runs. ``key``
        must name the content hash of every document the result depends on (e.g. scenario
        and fixture ``doc.sha``), so that a change to any of them is a different key. The
        cache stores them as plain data (``si_lint.codec``)."""
        if self.cache is None or not self.cache.enabled:
            return compute()
        return self.cache.memoize(key, compute)

    def memo_map(self, tasks: list[tuple[tuple | None, Any]]) -> list:
        """:meth:`memo` of many (key, compute) pairs, in order; the computes the cache does
        not answer run together, in worker processes under ``--jobs`` > 1 (they must be
        pure: what they return is all that is kept). A key of None is never cached."""
        from .forkmap import fork_map

        cache = self.cache if self.cache is not None and self.cache.enabled else None
        values: list = [None] * len(tasks)
        todo: list[int] = []
        for i, (key, _compute) in enumerate(tasks):
            found, value = (False, None) if cache is None or key is None else cache.memo_get(key)
            if found:
                values[i] = value
            else:
                todo.append(i)
        meanwhile, self.meanwhile = self.meanwhile, None
        computed = fork_map([tasks[i][1] for i in todo], self.options.jobs, meanwhile)
        for i, value in zip(todo, computed):
            values[i] = value
            key = tasks[i][0]
            if cache is not None and key is not None:
                cache.memo_put(key, value)
        return values


@dataclass
class RunResult:
    """What a run found: the findings the reporters render, and what they say about
    the run (files checked, skipped, reported; notes)."""

    findings: list[Finding]
    files: int
    corpus: Corpus | None
    config: Config
    skipped: list[str] = field(default_factory=list)
    reported: list[str] = field(default_factory=list)  # the files findings are reported for
    notes: list[str] = field(default_factory=list)  # shown under --verbose (root, skipped files)
    #: the run memo that answers this run: (its file, its key), once written or read
    memo: tuple[str, str] | None = None
    #: the paths the corpus root was found from (``Root.looked``), for the replay memo
    looked: tuple[str, ...] = ()


@dataclass
class Source:
    """One file as the read stage read it: its bytes (dropped once the per-file stage is
    done with them), or why it could not be read, and the content hash of those bytes."""

    abspath: str
    raw: bytes | None
    error: str | None
    sha: str  # sha256 of ``raw``; "" when the file could not be read
    #: not read yet: without a cache nothing needs the hash before the per-file stage,
    #: which reads the file (in its worker process under --jobs: the parent's serial
    #: work shrinks) -- still once, and the bytes hashed are the bytes checked
    unread: bool = False


@dataclass
class State:
    """The run state: each stage reads what earlier stages wrote and adds its part."""

    paths: list[str]
    options: Options
    cwd: Any  # pathlib.Path, resolved
    overrides: dict[str, bytes] = field(default_factory=dict)
    with_checks: bool = True
    config: Config | None = None  # given: used instead of the one found from ``cwd``
    selection: Any = None  # select.Selection
    profile: Any = None
    ctx: Context | None = None
    cache: Any = None
    sources: list[Source] = field(default_factory=list)
    #: OASIS profile directories (SPEC §1; si_lint.profile_docs.read_for): the profile
    #: directory of each file's directory, and what each one's Markdown documents define
    profile_dirs: dict = field(default_factory=dict)
    profile_docs: dict = field(default_factory=dict)
    run_key: str | None = None
    stat_index: Any = None  # statcache.StatIndex under a cache
    checks: tuple = ()
    docs: list = field(default_factory=list)
    per_file: dict[str, list[Finding]] = field(default_factory=dict)
    corpus: Corpus | None = None
    diags: list[Diag] = field(default_factory=list)  # corpus and dry-run stage output
    findings: list[Finding] = field(default_factory=list)
    result: RunResult | None = None
    #: the run memo (pipeline.memo): its directory and key, and the paths the run
    #: depended on with their ``stat`` numbers (filled by select and read)
    root_info: Any = None  # corpus.Root: the root and configuration table found
    memo_dir: str | None = None
    memo_key: str | None = None
    recalled: bool = False  # the result came from the memo
    deps: dict = field(default_factory=dict)
    frozen: bool = False  # the per-file stage froze the GC (gc.freeze); run() unfreezes
    #: the GC thresholds the per-file stage raised for the corpus stages; run() restores them
    gc_threshold: tuple | None = None
    #: the walk the run memo recorded, when only files changed since (pipeline.memo):
    #: the select stage reuses it; and this run's walk as the memo records it
    walk_memo: dict | None = None
    walk_record: dict | None = None
