"""A file's per-file result as plain JSON-able data, as the cache stores it and a worker
sends it back, and back. Reading back validates every field: a cache can arrive in a
pull request, so anything unexpected is a miss."""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any

from ..cache.bodies import Stored
from ..corpus import ARTIFACT_KINDS, KINDS, Document
from ..discovery import relpath_of
from ..findings import Finding, Location
from ..fsutil import read_regular
from ..loader import MAX_BYTES, PosMap, load_bytes
from .context import Source

_REQUIRED = ("path", "line", "column", "code", "severity", "message")
_OPTIONAL = (
    ("help", str),
    ("doc_path", str),
    ("end_line", int),
    ("end_column", int),
    ("detail", str),
    ("document", int),
)


def finding_to_data(f: Finding) -> dict:
    out = {key: getattr(f, key) for key in _REQUIRED}
    out.update((key, getattr(f, key)) for key, _typ in _OPTIONAL if getattr(f, key) is not None)
    if f.related:
        out["related"] = [[r.path, r.line, r.column, r.message] for r in f.related]
    if f.fix is not None:
        from ..fix import fix_to_data  # (the fixes' package: ruamel's round trip)

        out["fix"] = fix_to_data(f.fix)
    return out


def finding_from_data(d: Any) -> Finding:
    """Raises ``ValueError`` on anything :func:`finding_to_data` does not write."""
    if not (
        isinstance(d, dict)
        and all(isinstance(d.get(k), str) for k in ("path", "code", "severity", "message"))
        and all(type(d.get(k)) is int for k in ("line", "column"))
    ):
        raise ValueError("not a finding")
    opt = {}
    for key, typ in _OPTIONAL:
        value = d.get(key)
        if value is not None:
            if type(value) is not typ:
                raise ValueError(f"bad {key}")
            opt[key] = value
    related = []
    for r in d.get("related") or ():
        if not (type(r) is list and [type(v) for v in r] == [str, int, int, str]):
            raise ValueError("bad related location")
        related.append(Location(*r))
    fix = None
    if d.get("fix") is not None:
        from ..fix import fix_from_data  # (the fixes' package: ruamel's round trip)

        fix = fix_from_data(d["fix"])
    path, line, column, code, severity, message = (d[k] for k in _REQUIRED)
    return Finding(
        path, line, column, code, severity, message, related=tuple(related), fix=fix, **opt
    )


_ENTRY_PATH = "\0"  # findings in entries carry this placeholder instead of their file's path


def to_entry(docs: list[Document], findings: list[Finding]) -> list:
    """A file's entry ``[head, body]`` (its shape: ARCHITECTURE.md, "The cache"): the head
    is what every run reads of an unchanged file, the body only a run that reads a
    document's data or positions (:class:`Content`)."""
    relpath = docs[0].relpath
    out = [
        {**finding_to_data(f), "path": _ENTRY_PATH} if f.path == relpath else finding_to_data(f)
        for f in findings
    ]
    rows, body = [], []
    for doc in docs:
        refs: list | None = None
        if doc.kind in ARTIFACT_KINDS:
            sid, spath, named = doc.artifact_refs()
            refs = [sid, None if spath is None else list(spath), named]
        elif doc.kind == "scenario":
            refs = [doc.scenario_id()]
        rows.append([doc.index, doc.kind, refs])
        data = doc.data  # (fills ``content.blobs`` from an entry's body)
        content = doc.content
        blob = None if content is None else content.blobs.get(doc.index)
        if blob is None and content is not None and doc.index in content.posmaps:
            blob = content.posmaps[doc.index].to_blob(data)
        body.append([data, blob])
    head = {
        "docs": rows,
        "ndocs": docs[0].ndocs,
        "suppressions": [
            [line, col, k, list(codes)] for line, col, k, codes in docs[0].suppressions
        ],
        "findings": out,
    }
    return [head, body]


def _refs_of(kind: str | None, refs) -> tuple | None:
    """``ValueError`` for anything :func:`to_entry` does not write."""
    if kind == "scenario":
        (sid,) = refs
        if sid is not None and type(sid) is not str:
            raise ValueError("bad scenario id")
        return (sid,)
    if kind not in ARTIFACT_KINDS:
        if refs is not None:
            raise ValueError("refs of a kind that has none")
        return None
    sid, spath, named = refs
    if not ((sid is None or type(sid) is str) and (named is None or type(named) is str)):
        raise ValueError("bad refs")
    if spath is not None:
        if type(spath) is not list:
            raise ValueError("bad refs")
        for key in spath:  # a loop, not all(): this runs for every cached fixture
            if type(key) is not str:
                raise ValueError("bad refs")
        spath = tuple(spath)
    return sid, spath, named


def from_entry(
    entry, source: Source, cwd: Path, relpath: str | None = None, profile_asset: bool = False
) -> tuple[list[Document], list[Finding]] | None:
    """The documents and findings of an entry, data and positions left in its body until
    first used; None when the head is not what :func:`to_entry` writes. ``profile_asset``:
    the file is in the selection's profile directory (not the entry's: it is the run's)."""
    try:
        head, body = entry
        relpath = relpath_of(source.abspath, cwd) if relpath is None else relpath
        ndocs = head["ndocs"]
        sups = []
        for line, col, kind, codes in head["suppressions"]:
            if not (
                type(line) is int
                and type(col) is int
                and kind in ("line", "above", "file")
                and all(isinstance(c, str) for c in codes)
            ):
                return None
            sups.append((line, col, kind, tuple(codes)))
        content = Content(source.abspath, body)
        for index, kind, refs in head["docs"]:
            if type(index) is not int or (kind is not None and kind not in KINDS):
                return None
            doc = Document.unread(
                relpath,
                source.abspath,
                kind,
                content,
                sha=source.sha,
                suppressions=sups,
                profile_asset=profile_asset,
                index=index,
                ndocs=ndocs,
                refs=_refs_of(kind, refs),
            )
            content.docs.append(doc)
        if not content.docs or type(ndocs) is not int:
            return None
        findings = [finding_from_data(d) for d in head["findings"]]
        findings = [f._replace(path=relpath) if f.path == _ENTRY_PATH else f for f in findings]
    except (KeyError, TypeError, ValueError):
        return None
    return content.docs, findings


class Content:
    """One file's documents' data and positions where the documents do not hold them: the
    positions the loader gave (until the file checks have run), its entry's body, decoded
    for all on the first read of one's data, else (a body not of :func:`to_entry`'s shape,
    no blob) the file read again once."""

    __slots__ = ("abspath", "raw", "docs", "data", "blobs", "posmaps", "again")

    def __init__(self, abspath: str, raw: Any = None):
        self.abspath = abspath
        self.raw = raw
        self.docs: list[Document] = []
        self.data: dict[int, Any] = {}  # index -> the data decoded from ``raw``
        self.blobs: dict[int, Any] = {}
        self.posmaps: dict[int, PosMap] = {}  # index -> positions, given or made
        self.again: dict | None = None  # index -> the document loaded from the file again

    def fill(self) -> None:
        raw, self.raw = self.raw, None
        if raw is None:
            return
        rows = _body_rows(raw, len(self.docs))
        if rows is None:
            for doc in self.docs:
                again = self._loaded_again().get(doc.index)
                self.data[doc.index] = again.data if again is not None else None
            return
        for doc, (data, blob) in zip(self.docs, rows):
            self.data[doc.index] = data
            if blob is not None:
                self.blobs[doc.index] = blob

    def data_of(self, index: int) -> Any:
        self.fill()
        return self.data[index]

    def pos(self, doc: Document) -> PosMap:
        got = self.posmaps.get(doc.index)
        if got is not None:
            return got
        self.fill()
        blob = self.blobs.get(doc.index)
        got = PosMap.from_blob(blob, doc.data) if blob is not None else None
        if got is None:
            again = self._loaded_again().get(doc.index)
            got = again.pos if again is not None else PosMap()
        self.posmaps[doc.index] = got
        return got

    def drop_positions(self, blobs: bool) -> None:
        """The file checks have run: the loader's positions are dropped (they are large),
        kept as blobs when ``blobs``."""
        if blobs:
            for doc in self.docs:
                if doc.index in self.posmaps:
                    self.blobs[doc.index] = self.posmaps[doc.index].to_blob(doc.data)
        self.posmaps.clear()

    def _loaded_again(self) -> dict:
        if self.again is None:
            raw, _why = read_regular(self.abspath, MAX_BYTES)
            docs = load_bytes(raw).documents if raw is not None else []
            self.again = {d.index: d for d in docs}
        return self.again


def _body_rows(raw: Any, n: int) -> list | None:
    if type(raw) is bytes:  # marshal bytes from this run's own worker (never the cache's)
        rows = marshal.loads(raw)
    else:
        rows = (raw if isinstance(raw, Stored) else Stored(raw, None)).load()
    if type(rows) is list and len(rows) == n:
        if all(type(row) is list and len(row) == 2 for row in rows):
            return rows
    return None
