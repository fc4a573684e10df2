"""Line-independent finding fingerprints (SPEC §9), shared by SARIF ``partialFingerprints``
and ``--baseline``/``--write-baseline``.

A finding's identity is (code, path relative to the corpus root, the document it is in,
its anchor, occurrence):

- the document: ``id:<scenario id>`` when the document has a string ``id`` (a scenario), else
  ``doc:<index>`` (its position in a multi-document file; 0 for a single document);
- the anchor: ``path:<document path of the node>`` (e.g. ``scoring.bindings.channels[1]``) when
  the finding has one, else ``line:<the offending source line, stripped>`` (parse errors,
  implementation files);
- occurrence: 0, 1, ... among findings that share everything above (two findings of one code
  on one node stay distinct).

No line or column takes part, so inserting lines above a finding keeps its fingerprint;
two findings on one line differ in their anchor (or occurrence).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..source import SourceCache

VERSION = "v1"


def _ids_from_corpus(path: str, corpus) -> dict[int, str | None] | None:
    """Scenario ids of a file's documents by document index (None: the file is not in the
    corpus at hand)."""
    if corpus is None:
        return None
    docs = getattr(corpus, "by_file", {}).get(path)
    if not docs:
        return None
    return {getattr(d, "index", 0): _id_of(getattr(d, "data", None)) for d in docs}


def _ids_from_file(path: str) -> dict[int, str | None]:
    """Scenario ids of a file's documents, read from the file itself (used when the run was
    answered from the run cache and no corpus was built)."""
    from ..loader import load_bytes
    from ..source import read_source

    raw = read_source(path)
    if raw is None:
        return {}
    try:
        loaded = load_bytes(raw)
    except Exception:
        return {}
    return {d.index: _id_of(d.data) for d in loaded.documents}


def _id_of(data) -> str | None:
    if isinstance(data, dict):
        sid = data.get("id")
        if isinstance(sid, str) and sid:
            return sid
    return None


class Fingerprinter:
    """Computes :func:`identity` for the findings of one run (caches file reads)."""

    def __init__(self, result, cwd: Path | None = None):
        self.corpus = getattr(result, "corpus", None)
        config = getattr(result, "config", None)
        self.root = Path(config.root) if config is not None else None
        self.cwd = (cwd or Path.cwd()).resolve()
        self.sources = SourceCache()
        self._ids: dict[str, dict] = {}
        self._rel: tuple[str | None, str] = (None, "")

    def rel(self, path: str) -> str:
        if self.root is None:
            return path
        if path == self._rel[0]:  # findings come file by file
            return self._rel[1]
        absolute = os.path.normpath(os.path.join(str(self.cwd), path))
        rel = os.path.relpath(absolute, str(self.root)).replace(os.sep, "/")
        self._rel = (path, rel)
        return rel

    def _doc_key(self, f) -> str:
        index = getattr(f, "document", None)
        index = index if isinstance(index, int) else 0
        if f.path not in self._ids:
            ids = _ids_from_corpus(f.path, self.corpus)
            self._ids[f.path] = ids if ids is not None else _ids_from_file(f.path)
        sid = self._ids[f.path].get(index)
        return f"id:{sid}" if sid else f"doc:{index}"

    def identities(self, findings) -> list[tuple[str, str, str, str, int]]:
        seen: dict[tuple, int] = {}
        return [self._identity(f, seen) for f in findings]

    def fingerprints(self, findings) -> list[str]:
        return [digest(i) for i in self.identities(findings)]

    def iter_fingerprints(self, findings):
        """The fingerprints of ``findings``, one at a time (a report streams them). The
        occurrence counts are kept per file: findings grouped by file (a run's always
        are: sorted by path) need one file's counts at a time; others, all of them."""
        if not _grouped(findings):
            yield from self.fingerprints(findings)
            return
        current = None
        seen: dict[tuple, int] = {}
        for f in findings:
            if f.path != current:
                current = f.path
                seen.clear()
            yield digest(self._identity(f, seen))

    def _identity(self, f, seen: dict) -> tuple[str, str, str, str, int]:
        if f.doc_path:
            anchor = "path:" + f.doc_path
        else:
            src = self.sources.line(f.path, f.line)
            anchor = "line:" + (src.strip() if src is not None else "")
        key = (f.code, self.rel(f.path), self._doc_key(f), anchor)
        n = seen.get(key, 0)
        seen[key] = n + 1
        return (*key, n)


def _grouped(findings) -> bool:
    """Whether the findings of each file are next to each other."""
    done: set = set()
    current = None
    for f in findings:
        if f.path != current:
            if f.path in done:
                return False
            done.add(current)
            current = f.path
    return True


def digest(identity: tuple) -> str:
    raw = "\0".join(str(part) for part in (VERSION, *identity))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def fingerprints(result, findings=None, cwd: Path | None = None) -> list[str]:
    """One fingerprint per finding of ``result`` (same order)."""
    findings = result.findings if findings is None else findings
    return Fingerprinter(result, cwd).fingerprints(findings)
