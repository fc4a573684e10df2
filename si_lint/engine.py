"""The pipeline: load → classify → per-file checks → corpus graph → corpus checks
(dry runs included) → filtered, located findings for the report stage."""

from __future__ import annotations

import hashlib
import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .catalogue import severity_of
from .contract import enforce
from .corpus import Config, Corpus, Document, classify, discover, load_config, relpath_of
from .findings import Diag, Finding, Location, format_path
from .loader import PosMap, load_bytes

CODES = ("SI000", "SI009")

_SUPPRESS = re.compile(r"#\s*si-lint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)")


from .errors import UsageError  # noqa: E402,F401  (re-exported: engine.UsageError)


@dataclass
class Options:
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


@dataclass
class Context:
    profile: Any
    config: Config
    options: Options = field(default_factory=Options)
    corpus: Corpus | None = None
    cache: Any = None

    def memo(self, key: tuple, compute):
        """Cross-file results (dry runs, probes) cached across runs. ``key`` must name the
        content hash of every document the result depends on (e.g. scenario and fixture
        ``doc.sha``), so that a change to any of them is a different key."""
        if self.cache is None or not self.cache.enabled:
            return compute()
        return self.cache.memoize(key, compute)


@dataclass
class RunResult:
    findings: list[Finding]
    files: int
    corpus: Corpus
    config: Config
    skipped: list[str] = field(default_factory=list)
    reported: list[str] = field(default_factory=list)  # the files findings are reported for


# --------------------------------------------------------------------------------------
# loading


def scan_suppressions(text: str, quiet_spans=()) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Suppression comments: (line the comment is on, column, kind, codes). ``kind`` is
    ``line`` (inline), ``above`` (alone on its line: covers the next line) or ``file``.
    Text inside a scalar (``quiet_spans``, from the loader) is data, never a comment."""
    if "si-lint:" not in text:
        return []
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        if "si-lint:" not in line:
            continue
        m = _SUPPRESS.search(line)
        if not m:
            continue
        codes = tuple(c.strip() for c in m.group(2).split(",") if c.strip())
        col = m.start() + 1
        if any(start <= (i, col) < end for start, end in quiet_spans):
            continue
        if m.group(1) == "disable-file":
            kind = "file"
        elif line[: m.start()].strip() == "":
            kind = "above"
        else:
            kind = "line"
        out.append((i, col, kind, codes))
    return out


def read_file(path: Path) -> tuple[bytes | None, str | None]:
    """The file's bytes, or why it cannot be read. Never blocks on a FIFO or a device,
    never reads more than the size limit allows (a larger file is refused by SI005)."""
    import stat

    from .loader import MAX_BYTES

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file"
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
        return raw, None
    except OSError as exc:
        return None, exc.strerror or type(exc).__name__


def load_document(path: Path, cwd: Path, raw: bytes | None = None, error: str | None = None) -> Document:
    relpath = relpath_of(path, cwd)
    if raw is None and error is None:
        raw, error = read_file(path)
    if raw is None:
        return Document(
            relpath,
            str(path),
            None,
            None,
            PosMap(),
            load_findings=[Diag("SI001", (), f"file cannot be read: {error}", line=1, col=1)],
        )
    loaded = load_bytes(raw)
    kind = None if loaded.failed else classify(loaded.data)
    return Document(
        relpath,
        str(path),
        kind,
        loaded.data,
        loaded.pos,
        sha=hashlib.sha256(raw).hexdigest(),
        load_findings=list(loaded.findings),
        suppressions=scan_suppressions(loaded.text, loaded.quiet_spans) if loaded.text else [],
    )


# --------------------------------------------------------------------------------------
# running checks


def _crash(check, exc: BaseException, file: str | None) -> Diag:
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Diag(
        "SI000",
        (),
        f"internal error: check {check.name} crashed ({type(exc).__name__}: {exc}); "
        "other checks still ran",
        file=file,
        line=1,
        col=1,
        help="please report this with the file that triggers it",
        fix=("traceback", tb),
    )


def file_diags(doc: Document, ctx: Context, checks) -> list[Diag]:
    out = list(doc.load_findings)
    if any(d.code in ("SI001", "SI005", "SI006") for d in doc.load_findings):
        return out
    for check in checks:
        if check.scope != "file":
            continue
        if check.kinds is not None and doc.kind not in check.kinds:
            continue
        try:
            out.extend(enforce(check, check.func(doc, ctx)))
        except Exception as exc:  # one crashing check is a finding, not an aborted run
            out.append(_crash(check, exc, doc.relpath))
    return out


def corpus_diags(corpus: Corpus, ctx: Context, checks) -> list[Diag]:
    out: list[Diag] = []
    for check in checks:
        if check.scope != "corpus":
            continue
        try:
            out.extend(enforce(check, check.func(corpus, ctx)))
        except Exception as exc:
            out.append(_crash(check, exc, None))
    return out


def locate(diag: Diag, doc: Document | None, by_path: dict[str, Document], fallback: str) -> Finding:
    """Turn a check's Diag (a path into a document) into a Finding with line:col."""
    path = diag.file or (doc.relpath if doc else fallback)
    target = by_path.get(path, doc if doc and doc.relpath == path else None)
    if diag.line is not None:
        line, col = diag.line, diag.col or 1
    elif target is not None:
        line, col = target.pos.value(diag.path) if diag.on == "value" else target.pos.key(diag.path)
    else:
        line, col = 1, 1
    related = []
    for r in diag.related:
        if r.line is not None:
            related.append(Location(r.file, r.line, r.col or 1, r.message))
            continue
        rdoc = by_path.get(r.file)
        if rdoc is not None and r.path is not None:
            rl, rc = rdoc.pos.value(r.path) if r.on == "value" else rdoc.pos.key(r.path)
        else:
            rl, rc = 1, 1
        related.append(Location(r.file, rl, rc, r.message))
    detail = None
    fix = diag.fix
    if diag.code == "SI000" and isinstance(fix, tuple) and fix and fix[0] == "traceback":
        detail, fix = fix[1], None
    return Finding(
        path=path,
        line=line,
        column=col,
        code=diag.code,
        severity=diag.severity or severity_of(diag.code),
        message=diag.message,
        help=diag.help,
        doc_path=format_path(diag.path) if diag.path and diag.line is None else None,
        related=tuple(related),
        detail=detail,
        fix=fix,
    )


def apply_suppressions(findings: list[Finding], docs: dict[str, Document], config: Config) -> list[Finding]:
    """Drop suppressed findings; report suppressions that suppressed nothing (SI009)."""
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.path, []).append(f)
    out: list[Finding] = []
    for path in sorted(set(by_file) | {p for p, d in docs.items() if d.suppressions}):
        items = by_file.get(path, [])
        doc = docs.get(path)
        sups = doc.suppressions if doc is not None else []
        if not sups:
            out.extend(items)
            continue
        used = [False] * len(sups)
        for f in items:
            hit = False
            for i, (line, _col, kind, codes) in enumerate(sups):
                if not any(f.code.startswith(c) for c in codes):
                    continue
                if kind == "file" or (kind == "line" and f.line == line) or (
                    kind == "above" and f.line == line + 1
                ):
                    used[i] = True
                    hit = True
            if not hit:
                out.append(f)
        for i, (line, col, kind, codes) in enumerate(sups):
            if not used[i] and config.enabled("SI009", path):
                what = "disable-file" if kind == "file" else "disable"
                out.append(
                    Finding(
                        path=path,
                        line=line,
                        column=col,
                        code="SI009",
                        severity=severity_of("SI009"),
                        message=f"suppression `si-lint: {what}={','.join(codes)}` suppresses nothing",
                        help="remove the comment",
                    )
                )
    return out


# --------------------------------------------------------------------------------------
# the pipeline


def _expand_named(paths: Iterable[str], cwd: Path, config: Config) -> tuple[list[Path], list[Path]]:
    """Named files and directories → (files to report on, directories named)."""
    files: list[Path] = []
    dirs: list[Path] = []
    for p in paths:
        path = (cwd / p) if not os.path.isabs(p) else Path(p)
        if not os.path.lexists(path):
            raise UsageError(f"{p}: no such file or directory")
        if path.is_dir():
            dirs.append(path.resolve())
        elif path.is_file() or path.is_symlink():
            if not os.access(path, os.R_OK) and path.exists():
                raise UsageError(f"{p}: cannot be read (permission denied)")
            files.append(Path(os.path.abspath(path)))
        else:
            raise UsageError(f"{p}: not a regular file or directory")
    return files, dirs


def build_profile(config: Config, options: Options):
    from .profile import builtin_profile, load_profile

    if config.profile == "builtin":
        return builtin_profile(), None
    pdir = (config.root / config.profile).resolve()
    return load_profile(pdir, trust=options.trust_implementations), pdir


def run(paths: list[str], options: Options, cwd: Path | None = None) -> RunResult:
    from .checks.base import all_checks

    cwd = (cwd or Path.cwd()).resolve()
    named = [Path(p) if os.path.isabs(p) else cwd / p for p in paths]
    config = load_config(cwd, [p for p in named if p.exists()], options.config_file).with_cli(
        options.select, options.ignore
    )
    named_files, named_dirs = _expand_named(paths or ["."], cwd, config)
    profile, profile_dir = build_profile(config, options)

    files, walk_problems = discover(config.root, config, cwd)
    seen = {os.path.abspath(f) for f in files}
    for d in named_dirs:  # named directories outside the corpus root
        if not _is_under(d, config.root):
            more, probs = discover(d, config, cwd)
            walk_problems += probs
            for f in more:
                if os.path.abspath(f) not in seen:
                    seen.add(os.path.abspath(f))
                    files.append(f)
    for f in named_files:
        if os.path.abspath(f) not in seen:
            seen.add(os.path.abspath(f))
            files.append(f)
    if profile_dir is not None and not _is_under(profile_dir, config.root):
        more, _ = discover(profile_dir, config, cwd)
        for f in more:
            if os.path.abspath(f) not in seen:
                seen.add(os.path.abspath(f))
                files.append(f)

    ctx = Context(profile=profile, config=config, options=options)
    from .cache import Cache, cache_dir_for, profile_fingerprint

    cache = Cache(
        cache_dir_for(config.root, options),
        (profile_fingerprint(profile), config.fingerprint(), options.trust_implementations),
    )
    ctx.cache = cache
    read = []  # (path, error, sha256): the bytes are not kept (memory on large corpora)
    for f in files:
        raw, error = read_file(f)
        read.append((f, error, hashlib.sha256(raw).hexdigest() if raw is not None else ""))
        del raw
    run_key = None
    if cache.enabled:
        run_key = _run_key(read, config, cwd, paths, options)
        if options.reuse_run:
            hit = cache.get_run(run_key)
            if hit is not None:
                findings, nfiles, skipped, reported = hit
                return RunResult(findings, nfiles, None, config, skipped, reported)
    checks = all_checks()  # imported only now: an unchanged re-check never needs them
    docs, per_file = _process_files(read, cwd, ctx, checks, cache)
    if profile_dir is not None:
        for d in docs:
            if _is_under(Path(d.abspath), profile_dir):
                d.profile_asset = True
    corpus = Corpus(docs, profile, config)
    ctx.corpus = corpus
    by_path = corpus.by_path

    findings: list[Finding] = []
    for doc in corpus.documents:
        findings.extend(per_file.get(doc.relpath, ()))
    root_rel = relpath_of(config.root, cwd)
    for diag in corpus_diags(corpus, ctx, checks):
        findings.append(locate(diag, by_path.get(diag.file or ""), by_path, root_rel))
        doc = by_path.get(diag.file or "")
        if doc is not None and doc.pos_blob is not None:
            doc.pos = None  # positions are re-read from the blob if needed: keep memory flat
    for path, reason in walk_problems:
        findings.append(
            Finding(relpath_of(path, cwd), 1, 1, "SI001", severity_of("SI001"), f"cannot be read: {reason}")
        )

    findings = [f for f in findings if config.enabled(f.code, _config_rel(f.path, cwd, config))]
    findings = apply_suppressions(findings, by_path, config)

    reported = _reported(corpus, named_files, named_dirs, cwd)
    findings = [f for f in findings if f.path in reported or _under_named(f.path, named_dirs, cwd)]
    findings = _dedupe(findings)
    findings.sort(key=Finding.sort_key)
    skipped = [d.relpath for d in corpus.documents if d.kind is None and d.relpath in reported]
    if run_key is not None:
        cache.put_run(run_key, (findings, len(reported), skipped, sorted(reported)))
    cache.save()
    return RunResult(findings, len(reported), corpus, config, skipped, sorted(reported))


def _run_key(read, config: Config, cwd: Path, paths, options: Options) -> str:
    """Everything a whole run's findings depend on: every file's path and content hash,
    the named paths, the working directory and the options (the cache header already
    holds the si-lint version, the profile and the effective config)."""
    h = hashlib.sha256()
    h.update(repr((str(cwd), sorted(paths), options.select, options.ignore, options.trust_implementations)).encode())
    for f, error, sha in read:
        h.update(f"{f}\0{sha or 'error:' + str(error)}\n".encode())
    return h.hexdigest()


#: below this many files to (re)process, a process pool costs more than it saves
POOL_THRESHOLD = 200

_WORKER: dict = {}


def _work(item: tuple[str, bytes | None, str | None]) -> tuple[Document, list[Finding]]:
    """Per-file stage for one file: load, classify, run the file checks, locate findings.
    Returns the document without its positions (see ``Document.pos``)."""
    path, raw, error = item
    ctx, checks, cwd = _WORKER["ctx"], _WORKER["checks"], _WORKER["cwd"]
    if raw is None and error is None:
        raw, error = read_file(Path(path))  # read here, in the worker: no bytes cross processes
    doc = load_document(Path(path), cwd, raw, error)
    diags = file_diags(doc, ctx, checks)
    findings = [locate(d, doc, {doc.relpath: doc}, doc.relpath) for d in diags]
    if _WORKER.get("keep_positions"):
        doc.pos_blob = doc.pos.to_blob()
    doc.pos = None
    return doc, findings


def _process_files(read: list, cwd: Path, ctx: Context, checks, cache):
    """Per-file stage over every file (``read``: (path, read error, sha256) triples): cached
    results where the content is unchanged, the rest in a process pool (``--jobs``) or
    serially. The output depends on neither."""
    root = ctx.config.root
    results: dict[int, tuple[Document, list[Finding]]] = {}
    todo: list[tuple[int, str, tuple[str, bytes | None, str | None], str]] = []
    for i, (f, error, sha) in enumerate(read):
        f = str(f)
        key = relpath_of(f, root)
        if error is None and cache.enabled:
            hit = cache.get_file(sha, key)
            if hit is not None:
                results[i] = _from_entry(hit, f, cwd)
                continue
        todo.append((i, key, (str(f), None, error), sha))

    _WORKER.update(ctx=ctx, checks=checks, cwd=cwd, keep_positions=cache.enabled)
    jobs = ctx.options.jobs or os.cpu_count() or 1
    items = [t[2] for t in todo]
    from .progress import Progress

    with Progress(len(items), "checking", allowed=ctx.options.progress) as bar:
        if jobs > 1 and len(todo) >= POOL_THRESHOLD:
            outputs = _pool_map(items, jobs, bar.advance)
        else:
            outputs = []
            for item in items:
                outputs.append(_work(item))
                bar.advance()
    for (i, key, _item, sha), (doc, findings) in zip(todo, outputs):
        results[i] = (doc, findings)
        if cache.enabled and doc.sha:
            cache.put_file(doc.sha, key, _to_entry(doc, findings))
    docs = [results[i][0] for i in range(len(read))]
    per_file = {doc.relpath: findings for doc, findings in (results[i] for i in range(len(read)))}
    return docs, per_file


def _work_packed(item) -> tuple:
    """``_work`` for a pool worker: the document's data travels as marshal bytes, which is
    faster than pickle and keeps the loader's interned keys interned in the parent."""
    import marshal

    doc, findings = _work(item)
    try:
        data = marshal.dumps(doc.data)
    except ValueError:  # not marshalable (cannot happen for loader output): send as is
        return doc, findings
    doc.data = None
    return doc, findings, data


def _unpack(result: tuple) -> tuple:
    import marshal

    if len(result) == 3:
        doc, findings, data = result
        doc.data = marshal.loads(data)
        return doc, findings
    return result


def _pool_map(items: list, jobs: int, advance=lambda: None) -> list:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        return [_work(item) for item in items]
    chunk = max(1, min(64, len(items) // (jobs * 4) or 1))
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp) as pool:
            out = []
            for result in pool.map(_work_packed, items, chunksize=chunk):
                out.append(_unpack(result))
                advance()
            return out
    except Exception:  # a broken pool must not lose the run: do it serially
        return [_work(item) for item in items]


_ENTRY_PATH = "\0"  # findings in cache entries carry this placeholder instead of a path


def _to_entry(doc: Document, findings: list[Finding]) -> tuple:
    from dataclasses import replace

    return (
        doc.kind,
        doc.data,
        doc.sha,
        doc.suppressions,
        [replace(f, path=_ENTRY_PATH) if f.path == doc.relpath else f for f in findings],
        doc.pos_blob,
    )


def _from_entry(entry: tuple, path: Path, cwd: Path) -> tuple[Document, list[Finding]]:
    from dataclasses import replace

    kind, data, sha, suppressions, findings, pos_blob = entry
    relpath = relpath_of(path, cwd)
    doc = Document(relpath, str(path), kind, data, None, sha=sha, suppressions=suppressions)
    doc.pos_blob = pos_blob
    return doc, [replace(f, path=relpath) if f.path == _ENTRY_PATH else f for f in findings]


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen = set()
    out = []
    for f in findings:
        key = (f.path, f.line, f.column, f.code, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _is_under(path: Path | str, root: Path | str) -> bool:
    p = os.path.abspath(path)
    r = os.path.abspath(root)
    return p == r or p.startswith(r.rstrip(os.sep) + os.sep)


def _config_rel(relpath: str, cwd: Path, config: Config) -> str:
    return relpath_of(cwd / relpath, config.root)


def _reported(corpus: Corpus, named_files: list[Path], named_dirs: list[Path], cwd: Path) -> set[str]:
    out = set()
    for f in named_files:
        out.add(relpath_of(f, cwd))
    for d in corpus.documents:
        if any(_is_under(d.abspath, nd) for nd in named_dirs):
            out.add(d.relpath)
    return out


def _under_named(relpath: str, named_dirs: list[Path], cwd: Path) -> bool:
    p = os.path.normpath(os.path.join(str(cwd), relpath))  # relpath may climb ('../x')
    return any(_is_under(p, d) for d in named_dirs)
