"""Located findings as plain JSON-able data (dicts, lists, str, int, float, bool, None)
for the cache (per-file entries, whole runs), and back. Reading back validates every
field: a cache can arrive in a pull request, so anything unexpected is ``ValueError``.
(Check results, ``Diag``, go through :mod:`si_lint.codec`.)"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..findings import Finding, Location

if TYPE_CHECKING:
    from typing import Any

    from ..corpus import Document
    from .context import Source


def finding_to_data(self: Finding) -> dict:
    """A located :class:`Finding` as plain data."""
    out: dict = {
        "path": self.path,
        "line": self.line,
        "column": self.column,
        "code": self.code,
        "severity": self.severity,
        "message": self.message,
    }
    for key in ("help", "doc_path", "end_line", "end_column", "detail", "document"):
        value = getattr(self, key)
        if value is not None:
            out[key] = value
    if self.related:
        out["related"] = [[r.path, r.line, r.column, r.message] for r in self.related]
    if self.fix is not None:
        from ..fix import fix_to_data

        out["fix"] = fix_to_data(self.fix)
    return out


def finding_from_data(d: Any) -> Finding:
    """The inverse of :func:`finding_to_data`; raises ``ValueError`` on anything else."""
    if not isinstance(d, dict):
        raise ValueError("not a finding")
    str_keys = ("path", "code", "severity", "message")
    if not all(isinstance(d.get(k), str) for k in str_keys) or not all(
        type(d.get(k)) is int for k in ("line", "column")
    ):
        raise ValueError("not a finding")
    opt = {}
    for key, typ in (
        ("help", str),
        ("doc_path", str),
        ("end_line", int),
        ("end_column", int),
        ("detail", str),
        ("document", int),
    ):
        value = d.get(key)
        if value is not None:
            if type(value) is not typ:
                raise ValueError(f"bad {key}")
            opt[key] = value
    related = []
    for r in d.get("related") or ():
        if not (
            isinstance(r, list)
            and len(r) == 4
            and isinstance(r[0], str)
            and type(r[1]) is int
            and type(r[2]) is int
            and isinstance(r[3], str)
        ):
            raise ValueError("bad related location")
        related.append(Location(*r))
    fix = None
    if d.get("fix") is not None:
        from ..fix import fix_from_data

        fix = fix_from_data(d["fix"])
    return Finding(
        d["path"],
        d["line"],
        d["column"],
        d["code"],
        d["severity"],
        d["message"],
        related=tuple(related),
        fix=fix,
        **opt,
    )


# --------------------------------------------------------------------------------------
# per-file cache entries: plain JSON-able data (dicts, lists, str, int, float, bool, None)


_ENTRY_PATH = "\0"  # findings in cache entries carry this placeholder instead of a path


def to_entry(docs: list[Document], findings: list[Finding]) -> list:
    """A file's cache entry: ``[head, body]``. The head is what every run reads of an
    unchanged file: its documents (``[index, kind, refs]``), suppressions and findings.
    The body (``[data, positions]`` per document) is what only a run that reads a
    document's data or positions needs; the cache leaves it undecoded until then
    (:class:`Body`)."""
    relpath = docs[0].relpath
    out = []
    for f in findings:
        d = finding_to_data(f)
        if f.path == relpath:
            d["path"] = _ENTRY_PATH
        out.append(d)
    rows = [_entry_rows(d) for d in docs]
    head = {
        "docs": [row for row, _body in rows],
        "ndocs": docs[0].ndocs,
        "suppressions": [
            [line, col, kind, list(codes)] for line, col, kind, codes in docs[0].suppressions
        ],
        "findings": out,
    }
    return [head, [body for _row, body in rows]]


def _entry_rows(doc: Document) -> tuple[list, list]:
    """(``[index, kind, refs]``, ``[data, positions]``): a fixture's or evidence
    document's refs are :meth:`~si_lint.corpus.Document.artifact_refs`, a scenario's
    ``[its id]``."""
    from ..corpus import ARTIFACT_KINDS

    refs: list | None = None
    if doc.kind in ARTIFACT_KINDS:
        sid, spath, named = doc.artifact_refs()
        refs = [sid, None if spath is None else list(spath), named]
    elif doc.kind == "scenario":
        refs = [doc.scenario_id()]
    return [doc.index, doc.kind, refs], [doc.data, doc.pos_blob]


@cache
def _corpus():
    """:mod:`si_lint.corpus`, imported on first use (the findings' half of this module is
    on the pre-commit path, which never needs it): an import statement in
    :func:`from_entry` cost 1.6 us per entry and per document."""
    from .. import corpus

    return corpus


def _refs_of(kind: str | None, refs, artifact_kinds) -> tuple | None:
    """The ``refs`` of an entry's document (``ValueError`` for anything
    :func:`_entry_rows` does not write)."""
    if kind == "scenario":
        (sid,) = refs
        if sid is not None and type(sid) is not str:
            raise ValueError("bad scenario id")
        return (sid,)
    if kind not in artifact_kinds:
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
    entry, source: Source, cwd: Path, relpath: str | None = None
) -> tuple[list[Document], list[Finding]] | None:
    """The documents and findings of a cache entry, each document's data and positions
    left in the entry's body until first used (:class:`Body`); None when the head is not
    what :func:`to_entry` writes (a cache can arrive in a pull request: never trusted).
    ``relpath``: the source's path relative to ``cwd``, when the caller has it."""
    corpus = _corpus()
    kinds, artifact_kinds, document = corpus.KINDS, corpus.ARTIFACT_KINDS, corpus.Document
    try:
        head, body = entry
        if relpath is None:
            relpath = corpus.relpath_of(source.abspath, cwd)
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
        docs = []
        shared: dict = {}
        for index, kind, refs in head["docs"]:
            if type(index) is not int or (kind is not None and kind not in kinds):
                return None
            doc = document(
                relpath,
                source.abspath,
                kind,
                None,
                None,
                sha=source.sha,
                suppressions=sups,
                index=index,
                ndocs=ndocs,
                siblings=shared,
                refs=_refs_of(kind, refs, artifact_kinds),
            )
            del doc.__dict__["data"]  # in the body: Document.__getattr__
            docs.append(doc)
        if not docs or type(ndocs) is not int:
            return None
        findings = []
        for d in head["findings"]:
            f = finding_from_data(d)
            if f.path == _ENTRY_PATH:
                f = _with_path(f, relpath)
            findings.append(f)
    except (KeyError, TypeError, ValueError):
        return None
    lazy = Body(body, docs)
    for doc in docs:
        doc.lazy = lazy
    return docs, findings


class Body:
    """The body of a cache entry (:func:`to_entry`) for the documents of its file: JSON
    text the cache has not decoded (``msgspec.Raw``), or data (a table the stdlib read).
    :meth:`fill` decodes it once, on the first read of one document's data or positions,
    and gives every document its own. A body that is not what :func:`to_entry` writes (it
    cannot be: the cache is signed) leaves the documents to read their file again."""

    __slots__ = ("raw", "docs")

    def __init__(self, raw: Any, docs: list[Document]):
        self.raw = raw
        self.docs = docs

    def fill(self) -> None:
        docs, raw = self.docs, self.raw
        self.docs, self.raw = [], None
        rows = _body_rows(raw, docs) if docs else None
        for doc in docs:
            doc.lazy = None
        if rows is None:
            again = {d.index: d.data for d in docs[0]._loaded_again()} if docs else {}
            for doc in docs:
                doc.data = again.get(doc.index)
            return
        for doc, (data, blob) in zip(docs, rows):
            doc.pos_blob = blob
            doc.data = data


def _body_rows(raw: Any, docs: list[Document]) -> list | None:
    from ..cache.bodies import Stored

    rows = (raw if isinstance(raw, Stored) else Stored(raw, None)).load()
    if type(rows) is not list or len(rows) != len(docs):
        return None
    for row in rows:
        if type(row) is not list or len(row) != 2:
            return None
    return rows


def _with_path(f: Finding, path: str) -> Finding:
    return f._replace(path=path)
