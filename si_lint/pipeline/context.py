"""What flows through the pipeline: options, the checks' context, the run state, the
result."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..config import Config
from ..corpus import Corpus
from ..findings import Diag, Finding
from ..limits import MAX_CACHED_FINDINGS
from . import forkmap


@dataclass
class Options:
    """The command line's options besides its paths (``progress``: a transient bar on
    stderr, only on a terminal, runs over 1 s)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    trust_implementations: bool = False
    use_cache: bool = True
    cache_dir: str | None = None
    jobs: int | None = None
    progress: bool = False
    config_file: str | None = None
    profile: str | None = None
    extend_select: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    isolated: bool = False


@dataclass(eq=False)
class Context:
    """What a check gets besides its document or corpus. ``meanwhile``: the parent's own
    work while workers compute (the corpus checks, while the dry runs are in workers).
    ``jobs``: set by the per-file stage; None: ``--jobs``."""

    profile: Any
    config: Config
    options: Options = field(default_factory=Options)
    corpus: Corpus | None = None
    cache: Any = None
    meanwhile: Any = None
    memo_tasks: bool = False
    jobs: int | None = None

    @property
    def workers(self) -> int | None:
        return self.jobs if self.jobs is not None else self.options.jobs

    def map(self, tasks: list) -> list:
        """``[task() for task in tasks]``. Under :attr:`memo_tasks`, a task that declares
        what it reads (``task.inputs()``) is answered from the cache under
        :func:`task_key`: the task itself never sees the cache."""
        meanwhile, self.meanwhile = self.meanwhile, None
        tasks = list(tasks)
        cache = self.cache if self.memo_tasks else None
        if cache is None or not cache.enabled:
            return forkmap.fork_map(tasks, self.workers, meanwhile)
        keys = [task_key(task) for task in tasks]
        got = [cache.memo_get(key) if key is not None else (False, None) for key in keys]
        out = [value for _found, value in got]
        todo = [i for i, (found, _value) in enumerate(got) if not found]
        done = forkmap.fork_map([tasks[i] for i in todo], self.workers, meanwhile)
        stored = sum(len(value) for value in out if value is not None)
        for i, value in zip(todo, done):
            out[i] = value
            stored += len(value)
            if keys[i] is not None and stored <= MAX_CACHED_FINDINGS:
                cache.memo_put(keys[i], value)
        return out


def task_key(task: Any) -> tuple[str, str] | None:
    """A digest of what a task reads beyond the cache's header: its kind, its parameters
    and each document's path, index and content hash. None (computed every time) when it
    declares no inputs or reads a document whose bytes have no hash."""
    inputs = getattr(task, "inputs", None)
    if inputs is None:
        return None
    params, docs = inputs()
    kind = f"{type(task).__module__}.{type(task).__qualname__}"
    h = hashlib.sha256(f"{kind}\0{params!r}\n".encode("utf-8", "surrogatepass"))
    for doc in docs:
        if not doc.sha:
            return None
        h.update(f"{doc.relpath}\0{doc.index}\0{doc.sha}\n".encode("utf-8", "surrogatepass"))
    return ("task", h.hexdigest())


class MergedCorpus:
    def __init__(self, corpora: list):
        self.documents = [d for c in corpora for d in c.documents]
        self.by_file = {path: docs for c in corpora for path, docs in c.by_file.items()}


@dataclass(eq=True)
class RunResult:
    """What a run found. ``skipped``: documents of no kind; ``notes``: shown under
    --verbose; ``skipped_paths``: ``(path, reason)`` of each named path not checked
    (SPEC §9), counted in the summary; ``warnings``: always shown on stderr."""

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
    """One file as read: its bytes (dropped once checked) or why it could not be read,
    and the sha256 of ``raw`` ("": unread). The bytes hashed are the bytes checked."""

    abspath: str
    raw: bytes | None
    error: str | None
    sha: str


@dataclass(eq=False)
class State:
    """The run state: each stage reads what earlier stages wrote and adds its part
    (``profile_dirs``/``profile_docs``: SPEC §1, ``profile_docs.read_for``)."""

    paths: list[str]
    options: Options
    cwd: Any
    overrides: dict[str, bytes] = field(default_factory=dict)
    with_checks: bool = True
    config: Config | None = None
    selection: Any = None  # select.Selection
    profile: Any = None
    ctx: Context | None = None
    cache: Any = None
    sources: list[Source] = field(default_factory=list)
    profile_dirs: dict = field(default_factory=dict)
    profile_docs: dict = field(default_factory=dict)
    docs: list = field(default_factory=list)
    per_file: dict[str, list[Finding]] = field(default_factory=dict)
    corpus: Corpus | None = None
    diags: list[Diag] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    result: RunResult | None = None
    root_info: Any = None
    not_corpus: set[str] = field(default_factory=set)
    corpus_key: tuple[str, str] | None = None

    @cached_property
    def checks(self) -> tuple:
        from ..checks import all_checks  # (the checks: a warm re-check imports none)

        return all_checks() if self.with_checks else ()
