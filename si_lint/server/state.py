"""The language server's resident corpus: one per corpus root, kept in memory between edits.

No LSP here (this module never imports pygls): :class:`CorpusState` is the engine of
``si-lint check`` held open. The first :meth:`CorpusState.load` reads the whole corpus the
way ``check`` does (same discovery, config, profile, per-file cache); afterwards
:meth:`CorpusState.update` takes one file's unsaved buffer (``overrides``: bytes by
absolute path) and re-checks:

* the per-file stage for that file alone (load, classify, file checks, locate);
* the corpus stage (graph, cross-file checks, fixture dry runs): the checks whose declared
  reads the slice holds (:func:`si_lint.server.slicing.plan`) over the *slice* of the
  corpus the file belongs to: every document that shares a key with it (a scenario id it
  defines or names — so the scenario, its duplicates, its fixtures and evidence — or the
  EIO group), plus the profile's own assets for context; the others over the whole
  corpus. Findings of the other files are kept from the last run. A change that can reach everything (a profile asset, a
  document of no known kind before or after) runs the corpus stage over the whole corpus.
  Dry runs are the slice's (no result is kept per text: a buffer being typed is a new
  text at every edit, and nothing the edits compute is added to the cache).

Then the locate stage's own functions: ``select``/``ignore``/``per-file-ignores`` and
suppressions (SI009 included), the knock-on references held back, de-duplication, the
report order and the per-file cap. ``tests/test_server_state.py``
proves that after any sequence of edits the findings equal a fresh full run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import pipeline as engine
from ..corpus import Corpus, Document, discover, inside, load_config, relpath_of
from ..findings import Finding
from ..pipeline import locate as _locate
from ..pipeline import perfile as _perfile
from ..pipeline.corpus import corpus_diags
from ..pipeline.knockon import failed_texts, held_back_by
from ..pipeline.read import read_file, source_of
from ..pipeline.select import build_profile
from ..profile_docs import read_for
from ..registry import STAGES
from .slicing import ALL_KEY, PROFILE, SLICE, WHOLE, doc_keys, plan


def _is_under(path, root) -> bool:
    return inside(os.path.abspath(path), os.path.abspath(root))


@dataclass
class FileState:
    abspath: str
    relpath: str
    docs: list[Document]
    per_file: list[Finding]  # located findings of the per-file stage
    keys: frozenset[str] = frozenset()


@dataclass
class Outcome:
    """What an update changed: the files (relpaths) whose findings may differ."""

    touched: set[str] = field(default_factory=set)
    full: bool = False


class CorpusState:
    """One corpus root, checked like ``si-lint check`` from that root, kept resident."""

    def __init__(self, folder: Path | str, options: engine.Options | None = None):
        self.folder = Path(folder).resolve()
        self.options = options or engine.Options()
        self.options.jobs = 1  # the server runs in one process (no fork from its threads)
        self.overrides: dict[str, bytes] = {}
        self.files: dict[str, FileState] = {}  # by abspath
        self.by_rel: dict[str, FileState] = {}
        self.key_index: dict[str, set[str]] = {}  # slice key -> abspaths
        #: corpus-stage findings (located, unfiltered) by relpath, by how the checks run
        #: after an edit (:func:`si_lint.server.slicing.plan`)
        self.stage_findings: dict[str, dict[str, list[Finding]]] = {
            PROFILE: {},
            SLICE: {},
            WHOLE: {},
        }
        self.failed: list[str | None] = []  # the texts of the files that failed to read
        self.profile_dirs: dict = {}  # file directory -> OASIS profile directory (or None)
        self.profile_docs: dict = {}  # profile directory -> si_lint.profile_docs.ProfileDocs
        self.other_findings: list[Finding] = []  # not in any corpus file (walk problems, ...)
        self.findings: dict[str, list[Finding]] = {}  # relpath -> final, as `check` reports
        self.corpus: Corpus | None = None

    # ------------------------------------------------------------------------------
    # set-up

    @property
    def root(self) -> Path:
        return self.config.root

    def load(self) -> Outcome:
        """Read and check the whole corpus (buffers in ``overrides`` instead of their files)."""
        from ..cache import open_cache, profile_fingerprint
        from ..checks.base import all_checks

        self.config = load_config(self.folder, []).with_cli(
            self.options.select, self.options.ignore
        )
        self.cwd = self.config.root
        self.profile, self.profile_dir = build_profile(self.config, self.options)
        files, problems = discover(self.config.root, self.config, self.cwd)
        if self.profile_dir is not None and not _is_under(self.profile_dir, self.config.root):
            more, _ = discover(self.profile_dir, self.config, self.cwd)
            files += [f for f in more if f not in set(files)]
        self.ctx = engine.Context(profile=self.profile, config=self.config, options=self.options)
        self.cache = open_cache(
            self.config.root,
            self.options,
            (
                profile_fingerprint(self.profile),
                self.config.fingerprint(),
                self.options.trust_implementations,
            ),
        )
        self.ctx.cache = self.cache
        self.checks = all_checks()
        disk, buffers = [], []
        for f in files:
            a = os.path.abspath(f)
            if a in self.overrides:
                buffers.append(a)
                continue
            disk.append(source_of(a))  # read once: checked from the bytes it was hashed on
        docs, per_file = _perfile.process(disk, self.cwd, self.ctx, self.checks, self.cache)
        for d in docs:  # kept for the session: other runs may rewrite the cache meanwhile
            d.detach()
        self.profile_dirs, self.profile_docs = {}, {}
        self._profile_docs_for([os.path.abspath(f) for f in files])
        self.files, self.by_rel, self.key_index = {}, {}, {}
        grouped: dict[str, list[Document]] = {}
        for d in docs:  # a file holds one or more documents
            grouped.setdefault(d.abspath, []).append(d)
        for a, fdocs in grouped.items():
            self._put(FileState(a, fdocs[0].relpath, fdocs, per_file.get(fdocs[0].relpath, [])))
        for a in buffers + [a for a in self.overrides if a not in self.files and self._belongs(a)]:
            self._put(self._check_file(a))
        self.other_findings = [
            Finding(relpath_of(p, self.cwd), 1, 1, "SI001", "error", f"cannot be read: {reason}")
            for p, reason in problems
        ]
        self._corpus_stage(None)
        self.cache.save()
        return Outcome(set(self.findings), full=True)

    def _belongs(self, abspath: str) -> bool:
        """Would ``check`` of this root read this file, not found by the first discovery (a
        file created since)? Under the root, ``include``d and not ``exclude``d, not in a
        directory discovery skips, and a link only when it stays inside the root."""
        from ..corpus import SKIP_DIRS, named_file_check

        if not _is_under(abspath, self.config.root):
            return False
        rel = relpath_of(abspath, self.config.root)
        if any(p in SKIP_DIRS or p.startswith(".") for p in rel.split("/")[:-1]):
            return False
        if not self.config.included(rel) or self.config.excluded(rel):
            return False
        return not os.path.lexists(abspath) or named_file_check(Path(abspath), self.config) is None

    def owns(self, abspath: str) -> bool:
        return abspath in self.files or self._belongs(abspath)

    # ------------------------------------------------------------------------------
    # per-file stage

    def _check_file(self, abspath: str) -> FileState:
        self._profile_docs_for([abspath])
        raw = self.overrides.get(abspath)
        docs = _perfile.load_documents(
            source_of(abspath, raw), self.cwd, _perfile.strict_json(self.config)
        )
        findings = []
        for doc in docs:
            if self.profile_dir is not None and _is_under(abspath, self.profile_dir):
                doc.profile_asset = True
            diags = _perfile.file_diags(doc, self.ctx, self.checks)
            findings += [_locate.locate_in(d, doc) for d in diags]
        return FileState(abspath, docs[0].relpath, docs, findings)

    def _put(self, fs: FileState) -> None:
        old = self.files.get(fs.abspath)
        if old is not None:
            for k in old.keys:
                self.key_index.get(k, set()).discard(fs.abspath)
        if self.profile_dir is not None:
            for d in fs.docs:
                if _is_under(d.abspath, self.profile_dir):
                    d.profile_asset = True
        keys: set[str] = set()
        for d in fs.docs:
            keys |= doc_keys(d)
        fs.keys = frozenset(keys)
        for k in fs.keys:
            self.key_index.setdefault(k, set()).add(fs.abspath)
        self.files[fs.abspath] = fs
        self.by_rel[fs.relpath] = fs

    def _drop(self, abspath: str) -> None:
        fs = self.files.pop(abspath, None)
        if fs is None:
            return
        for k in fs.keys:
            self.key_index.get(k, set()).discard(abspath)
        self.by_rel.pop(fs.relpath, None)

    # ------------------------------------------------------------------------------
    # edits

    def set_buffer(self, abspath: str, text: str | bytes | None) -> Outcome:
        """The editor's unsaved text of a file (``None``: the file as on disk again)."""
        abspath = os.path.abspath(abspath)
        if text is None:
            self.overrides.pop(abspath, None)
        else:
            self.overrides[abspath] = text.encode("utf-8") if isinstance(text, str) else text
        return self.update([abspath])

    def update(self, abspaths: Iterable[str]) -> Outcome:
        """Re-check these files (their buffer or their file on disk; gone = removed)."""
        keys: set[str] = set()
        touched: set[str] = set()
        for a in abspaths:
            a = os.path.abspath(a)
            old = self.files.get(a)
            if old is not None:
                keys |= old.keys
                touched.add(old.relpath)
            if a in self.overrides or (os.path.isfile(a) and self._belongs(a)):
                fs = self._check_file(a)
                self._put(fs)
                keys |= fs.keys
                touched.add(fs.relpath)
            else:
                self._drop(a)
        if ALL_KEY in keys:
            self._corpus_stage(None)
            return Outcome(touched | set(self.by_rel), full=True)
        slice_files = set()
        for k in keys:
            slice_files |= self.key_index.get(k, set())
        slice_rel = {self.files[a].relpath for a in slice_files} | touched
        self._corpus_stage(slice_rel)
        return Outcome(slice_rel)

    # ------------------------------------------------------------------------------
    # corpus stage and the engine's final steps

    def _corpus_of(self, docs: list[Document]) -> Corpus:
        corpus = Corpus(docs, self.profile, self.config)
        # the OASIS profile documents (si_lint.profile_docs), as the read stage gives them
        corpus.profile_dirs, corpus.profile_docs = self.profile_dirs, self.profile_docs
        return corpus

    def _profile_docs_for(self, abspaths: Iterable[str]) -> None:
        """The profile directories (``profile.md`` and its siblings) of these files' directories,
        read once, as the read stage of ``check`` does."""
        todo = [a for a in abspaths if os.path.dirname(a) not in self.profile_dirs]
        if not todo:
            return
        dirs, docs = read_for(todo, self.config.root, self.cwd)
        self.profile_dirs.update(dirs)
        for k, v in docs.items():
            self.profile_docs.setdefault(k, v)

    def _run_checks(self, checks, corpus: Corpus) -> dict[str, list[Finding]]:
        """The located findings of ``checks`` over ``corpus``, by relpath: the corpus and
        dry-run stages' own function (a check that raises is one SI000)."""
        self.ctx.corpus = corpus
        root_rel = relpath_of(self.config.root, self.cwd)
        fresh: dict[str, list[Finding]] = {}
        for stage in STAGES:
            for diag in corpus_diags(corpus, self.ctx, checks, stage):
                f = _locate.locate(diag, corpus, root_rel)
                fresh.setdefault(f.path, []).append(f)
        return fresh

    def _corpus_stage(self, core: set[str] | None) -> None:
        """The corpus checks over everything (``core`` None), or, by their :func:`plan`: the
        slice's checks over the files ``core`` names (with the profile's assets as context),
        the whole-corpus ones over all of it, the profile's ones not at all; then the final
        findings of the files whose findings may have changed."""
        by_plan: dict[str, list] = {PROFILE: [], SLICE: [], WHOLE: []}
        for c in self.checks:
            if c.scope == "corpus":
                by_plan[plan(c)].append(c)
        found = self.stage_findings
        if core is None:
            self.corpus = corpus = self._corpus_of(self.documents())
            for how, checks in by_plan.items():
                found[how] = self._run_checks(checks, corpus)
            self.findings = {}
            changed = set(self.by_rel).union(*found.values())
        else:
            states = [self.by_rel[r] for r in core if r in self.by_rel]
            states += [
                fs
                for a in self.key_index.get(ALL_KEY, ())
                if (fs := self.files[a]).relpath not in core
            ]
            fresh = self._run_checks(
                by_plan[SLICE], self._corpus_of([d for s in states for d in s.docs])
            )
            for r in core:
                found[SLICE].pop(r, None)
            for path, items in fresh.items():
                if path in core or path not in self.by_rel:
                    found[SLICE][path] = items
            changed = set(core)
            self.corpus = None
            if by_plan[WHOLE]:  # checks that read the whole corpus run over all of it
                before = found[WHOLE]
                found[WHOLE] = self._run_checks(by_plan[WHOLE], self.full_corpus())
                changed |= {
                    r
                    for r in set(before) | set(found[WHOLE])
                    if before.get(r) != found[WHOLE].get(r)
                }
        failed = failed_texts(
            {fs.relpath: fs.per_file for fs in self.files.values()}, self._absolute, self.overrides
        )
        if failed != self.failed:  # knock-on findings held back or let go, in any file
            self.failed = failed
            changed |= set(self.by_rel).union(*found.values())
        for rel in changed:
            self._finalise(rel)

    def _absolute(self, relpath: str) -> str:
        return os.path.normpath(os.path.join(str(self.cwd), relpath))

    def _finalise(self, rel: str) -> None:
        """A file's findings as ``check`` reports them: the locate stage's steps
        (:mod:`si_lint.pipeline.locate`, :mod:`si_lint.pipeline.knockon`) on the file's."""
        fs = self.by_rel.get(rel)
        items = list(fs.per_file) if fs is not None else []
        for found in self.stage_findings.values():
            items += found.get(rel, [])
        items += [f for f in self.other_findings if f.path == rel]
        docs = {rel: fs.docs} if fs is not None and fs.docs else {}
        items = _locate.configured(items, docs, self.config, self._absolute)
        items = _locate.ordered(held_back_by(items, self.failed))
        if items or fs is not None:
            self.findings[rel] = items
        else:
            self.findings.pop(rel, None)

    # ------------------------------------------------------------------------------
    # queries

    def findings_of(self, abspath: str) -> list[Finding]:
        fs = self.files.get(os.path.abspath(abspath))
        rel = fs.relpath if fs is not None else relpath_of(abspath, self.cwd)
        return self.findings.get(rel, [])

    def abspath_of(self, relpath: str) -> str:
        fs = self.by_rel.get(relpath)
        return (
            fs.abspath if fs is not None else os.path.normpath(os.path.join(str(self.cwd), relpath))
        )

    def all_findings(self) -> list[Finding]:
        out = [f for items in self.findings.values() for f in items]
        out.sort(key=Finding.sort_key)
        return out

    def documents(self) -> list[Document]:
        return [d for fs in self.files.values() for d in fs.docs]

    def text_of(self, abspath: str) -> str | None:
        raw = self.overrides.get(abspath)
        if raw is None:
            raw, _ = read_file(Path(abspath))
        if raw is None:
            return None
        return raw.decode("utf-8", errors="replace")

    def full_corpus(self) -> Corpus:
        """A corpus of every document as it is now (rebuilt after an edit, on first use)."""
        if self.corpus is None:
            self.corpus = self._corpus_of(self.documents())
        return self.corpus
