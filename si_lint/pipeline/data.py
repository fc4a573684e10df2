"""Located findings as plain JSON-able data (dicts, lists, str, int, float, bool, None)
for the cache (per-file entries, whole runs), and back. Reading back validates every
field: a cache can arrive in a pull request, so anything unexpected is ``ValueError``.
(Check results, ``Diag``, go through :mod:`si_lint.codec`.)"""

from __future__ import annotations

from pathlib import Path

from ..findings import Finding, Location

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
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


def to_entry(docs: list[Document], findings: list[Finding]) -> dict:
    relpath = docs[0].relpath
    out = []
    for f in findings:
        d = finding_to_data(f)
        if f.path == relpath:
            d["path"] = _ENTRY_PATH
        out.append(d)
    return {
        "docs": [_entry_row(d) for d in docs],
        "ndocs": docs[0].ndocs,
        "suppressions": [
            [line, col, kind, list(codes)] for line, col, kind, codes in docs[0].suppressions
        ],
        "findings": out,
    }


def _entry_row(doc: Document) -> list:
    """``[index, kind, data, positions]``; a fixture's or evidence document's data as its
    JSON text and :meth:`~si_lint.corpus.Document.artifact_refs` instead
    (``[index, kind, None, positions, text, refs]``), so that a run reading the entry back
    holds it packed (``Document.pack``)."""
    from ..corpus import PACKED_KINDS, packed_form

    if doc.kind in PACKED_KINDS:
        text = doc.packed
        try:
            if not isinstance(text, str):
                text = packed_form(doc.unpacked(), True)
            sid, spath, named = doc.artifact_refs()
        except (TypeError, ValueError, RecursionError):
            pass  # stored as data (not JSON: the entry is not stored)
        else:
            refs = [sid, None if spath is None else list(spath), named]
            return [doc.index, doc.kind, None, doc.pos_blob, text, refs]
    return [doc.index, doc.kind, doc.data, doc.pos_blob]


def _refs_of(refs) -> tuple:
    """The ``refs`` of an entry row (``ValueError`` for anything :func:`_entry_row` does
    not write)."""
    sid, spath, named = refs
    if not (
        (sid is None or type(sid) is str)
        and (named is None or type(named) is str)
        and (spath is None or (type(spath) is list and all(type(k) is str for k in spath)))
    ):
        raise ValueError("bad refs")
    return sid, None if spath is None else tuple(spath), named


def from_entry(entry, source: Source, cwd: Path) -> tuple[list[Document], list[Finding]] | None:
    """The documents and findings of a cache entry; None when the entry is not what
    :func:`to_entry` writes (a cache can arrive in a pull request: never trusted)."""
    from ..corpus import KINDS, PACKED_KINDS, Document, relpath_of

    try:
        relpath = relpath_of(source.abspath, cwd)
        ndocs = entry["ndocs"]
        sups = []
        for line, col, kind, codes in entry["suppressions"]:
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
        for row in entry["docs"]:
            index, kind, data, blob, *packed = row
            if type(index) is not int or (kind is not None and kind not in KINDS):
                return None
            doc = Document(
                relpath,
                source.abspath,
                kind,
                data,
                None,
                sha=source.sha,
                suppressions=sups,
                index=index,
                ndocs=ndocs,
            )
            doc.pos_blob = blob
            doc.siblings = shared
            if packed:  # a fixture's or evidence document's JSON text
                text, refs = packed
                if kind not in PACKED_KINDS or type(text) is not str or not text.isascii():
                    return None
                doc.pack(text, _refs_of(refs))
            docs.append(doc)
        if not docs or type(ndocs) is not int:
            return None
        findings = []
        for d in entry["findings"]:
            f = finding_from_data(d)
            if f.path == _ENTRY_PATH:
                f = _with_path(f, relpath)
            findings.append(f)
    except (KeyError, TypeError, ValueError):
        return None
    return docs, findings


def _with_path(f: Finding, path: str) -> Finding:
    return f._replace(path=path)
