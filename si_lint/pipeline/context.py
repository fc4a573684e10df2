"""What flows through the pipeline: the options, the context checks see, the run state
the stages fill in one after another, and the result the reporters read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import UsageError  # noqa: F401  (re-exported: pipeline.UsageError)
from ..findings import Diag, Finding
from ..records import Record

if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..config import Config
    from ..corpus import Corpus


class Options(Record):
    """What a run was asked for besides its paths (the command line's options).

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

    def map(self, tasks: list) -> list:
        """``[task() for task in tasks]``, in order; in worker processes under ``--jobs``
        > 1 (they must be pure: what they return is all that is kept), while the parent
        runs :attr:`meanwhile`."""
        from .forkmap import fork_map

        meanwhile, self.meanwhile = self.meanwhile, None
        return fork_map(list(tasks), self.options.jobs, meanwhile, self.pool)


class MergedCorpus:
    """What the reporters read of the corpora of a run over several roots: every
    document, and the documents of each file (``by_file``)."""

    def __init__(self, corpora: list):
        self.documents = [d for c in corpora for d in c.documents]
        self.by_file: dict = {}
        for c in corpora:
            self.by_file.update(c.by_file)


@dataclass(eq=True)
class RunResult:
    """What a run found: the findings the reporters render, and what they say about
    the run: files checked, ``skipped``, ``reported`` (the files findings are reported
    for), ``notes`` (shown under --verbose: root, skipped files); ``skipped_paths``:
    ``(path, reason)`` of each named path that was not checked (SPEC §9: excluded, not a
    corpus file, under no configured root, not a regular file, a link out of the root),
    counted in the summary; ``warnings``: lines always shown on stderr (the cross-file
    checks a guessed root leaves out)."""

    findings: list[Finding]
    files: int
    corpus: Corpus | MergedCorpus | None
    config: Config
    skipped: list[str] = field(default_factory=list)
    reported: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped_paths: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(eq=True)
class Source:
    """One file as the read stage read it: its bytes (dropped once the per-file stage is
    done with them), or why it could not be read, and ``sha``: the sha256 of ``raw`` (""
    when the file could not be read). The bytes hashed are the bytes checked."""

    abspath: str
    raw: bytes | None
    error: str | None
    sha: str


class State:
    """The run state: each stage reads what earlier stages wrote and adds its part.

    - ``cwd``: a resolved ``pathlib.Path``; ``config``: given, used instead of the one
      found from ``cwd``
    - ``profile_dirs``/``profile_docs``: OASIS profile directories (SPEC §1;
      si_lint.profile_docs.read_for): the profile directory of each file's directory, and
      what each one's Markdown documents define
    - ``diags``: the corpus and dry-run stages' output
    - ``root_info``: the corpus root and configuration table found (configure)
    - ``corpus_key``: the key the corpus and dry-run stages' findings are stored under
      (``pipeline.corpus.corpus_key``); ``corpus_cached``: the cache answered them
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
        self.checks: tuple = ()
        self.docs: list = []
        self.per_file: dict[str, list[Finding]] = {}
        self.corpus: Corpus | None = None
        self.diags: list[Diag] = []
        self.findings: list[Finding] = []
        self.result: RunResult | None = None
        self.root_info: Any = None  # corpus.Root
        self.corpus_key: str | None = None
        self.corpus_cached = False
        #: files set aside as no corpus files (SPEC §9; pipeline.notcorpus), absolute
        self.not_corpus: set[str] = set()
