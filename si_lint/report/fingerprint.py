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
        """(code, relative path, document, anchor, occurrence) of each finding; findings
        grouped by file (a run's are) keep one file's counts at a time (bounded memory)."""
        runs = [path for path, _ in groupby(f.path for f in findings)]
        grouped = len(runs) == len(set(runs))  # each file's findings next to each other
        current = None
        seen: dict[tuple, int] = {}
        for f in findings:
            if grouped and f.path != current:
                current = f.path
                seen.clear()
            if f.doc_path:
                anchor = "path:" + f.doc_path
            else:
                anchor = "line:" + (self.sources.line(f.path, f.line) or "").strip()
            index = f.document if isinstance(f.document, int) else 0
            if f.path not in self._ids:  # scenario ids by document index
                docs = self.corpus.by_file.get(f.path) if self.corpus is not None else None
                if not docs:  # the file's (no corpus built)
                    raw = read_source(f.path)
                    docs = load_bytes(raw).documents if raw is not None else []
                ids = ((d.index, d.data.get("id")) for d in docs if isinstance(d.data, dict))
                self._ids[f.path] = {i: s for i, s in ids if isinstance(s, str) and s}
            sid = self._ids[f.path].get(index)
            key = (f.code, self.rel(f.path), f"id:{sid}" if sid else f"doc:{index}", anchor)
            seen[key] = seen.get(key, -1) + 1
            yield (*key, seen[key])

    def fingerprints(self, findings) -> list[str]:
        return list(map(digest, self.identities(findings)))
