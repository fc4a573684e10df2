"""Line-independent finding fingerprints (SPEC §9), shared by SARIF ``partialFingerprints``,
GitLab's ``fingerprint`` and ``--baseline``: a hash of (code, path relative to the corpus
root, ``id:<scenario id>`` or ``doc:<index>``, ``path:<document path>`` or ``line:<the
stripped source line>``, occurrence) -- no line or column, so inserting lines above a
finding keeps it (docs/integration.md)."""

from __future__ import annotations

import hashlib
import os
from itertools import groupby
from pathlib import Path

from ..loader import load_bytes
from ..source import SourceCache, read_source

VERSION = "v1"


def _scenario_ids(path: str, corpus) -> dict[int, str | None]:
    """Scenario ids of a file's documents by document index: the corpus's, else read from
    the file (a run answered without building a corpus)."""
    docs = corpus.by_file.get(path) if corpus is not None else None
    if docs:
        return {d.index: _id_of(d.data) for d in docs}
    raw = read_source(path)
    if raw is None:
        return {}
    return {d.index: _id_of(d.data) for d in load_bytes(raw).documents}


def _id_of(data) -> str | None:
    sid = data.get("id") if isinstance(data, dict) else None
    return sid if isinstance(sid, str) and sid else None


def digest(identity: tuple) -> str:
    raw = "\0".join(str(part) for part in (VERSION, *identity))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class Fingerprinter:
    """The identities and fingerprints of the findings of one run (reads each file once)."""

    def __init__(self, result):
        self.corpus = getattr(result, "corpus", None)
        config = getattr(result, "config", None)
        self.root = str(config.root) if config is not None else None
        self.cwd = str(Path.cwd().resolve())
        self.sources = SourceCache()
        self._ids: dict[str, dict] = {}
        self._rels: dict[str, str] = {}

    def rel(self, path: str) -> str:
        if self.root is None:
            return path
        rel = self._rels.get(path)
        if rel is None:
            absolute = os.path.normpath(os.path.join(self.cwd, path))
            rel = self._rels[path] = os.path.relpath(absolute, self.root).replace(os.sep, "/")
        return rel

    def identities(self, findings):
        """(code, relative path, document, anchor, occurrence) of each finding, one at a
        time: findings grouped by file (a run's are: sorted by path) keep one file's
        occurrence counts at a time, so that a report streams in bounded memory."""
        runs = [path for path, _ in groupby(f.path for f in findings)]
        grouped = len(runs) == len(set(runs))  # each file's findings next to each other
        current = None
        seen: dict[tuple, int] = {}
        for f in findings:
            if grouped and f.path != current:
                current = f.path
                seen.clear()
            yield self._identity(f, seen)

    def fingerprints(self, findings) -> list[str]:
        return list(map(digest, self.identities(findings)))

    def _identity(self, f, seen: dict) -> tuple[str, str, str, str, int]:
        if f.doc_path:
            anchor = "path:" + f.doc_path
        else:
            src = self.sources.line(f.path, f.line)
            anchor = "line:" + (src.strip() if src is not None else "")
        index = f.document if isinstance(getattr(f, "document", None), int) else 0
        if f.path not in self._ids:
            self._ids[f.path] = _scenario_ids(f.path, self.corpus)
        sid = self._ids[f.path].get(index)
        key = (f.code, self.rel(f.path), f"id:{sid}" if sid else f"doc:{index}", anchor)
        n = seen.get(key, 0)
        seen[key] = n + 1
        return (*key, n)
