"""The language server's resident corpus (no LSP): one per corpus root, the pipeline's
stages held open and re-run over the slice an edit reaches (ARCHITECTURE.md). Nothing an
edit computes is added to the cache: a buffer being typed is a new text at every edit."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import pipeline
from ..corpus import Corpus, Document
from ..discovery import named_file_check, selects
from ..findings import Finding
from ..mapping import lookup
from ..model import evidence_scenario
from ..pipeline.corpus import corpus_diags, make_corpus
from ..pipeline.locate import (
    configured,
    failed_texts,
    held_back_by,
    located,
    ordered,
    walk_findings,
)
from ..pipeline.perfile import per_file
from ..pipeline.read import raw_of, read
from ..pipeline.select import configure, make_selection, select

#: what a corpus check may read (``corpus_check(reads=...)``) that a slice holds whole: the
#: profile (every slice has it), the document itself, and what :func:`doc_keys` keys
SLICED_READS = frozenset({"profile", "document", "scenario", "intent", "eio"})

#: how :func:`plan` has the server run a corpus check after an edit
PROFILE, SLICE, WHOLE = "profile", "slice", "whole"


def plan(check) -> str:
    """``profile``: its findings depend on the profile alone (a profile asset's edit runs
    the corpus stage whole); ``slice``: run over the slice of the edit; ``whole``: a check
    that reads anything else, or declares nothing (never silently sliced)."""
    reads = check.reads
    if reads is None or not set(reads) <= SLICED_READS:
        return WHOLE
    return PROFILE if set(reads) == {"profile"} else SLICE


#: slice keys: a document shares a slice with every document that has one of its keys
EIO_KEY = "eio"
ALL_KEY = "*"  # the change can reach anything: run the corpus stage over everything


def doc_keys(doc: Document) -> frozenset[str]:
    data, kind = doc.data, doc.kind
    if doc.profile_asset or kind in ("registry", "template"):
        return frozenset({ALL_KEY})
    if kind == "scenario":
        sid = lookup(data, "id", str)
        if sid is None:
            return frozenset({ALL_KEY})
        keys = {f"scenario:{sid}"}
        companion = lookup(data.get("quality"), "companion_scenario", str)  # SI613
        if companion is not None:
            keys.add(f"scenario:{companion}")
        intent = lookup(data, "intent", str, "")  # SI615: the scenarios of the same intent
        if intent.strip():
            keys.add("intent:" + " ".join(intent.split()))
        return frozenset(keys)
    if kind in ("fixture", "evidence"):
        sid, _ = evidence_scenario(data)  # `scenario`, or oasisctl's `scenario_id`
        return frozenset({f"scenario:{sid}"}) if isinstance(sid, str) else frozenset()
    if kind in ("eio-module", "eio-input"):
        return frozenset({EIO_KEY})
    return frozenset()  # an unclassified file: no cross-file check reads it


@dataclass
class FileState:
    abspath: str
    relpath: str
    docs: list[Document]
    per_file: list[Finding]  # located findings of the per-file stage
    keys: frozenset[str] = frozenset()


@dataclass
class Outcome:
    touched: set[str] = field(default_factory=set)  # relpaths whose findings may differ
    full: bool = False


class CorpusState:
    def __init__(self, folder: Path | str, options: pipeline.Options | None = None):
        self.folder = Path(folder).resolve()
        self.options = options or pipeline.Options()
        self.options.jobs = 1  # the server runs in one process (no fork from its threads)
        self.overrides: dict[str, bytes] = {}  # the open buffers, by absolute path
        self.files: dict[str, FileState] = {}  # by abspath
        self.by_rel: dict[str, FileState] = {}
        #: corpus-stage findings (located, unfiltered): plan -> relpath -> findings
        self.stage_findings: dict[str, dict[str, list[Finding]]] = {}
        self.failed: list[str | None] = []  # the texts of the files that failed to read
        self.findings: dict[str, list[Finding]] = {}  # relpath -> final, as `check` reports

    def load(self) -> Outcome:
        run = self.run = pipeline.State([str(self.folder)], self.options, self.folder)
        configure(run)
        run.cwd = run.root_info.path  # paths are shown from the root
        select(run)
        assert run.ctx is not None and run.config is not None  # the select stage made them
        self.selection = run.selection
        self.config, self.ctx, self.cache = run.selection.config, run.ctx, run.cache
        self.overrides = run.overrides = {a: b for a, b in self.overrides.items() if self.owns(a)}
        read(run)
        per_file(run)
        for d in run.docs:  # kept for the session: other runs may rewrite the cache meanwhile
            d.detach()
        self.profile_dirs = run.profile_dirs  # (its profile and profile_docs: read off self.run)
        self._take(run)
        self._corpus_stage(None)
        self.cache.save()
        self.ctx.memo_tasks = False  # an edit's dry runs are not kept (module docstring)
        return Outcome(set(self.findings), full=True)

    def _take(self, run: pipeline.State) -> list[FileState]:
        grouped: dict[str, list[Document]] = {}
        for d in run.docs:  # a file holds one or more documents
            grouped.setdefault(d.abspath, []).append(d)
        out = []
        for a, docs in grouped.items():
            fs = FileState(a, docs[0].relpath, docs, run.per_file.get(docs[0].relpath, []))
            fs.keys = frozenset().union(*map(doc_keys, docs))
            self.files[a] = self.by_rel[fs.relpath] = fs
            out.append(fs)
        return out

    def _belongs(self, abspath: str) -> bool:
        """Would ``check`` of this root read this file (one created since the load)?"""
        if not selects(abspath, self.config):
            return False
        return not os.path.lexists(abspath) or named_file_check(Path(abspath), self.config) is None

    def owns(self, abspath: str) -> bool:
        return abspath in self.files or self._belongs(abspath)

    def selected(self) -> tuple[str, ...]:
        assert self.run.config is not None  # (the load's select stage made it)
        return make_selection(self.run.paths, self.options, self.run.cwd, self.run.config).files

    def set_buffer(self, abspath: str, text: str | bytes | None) -> Outcome:
        """The editor's unsaved text of a file (``None``: the file on disk again)."""
        abspath = os.path.abspath(abspath)
        if text is None:
            self.overrides.pop(abspath, None)
        else:
            self.overrides[abspath] = text.encode("utf-8") if isinstance(text, str) else text
        return self.update([abspath])

    def update(self, abspaths: Iterable[str]) -> Outcome:
        todo = {os.path.abspath(a) for a in abspaths}
        keys, touched = set[str](), set[str]()
        for a in todo & set(self.files):
            old = self.files.pop(a)
            del self.by_rel[old.relpath]
            keys |= old.keys
            touched.add(old.relpath)
        buffers = {a: self.overrides[a] for a in todo if a in self.overrides}
        run = pipeline.State(self.run.paths, self.options, self.run.cwd, buffers)
        disk = [a for a in sorted(todo) if a not in buffers and os.path.isfile(a)]
        files = tuple(filter(self._belongs, disk))
        # (no listing of the load's walk: a profile.md made since then is looked for)
        run.selection = replace(self.selection, files=files, profile_md={})
        run.ctx = self.ctx
        read(run)  # the read and per-file stages over these files alone, without the cache
        per_file(run)
        self.profile_dirs.update(run.profile_dirs)
        for pdir, docs in run.profile_docs.items():
            self.run.profile_docs.setdefault(pdir, docs)
        for fs in self._take(run):
            keys |= fs.keys
            touched.add(fs.relpath)
        if ALL_KEY in keys:
            self._corpus_stage(None)
            return Outcome(touched | set(self.by_rel), full=True)
        in_slice = {fs.relpath for fs in self.files.values() if fs.keys & keys}
        self._corpus_stage(in_slice | touched)
        return Outcome(in_slice | touched)

    def _corpus_of(self, docs: list[Document]) -> Corpus:
        self.run.docs = docs
        make_corpus(self.run)  # (the context's corpus too)
        assert self.run.corpus is not None
        return self.run.corpus

    def _run_checks(self, checks, corpus: Corpus) -> dict[str, list[Finding]]:
        fresh: dict[str, list[Finding]] = {}
        for f in located(corpus, self.selection, corpus_diags(corpus, self.ctx, checks)):
            fresh.setdefault(f.path, []).append(f)
        return fresh

    def _corpus_stage(self, core: set[str] | None) -> None:
        """The corpus checks over everything (``core`` None), or by their :func:`plan` after an
        edit of the files ``core`` names; then the final findings of the files that may
        have changed."""
        checks = [c for c in self.run.checks if c.scope == "corpus"]
        by_plan = {how: [c for c in checks if plan(c) == how] for how in (PROFILE, SLICE, WHOLE)}
        found = self.stage_findings
        if core is None:
            corpus = self._corpus_of(self.documents())
            for how, checks in by_plan.items():
                found[how] = self._run_checks(checks, corpus)
            changed = set(self.by_rel).union(*found.values())
        else:
            states = {fs.abspath: fs for fs in map(self.by_rel.get, core) if fs is not None}
            states.update((a, fs) for a, fs in self.files.items() if ALL_KEY in fs.keys)
            corpus = self._corpus_of([d for fs in states.values() for d in fs.docs])
            fresh = self._run_checks(by_plan[SLICE], corpus)
            for r in core:
                found[SLICE].pop(r, None)
            found[SLICE].update(
                (r, v) for r, v in fresh.items() if r in core or r not in self.by_rel
            )
            changed = set(core)
            if by_plan[WHOLE]:  # checks that read the whole corpus run over all of it
                before = found[WHOLE]
                corpus = self._corpus_of(self.documents())
                found[WHOLE] = after = self._run_checks(by_plan[WHOLE], corpus)
                changed |= {r for r in {*before, *after} if before.get(r) != after.get(r)}
        per_file = {fs.relpath: fs.per_file for fs in self.files.values() if fs.per_file}
        failed = failed_texts(per_file, self.selection.absolute, self.overrides)
        if failed != self.failed:  # knock-on findings held back or let go, in any file
            self.failed = failed
            changed |= set(self.by_rel).union(*found.values())
        for rel in changed:
            self._finalise(rel)

    def _finalise(self, rel: str) -> None:
        fs = self.by_rel.get(rel)
        items = list(fs.per_file) if fs is not None else []
        for found in self.stage_findings.values():
            items += found.get(rel, [])
        items += [f for f in walk_findings(self.selection) if f.path == rel]
        docs = {rel: fs.docs} if fs is not None and fs.docs else {}
        items = configured(items, docs, self.config, self.selection.absolute)
        items = ordered(held_back_by(items, self.failed))
        if items or fs is not None:
            self.findings[rel] = items
        else:
            self.findings.pop(rel, None)

    def findings_of(self, abspath: str) -> list[Finding]:
        return self.findings.get(self.selection.relpath(os.path.abspath(abspath)), [])

    def all_findings(self) -> list[Finding]:
        return sorted((f for items in self.findings.values() for f in items), key=Finding.sort_key)

    def documents(self) -> list[Document]:
        return [d for fs in self.files.values() for d in fs.docs]

    def text_of(self, abspath: str) -> str | None:
        raw = raw_of(abspath, self.overrides)
        return None if raw is None else raw.decode("utf-8", errors="replace")
