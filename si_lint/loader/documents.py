"""What the loader returns: a stream's documents (:class:`Loaded`, :class:`LoadedDoc`)
and the position map of each (:class:`PosMap`: 1-based line, column by document path)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..findings import Diag


class PosMap:
    """Positions (1-based line, column) of keys and values, by document path."""

    __slots__ = ("k", "v")

    def __init__(self, k: dict | None = None, v: dict | None = None):
        self.k: dict[tuple, tuple[int, int]] = k if k is not None else {}
        self.v: dict[tuple, tuple[int, int]] = v if v is not None else {}

    def key(self, path: tuple) -> tuple[int, int]:
        """Where the node at ``path`` is named: its key, or the item itself in a list."""
        path = tuple(path)
        while True:
            hit = self.k.get(path)
            if hit is not None:
                return hit
            hit = self.v.get(path)
            if hit is not None:
                return hit
            if not path:
                return (1, 1)
            path = path[:-1]

    def value(self, path: tuple) -> tuple[int, int]:
        """Where the value node at ``path`` starts."""
        hit = self.v.get(tuple(path))
        if hit is not None:
            return hit
        return self.key(path)

    def to_blob(self) -> str:
        """Positions as one plain string (for the cache and worker processes): the JSON
        text of one ``[path, value line, value col, key line, key col]`` per node, the path
        a list of str/int parts (key line 0: a list item or the root, which has no key).
        A string, so that reading a cache entry costs nothing until the positions of that
        document are needed (only a cross-file finding pointing into it needs them)."""
        import json

        k = self.k
        out = []
        for path, (vl, vc) in self.v.items():
            kp = k.get(path)
            out.append([list(path), vl, vc, kp[0], kp[1]] if kp else [list(path), vl, vc, 0, 0])
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_blob(cls, blob: Any) -> PosMap | None:
        """Positions from :meth:`to_blob`; None for anything else (a cache entry written
        by someone else is checked item by item, never trusted)."""
        import json

        if isinstance(blob, str):
            try:
                blob = json.loads(blob)
            except ValueError:
                return None
        if not isinstance(blob, list):
            return None
        k: dict = {}
        v: dict = {}
        try:
            for item in blob:
                path, vl, vc, kl, kc = item
                if not (
                    isinstance(path, list)
                    and all(type(p) in (str, int) for p in path)
                    and all(type(n) is int for n in (vl, vc, kl, kc))
                ):
                    return None
                t = tuple(path)
                v[t] = (vl, vc)
                if kl:
                    k[t] = (kl, kc)
        except (TypeError, ValueError):
            return None
        return cls(k, v)


@dataclass
class LoadedDoc:
    """One document of a stream."""

    #: 0-based index among the documents the parser yields (a comment-only prefix before
    #: the first ``---`` is no document; empty documents count, but are not kept)
    index: int
    data: Any
    pos: PosMap = field(default_factory=PosMap)


@dataclass
class Loaded:
    """A file read as a YAML stream: its non-empty documents, in order."""

    documents: list[LoadedDoc] = field(default_factory=list)
    #: every loader finding of the file; ``Diag.document`` names the document it is in
    #: (None: the file as a whole, e.g. SI001, SI005, SI006, SI008)
    findings: list[Diag] = field(default_factory=list)
    #: True when the text could not be read at all (SI001/SI005/SI006): no documents
    failed: bool = False
    text: str | None = None
    #: spans ((line, col), (line, col)), 1-based, of scalars whose text holds
    #: ``si-lint:`` — a suppression-looking text there is data, not a comment (kept only
    #: when the file's text holds ``si-lint:``: without it there is no comment to quiet)
    quiet_spans: list = field(default_factory=list)
    #: 0-based line where each document the parser yields starts (its ``---``, or its
    #: first node), empty ones included: where ``--fix`` cuts the file into documents
    starts: list = field(default_factory=list)

    @property
    def data(self) -> Any:
        """The first document's data (None for a file without documents): for callers
        that read a file holding one document (profile assets, ``eval``, ``eio``)."""
        return self.documents[0].data if self.documents else None

    @property
    def pos(self) -> PosMap:
        return self.documents[0].pos if self.documents else PosMap()
