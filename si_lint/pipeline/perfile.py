"""Stage 3, per-file: each file's documents loaded, classified and checked by the file
checks, their findings located; from the cache where a file's content is unchanged."""

from __future__ import annotations

import json
import marshal
import os
import re
import traceback
from pathlib import Path

from ..corpus import Document, classify
from ..discovery import inside, relpath_of
from ..findings import Diag, Finding
from ..limits import MAX_CACHED_FINDINGS
from ..loader import load_bytes
from ..loader.suppressions import scan_suppressions
from ..progress import Progress
from ..registry import enforce, file_checks_for
from . import forkmap
from .context import Context, Source, State
from .data import Content, from_entry, to_entry
from .locate import locate_in
from .read import ensure_read, raw_of

#: below this many files to (re)process, a process pool costs more than it saves
POOL_THRESHOLD = 200

_FATAL = ("SI001", "SI005", "SI006")


def load_documents(
    source: Source, cwd: Path, strict_json: bool = False, profile_asset: bool = False
) -> list[Document]:
    """The documents of one file (at least one: one of no kind carries the findings of a
    file that cannot be read or holds none), their positions in their ``content``.
    ``strict_json`` (SPEC §9): a ``.json`` file that is not strict JSON is SI001, never
    read leniently as YAML."""
    relpath = relpath_of(source.abspath, cwd)
    content = Content(source.abspath)
    if source.raw is None:
        diag = Diag("SI001", (), f"file cannot be read: {source.error}", line=1, col=1)
        content.docs = [
            Document(
                relpath,
                source.abspath,
                None,
                None,
                load_findings=[diag],
                profile_asset=profile_asset,
                ndocs=0,
                content=content,
            )
        ]
        return content.docs
    loaded = load_bytes(source.raw)
    if strict_json and source.abspath.endswith(".json") and loaded.text is not None:
        # (a text not decoded keeps its SI005/SI006)
        invalid = strict_json_diag(loaded.text)
        if invalid is not None:
            loaded.documents, loaded.findings, loaded.failed = [], [invalid], True
    sups = scan_suppressions(loaded.text, loaded.quiet_spans) if loaded.text else []
    n = len(loaded.documents)
    parts: list[tuple] = [(d.data, d.index) for d in loaded.documents] or [(None, 0)]
    found: dict[int | None, list[Diag]] = {index: [] for _data, index in parts}
    for diag in loaded.findings:  # a document's own findings; the file's on the first
        found.get(diag.document, found[parts[0][1]]).append(diag)
    content.posmaps = {d.index: d.pos for d in loaded.documents}
    content.docs = [
        Document(
            relpath,
            source.abspath,
            classify(data) if n and not loaded.failed else None,
            data,
            sha=source.sha,
            load_findings=found[index],
            suppressions=sups,
            profile_asset=profile_asset,
            index=index,
            ndocs=n,
            content=content,
        )
        for data, index in parts
    ]
    return content.docs


def crash(check, exc: BaseException, file: str | None, document: int | None = None) -> Diag:
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Diag(
        "SI000",
        (),
        f"internal error: check {check.name} crashed ({type(exc).__name__}: {exc}); "
        "other checks still ran",
        file=file,
        document=document,
        line=1,
        col=1,
        help="please report this with the file that triggers it",
        detail=tb,
    )


def file_diags(doc: Document, ctx: Context, checks) -> list[Diag]:
    out = list(doc.load_findings)
    if out and any(d.code in _FATAL for d in out):
        return out
    for check in file_checks_for(checks, doc.kind):
        try:
            out.extend(enforce(check, check.func(doc, ctx)))
        except Exception as exc:  # one crashing check is a finding, not an aborted run
            out.append(crash(check, exc, doc.relpath, doc.index))
    return out


_WORKER: dict = {}


def _work(i: int) -> tuple[list[Document], list[Finding]]:
    """Load, classify and check source ``i``. The documents keep no positions; under a
    cache, or for an unsaved buffer (whose file cannot be read again), as blobs."""
    source: Source = _WORKER["sources"][i]
    ctx, checks, cwd = _WORKER["ctx"], _WORKER["checks"], _WORKER["cwd"]
    asset = _asset(source.abspath, _WORKER.get("profile_dir"))
    docs = load_documents(source, cwd, _WORKER.get("strict_json", False), asset)
    source.raw = None  # loaded: the bytes are not kept (a worker would hold all it read)
    findings: list[Finding] = []
    for doc in docs:
        diags = file_diags(doc, ctx, checks) if checks else list(doc.load_findings)
        findings.extend(locate_in(d, doc) for d in diags)
    if checks:  # (loading only, build_corpus: the positions stay for the caller)
        blobs = _WORKER.get("cached") or source.abspath in _WORKER.get("overrides", ())
        docs[0].content.drop_positions(blobs)
    return docs, findings


def _work_sent(i: int) -> tuple:
    """``_work`` in a pool worker: the entry's head and body as marshal bytes (which keep
    interned keys interned; the parent decodes a body only when it reads the data), else
    the documents and findings themselves."""
    docs, findings = _work(i)
    try:
        head, body = to_entry(docs, findings)
        return marshal.dumps(head), marshal.dumps(body), None
    except (ValueError, TypeError):
        return None, None, (docs, findings)


def _pool_map(items: list[int], jobs: int, advance) -> list:
    """``_work`` of ``items`` in ``jobs`` workers, forked before any document is loaded
    here; serially if the pool breaks."""
    sources, cwd = _WORKER["sources"], _WORKER["cwd"]
    chunk = max(1, min(64, len(items) // (jobs * 4) or 1))
    pool = forkmap.fork_pool(jobs)
    if pool is None:  # pragma: no cover - platforms without fork
        return [_work(i) for i in items]
    out = []
    try:
        with pool:
            for i, (head, body, sent) in zip(items, pool.map(_work_sent, items, chunksize=chunk)):
                if head is not None:
                    entry, s = [marshal.loads(head), body], sources[i]
                    asset = _asset(s.abspath, _WORKER["profile_dir"])
                    sent = from_entry(entry, s, cwd, None, asset) or _work(i)
                out.append(sent)
                advance()
        return out
    except Exception:  # a broken pool must not lose the run: do it serially
        return [_work(i) for i in items]


def _asset(abspath: str, profile_dir: str | None) -> bool:
    """A file in the selection's profile directory: its documents are profile assets."""
    return profile_dir is not None and inside(abspath, profile_dir)


def _cached(sources: list[Source], cwd: Path, root, cache, pdir) -> tuple[dict, list[int]]:
    results: dict[int, tuple[list[Document], list[Finding]]] = {}
    todo: list[int] = []
    same = str(root) == str(cwd)  # the key's relative path is the documents' too
    for i, s in enumerate(sources):
        if s.error is None and cache is not None:
            rel = relpath_of(s.abspath, root)
            asset = _asset(s.abspath, pdir)
            got = _hit(cache, s, rel, cwd, same, asset)
            if got is None and s.raw is None:  # hashed by the stat index, not read
                ensure_read(s)
                got = _hit(cache, s, rel, cwd, same, asset) if s.error is None else None
            if got is not None:
                results[i] = got
                s.raw = None
                continue
        ensure_read(s)  # the bytes checked are the bytes hashed
        todo.append(i)
    return results, todo


def _hit(cache, s: Source, rel: str, cwd: Path, same: bool, asset: bool):
    hit = cache.get_file(s.sha, rel)
    return None if hit is None else from_entry(hit, s, cwd, rel if same else None, asset)


def _check_all(todo: list[int], sources: list[Source], ctx: Context) -> list:
    from ..checks.base import evaluator  # (the checks: a warm re-check imports none)

    jobs = forkmap.jobs_of(ctx.workers)
    with Progress(len(todo), "checking", allowed=ctx.options.progress) as bar:
        if jobs > 1 and len(todo) >= POOL_THRESHOLD:
            if _WORKER["checks"]:  # the evaluator, which their dry runs import, once here
                evaluator()
            return _pool_map(todo, jobs, bar.advance)
        outputs = []
        for i in todo:
            outputs.append(_work(i))
            bar.advance()
        return outputs


def process(
    sources: list[Source], cwd: Path, ctx: Context, checks, cache, overrides=(), profile_dir=None
):
    """(documents of every file; findings per relpath). ``checks`` empty: load only;
    a callable: asked for only when some file is not in the cache. The documents of the
    files in ``profile_dir`` are profile assets."""
    root = ctx.config.root
    use_cache = cache is not None and cache.enabled
    try:
        results, todo = _cached(sources, cwd, root, cache if use_cache else None, profile_dir)
        if callable(checks):  # (the checks, asked for only when a file is to be checked)
            checks = checks() if todo else ()
        _WORKER.update(
            ctx=ctx,
            checks=checks,
            cwd=cwd,
            cached=use_cache,  # entries are written: positions kept, fixtures as JSON
            sources=sources,
            overrides=frozenset(overrides),
            profile_dir=profile_dir,
            strict_json=ctx.config.root_how == "config",  # SPEC §9 "Not a corpus file"
        )
        outputs = _check_all(todo, sources, ctx)
        stored = sum(len(f) for _, f in results.values())  # what the cache holds already
        for i, (file_docs, findings) in zip(todo, outputs):
            s, results[i] = sources[i], (file_docs, findings)
            s.raw = None
            if use_cache and checks and s.sha and stored + len(findings) <= MAX_CACHED_FINDINGS:
                stored += len(findings)
                cache.put_file(s.sha, relpath_of(s.abspath, root), to_entry(file_docs, findings))
        in_order = [results[i] for i in range(len(sources))]
        docs = [d for fdocs, _ in in_order for d in fdocs]
        per_file = {fdocs[0].relpath: findings for fdocs, findings in in_order}
    finally:
        _WORKER.clear()
    return docs, per_file


def per_file(state: State) -> None:
    assert state.ctx is not None  # the select stage made it
    state.ctx.jobs = forkmap.jobs_of(state.options.jobs, len(state.sources))
    overrides = {os.path.abspath(p) for p in state.overrides}
    checks = (lambda: state.checks) if state.with_checks else ()  # imported if used
    state.docs, state.per_file = process(
        state.sources,
        state.cwd,
        state.ctx,
        checks,
        state.cache,
        overrides,
        state.selection.profile_dir,
    )
    set_aside(state)  # not corpus files (SPEC §9): their findings dropped


# SPEC §9 "Not a corpus file": under a root that is not configured, a file that does not
# parse and has no top-level key of the §1 kind table is set aside with a ``--verbose``
# note, its findings dropped. Under a configured root a ``.json`` file must be strict JSON.

#: the top-level keys that recognise a document's kind (SPEC §1)
_KEYS = (
    "id|classification|scoring|events|final_answer|actions|eio|context_artifacts|primitives"
    "|template"
)
#: a line that starts a top-level key of the kind table (plain or quoted)
_YAML_SIGN = re.compile(rf"^(?:{_KEYS}|\"(?:{_KEYS})\"|'(?:{_KEYS})')[ \t]*:", re.MULTILINE)
#: a JSON object member with such a key (anywhere: a broken JSON text has no structure)
_JSON_SIGN = re.compile(rf"\"(?:{_KEYS})\"\s*:")
#: the loader's findings that say a file could not be read as (core-schema) YAML/JSON:
#: invalid YAML, a complex key (a Helm template's ``name: {{ .Release.Name }}`` parses as
#: a mapping used as a key), not UTF-8, an application's local tag (CloudFormation's
#: ``!Ref``); a safety limit (SI005) or a ``!!`` tag is reported whatever the file is
UNREADABLE = ("SI001", "SI003", "SI006", "SI007")


def corpus_sign(raw: bytes, abspath: str) -> bool:
    text = raw.decode("utf-8", "replace")
    if _YAML_SIGN.search(text) is not None:
        return True
    jsonish = abspath.endswith(".json") or text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")
    return jsonish and _JSON_SIGN.search(text) is not None


def strict_json_diag(text: str) -> Diag | None:
    """SI001 for a ``.json`` text that is not strict JSON (a trailing comma, a comment,
    NaN)."""

    def refuse(name: str):
        raise ValueError(f"{name} is not JSON")

    try:
        json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        return Diag("SI001", (), f"invalid JSON: {exc.msg}", line=exc.lineno, col=exc.colno)
    except ValueError as exc:
        return Diag("SI001", (), f"invalid JSON: {exc}", line=1, col=1)
    except RecursionError:
        return None  # (the loader's limits report it)
    return None


def set_aside(state: State) -> None:
    """After the per-file stage: unreadable files with no sign of being corpus files lose
    their findings and go to ``state.not_corpus``."""
    sel = state.selection
    if sel.config.root_how == "config":
        return
    codes = {}
    for rel, findings in state.per_file.items():
        if findings and any(f.code in UNREADABLE for f in findings):
            codes[rel] = {f.code for f in findings if not _global_tag(f)}
    if not codes:
        return
    docs: dict[str, list] = {}
    for d in state.docs:
        if d.relpath in codes:
            docs.setdefault(d.relpath, []).append(d)
    codes = {rel: c for rel, c in codes.items() if _unreadable(c, docs.get(rel, []))}
    for rel in sorted(codes):
        abspath = sel.absolute(rel)
        raw = raw_of(abspath, state.overrides)
        if raw is None or corpus_sign(raw, abspath):
            continue
        state.per_file[rel] = []
        state.not_corpus.add(abspath)


def _global_tag(finding) -> bool:
    """SI007 for a ``!!`` tag (code execution in a reader that honours it) is reported
    whatever the file is; a local tag (``!Sub``, ``!reference``) signs another tool's."""
    return finding.code == "SI007" and finding.message.startswith("YAML tag '!!")


def _unreadable(codes: set[str], docs: list) -> bool:
    """No document of a kind, and either no document at all, a complex key or a tag
    outside the core schema (a lone surrogate escape is SI006 in a file that was read: not
    this)."""
    if any(d.kind is not None for d in docs):
        return False
    return "SI003" in codes or "SI007" in codes or all(d.ndocs == 0 for d in docs)


def not_corpus_note(relpath: str) -> str:
    return (
        f"skipped {relpath}: not a corpus file (it does not parse, and no top-level key "
        "names a corpus document)"
    )
