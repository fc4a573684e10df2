"""What flows through the pipeline: the options, the context checks see, the run state
the stages fill in one after another, and the result the reporters read.

Records (:class:`si_lint.records.Record`), not dataclasses: a run the run memo answers
imports this module."""

from __future__ import annotations

from ..errors import UsageError  # noqa: F401  (re-exported: pipeline.UsageError)
from ..findings import Diag, Finding
from ..records import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
if TYPE_CHECKING:  # annotations only: a run answered by the memo never loads the corpus
    from typing import Any

    from ..config import Config
    from ..corpus import Corpus


class Options(Record):
    """What a run was asked for besides its paths (the command line's options).

    - ``reuse_run``: a run whose files, paths and options are all unchanged reuses the
      last run's findings (no corpus is built: only for reports that need findings alone)
    - ``progress``: a transient bar on stderr (only on a terminal, runs over 1 s)
    - ``config_file``: ``--config FILE`` (its directory is the corpus root)
    - ``profile``: ``--profile``, replaces the configured ``profile`` (builtin,
      builtin:oasisctl, DIR)
    """

    def __init__(
        self,
        select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        trust_implementations: bool = False,
        verbose: bool = False,
        use_cache: bool = True,
        cache_dir: str | None = None,
        jobs: int | None = None,
        reuse_run: bool = False,
        progress: bool = False,
        config_file: str | None = None,
        profile: str | None = None,
    ):
        self.select = select
        self.ignore = ignore
        self.trust_implementations = trust_implementations
        self.verbose = verbose
        self.use_cache = use_cache
        self.cache_dir = cache_dir
        self.jobs = jobs
        self.reuse_run = reuse_run
        self.progress = progress
        self.config_file = config_file
        self.profile = profile


class Context:
    """What a check gets besides its document or corpus. ``meanwhile``: the parent's own
    work while workers compute (:func:`pipeline.forkmap.fork_map`): under ``--jobs`` > 1
    the corpus checks, while the dry runs are in workers. ``pool``: the per-file stage's
    worker pool, kept for the dry runs when ``keep_pool`` (``pipeline.run`` sets it and
    ends the pool: :meth:`close_pool`)."""

    def __init__(
        self,
        profile: Any,
        config: Config,
        options: Options | None = None,
        corpus: Corpus | None = None,
        cache: Any = None,
        meanwhile: Any = None,
    ):
        self.profile = profile
        self.config = config
        self.options = Options() if options is None else options
        self.corpus = corpus
        self.cache = cache
        self.meanwhile = meanwhile
        self.keep_pool = False
        self.pool = None

    def close_pool(self) -> None:
        from .forkmap import close_kept

        close_kept(self)

    @property
    def memoizing(self) -> bool:
        """:meth:`memo` keeps what it computes (a cache is in use): only then is a key
        worth making."""
        return self.cache is not None and self.cache.enabled

    def memo(self, key: tuple, compute):
        """Cross-file results (dry runs, probes: a list of Diags) cached across runs. ``key``
        must name the content hash of every document the result depends on (e.g. scenario
        and fixture ``doc.sha``), so that a change to any of them is a different key. The
        cache stores them as plain data (``si_lint.codec``)."""
        if not self.memoizing:
            return compute()
        return self.cache.memoize(key, compute)

    def memo_map(self, tasks: list[tuple[tuple | None, Any]]) -> list:
        """:meth:`memo` of many (key, compute) pairs, in order; the computes the cache does
        not answer run together, in worker processes under ``--jobs`` > 1 (they must be
        pure: what they return is all that is kept). A key of None is never cached."""
        from .forkmap import fork_map

        cache = self.cache if self.memoizing else None
        values: list = [None] * len(tasks)
        todo: list[int] = []
        for i, (key, _compute) in enumerate(tasks):
            found, value = (False, None) if cache is None or key is None else cache.memo_get(key)
            if found:
                values[i] = value
            else:
                todo.append(i)
        meanwhile, self.meanwhile = self.meanwhile, None
        computed = fork_map([tasks[i][1] for i in todo], self.options.jobs, meanwhile, self.pool)
        for i, value in zip(todo, computed):
            values[i] = value
            key = tasks[i][0]
            if cache is not None and key is not None:
                cache.memo_put(key, value)
        return values


class MergedCorpus:
    """What the reporters read of the corpora of a run over several roots: every
    document, and the documents of each file (``by_file``)."""

    def __init__(self, corpora: list):
        self.documents = [d for c in corpora for d in c.documents]
        self.by_file: dict = {}
        for c in corpora:
            self.by_file.update(c.by_file)


class RunResult(Record):
    """What a run found: the findings the reporters render, and what they say about
    the run: files checked, ``skipped``, ``reported`` (the files findings are reported
    for), ``notes`` (shown under --verbose: root, skipped files); ``memo``: the run memo
    that answers this run, (its file, its key), once written or read; ``looked``: the
    paths the corpus root was found from (``Root.looked``), for the replay memo;
    ``skipped_paths``: ``(path, reason)`` of each named path that was not checked (SPEC §9:
    excluded, not a corpus file, under no configured root, not a regular file, a link out
    of the root), counted in the summary; ``warnings``: lines always shown on stderr (the
    cross-file checks a guessed root leaves out)."""

    def __init__(
        self,
        findings: list[Finding],
        files: int,
        corpus: Corpus | MergedCorpus | None,
        config: Config,
        skipped: list[str] | None = None,
        reported: list[str] | None = None,
        notes: list[str] | None = None,
        memo: tuple[str, str] | None = None,
        looked: tuple[str, ...] = (),
        skipped_paths: list[tuple[str, str]] | None = None,
        warnings: list[str] | None = None,
    ):
        self.findings = findings
        self.files = files
        self.corpus = corpus
        self.config = config
        self.skipped = [] if skipped is None else skipped
        self.reported = [] if reported is None else reported
        self.notes = [] if notes is None else notes
        self.memo = memo
        self.looked = looked
        self.skipped_paths = [] if skipped_paths is None else skipped_paths
        self.warnings = [] if warnings is None else warnings


class Source(Record):
    """One file as the read stage read it: its bytes (dropped once the per-file stage is
    done with them), or why it could not be read, and ``sha``: the sha256 of ``raw`` (""
    when the file could not be read). ``unread``: not read yet -- without a cache nothing
    needs the hash before the per-file stage, which reads the file (in its worker process
    under --jobs: the parent's serial work shrinks) -- still once, and the bytes hashed
    are the bytes checked. ``changed``: the bytes checked are not the ones hashed first
    (the file changed during the run; ``sha`` is theirs)."""

    def __init__(
        self, abspath: str, raw: bytes | None, error: str | None, sha: str, unread: bool = False
    ):
        self.abspath = abspath
        self.raw = raw
        self.error = error
        self.sha = sha
        self.unread = unread
        self.changed = False


class State:
    """The run state: each stage reads what earlier stages wrote and adds its part.

    - ``cwd``: a resolved ``pathlib.Path``; ``config``: given, used instead of the one
      found from ``cwd``
    - ``profile_dirs``/``profile_docs``: OASIS profile directories (SPEC §1;
      si_lint.profile_docs.read_for): the profile directory of each file's directory, and
      what each one's Markdown documents define
    - ``diags``: the corpus and dry-run stages' output
    - ``root_info``, ``memo_dir``, ``memo_key``, ``deps``: the run memo (pipeline.memo):
      the root and configuration table found, the memo's directory and key, and the paths
      the run depended on with their ``stat`` numbers (filled by select and read);
      ``recalled``: the result came from the memo
    - ``frozen``: the per-file stage froze the GC (gc.freeze); ``gc_threshold``: the GC
      thresholds it raised for the corpus stages; ``run()`` unfreezes and restores them
    - ``walk_memo``: the walk the run memo recorded, when only files changed since: the
      select stage reuses it, and ``memo_table``, the configuration table that run parsed
      and validated from the same bytes; ``walk_record``: this run's walk as the memo
      records it (``walk_memo`` itself when reused: the memo names it, it is not written
      again); ``stats_taken``: the ``stat`` of each path the check of the run memo
      took (``statcache.taken``), which the read stage takes instead of its own
    - ``deferred``: the files the read stage left to the per-file stage to read and hash
      (a cache that holds no file yet: nothing to look a hash up in), with the ``stat_key``
      taken before; the per-file stage records them in the stat index
    """

    def __init__(
        self,
        paths: list[str],
        options: Options,
        cwd: Any,
        overrides: dict[str, bytes] | None = None,
        with_checks: bool = True,
        config: Config | None = None,
    ):
        self.paths = paths
        self.options = options
        self.cwd = cwd
        self.overrides = {} if overrides is None else overrides
        self.with_checks = with_checks
        self.config = config
        self.selection: Any = None  # select.Selection
        self.profile: Any = None
        self.ctx: Context | None = None
        self.cache: Any = None
        self.sources: list[Source] = []
        self.profile_dirs: dict = {}
        self.profile_docs: dict = {}
        self.run_key: str | None = None
        self.stat_index: Any = None  # statcache.StatIndex under a cache
        self.checks: tuple = ()
        self.docs: list = []
        self.per_file: dict[str, list[Finding]] = {}
        self.corpus: Corpus | None = None
        self.diags: list[Diag] = []
        self.findings: list[Finding] = []
        self.result: RunResult | None = None
        self.root_info: Any = None  # corpus.Root
        self.memo_dir: str | None = None
        self.memo_key: str | None = None
        self.recalled = False
        self.deps: dict = {}
        self.frozen = False
        self.gc_threshold: tuple | None = None
        self.walk_memo: dict | None = None
        self.memo_table: dict | None = None
        self.stats_taken: dict = {}
        self.walk_record: dict | None = None
        self.deferred: dict = {}
        #: files set aside as no corpus files (SPEC §9; pipeline.notcorpus), absolute
        self.not_corpus: set[str] = set()
