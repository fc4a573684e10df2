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
        hit = _named_at(self.k, self.v, tuple(path))
        return (1, 1) if hit is None else hit

    def value(self, path: tuple) -> tuple[int, int]:
        """Where the value node at ``path`` starts."""
        hit = self.v.get(tuple(path))
        if hit is not None:
            return hit
        return self.key(path)

    def to_blob(self, data: Any) -> str | None:
        """Positions as one plain string (for the cache and worker processes), given the
        document's ``data``: four numbers per node of :func:`walk` over the data, in its
        order -- value line (as the change from the last value line), value column, key
        line (as the change from the value line) and key column; a column of 0: no such
        position (a list item or the root has no key). The paths are the data's own, so
        they are not written. A string, so that reading
        a cache entry costs nothing until the positions of that document are needed
        (only a cross-file finding pointing into it needs them). None when the data is
        too large to walk (the file is read again if its positions are needed)."""
        k, v = self.k, self.v
        out: list = []
        last = 0
        for path in walk(data):
            vp, kp = v.get(path), k.get(path)
            if vp is not None:
                last, vp = vp[0], (vp[0] - last, vp[1])
            out += vp or (0, 0)
            out += (kp[0] - last, kp[1]) if kp is not None else (0, 0)
        if len(out) >= 4 * MAX_WALK:
            return None
        return ",".join(map(str, out))

    @classmethod
    def from_blob(cls, blob: Any, data: Any) -> PosMap | None:
        """Positions from :meth:`to_blob` and the same ``data``; None for anything else (a
        cache entry written by someone else is checked, never trusted)."""
        if not isinstance(blob, str) or not blob.isascii():
            return None
        try:
            numbers = [int(n) for n in blob.split(",")]
        except ValueError:
            return None
        k: dict = {}
        v: dict = {}
        last = 0
        it = iter(numbers)
        try:
            for path in walk(data):
                vl, vc, kl, kc = next(it), next(it), next(it), next(it)
                if vc > 0:
                    last += vl
                    v[path] = (last, vc)
                if kc > 0:
                    k[path] = (last + kl, kc)
        except StopIteration:
            return None
        if next(it, None) is not None:  # more numbers than nodes: not this data's
            return None
        return cls(k, v)


class MarkPosMap(PosMap):
    """The positions the builder read: the parser's start marks (0-based line and column)
    by document path, made (1-based line, column) when first asked for. Most documents'
    positions are never read (only a finding needs them), and keeping the mark the parser
    made costs less than building a tuple for every node (5% of reading the bench
    corpus). Pickled as the :class:`PosMap` it stands for."""

    __slots__ = ("_marks",)

    def __init__(self, k: dict, v: dict):  # k and v stay unset until first asked for
        self._marks: tuple[dict, dict] | None = (k, v)

    def __getattr__(self, name: str):
        marks = self._marks
        if name not in ("k", "v") or marks is None:
            raise AttributeError(name)
        self.k, self.v = ({p: (m.line + 1, m.column + 1) for p, m in d.items()} for d in marks)
        self._marks = None
        return getattr(self, name)

    def key(self, path: tuple) -> tuple[int, int]:
        marks = self._marks
        if marks is None:
            return PosMap.key(self, path)
        # one finding's position: the one mark, not every node's position made first
        mark = _named_at(*marks, tuple(path))
        return (1, 1) if mark is None else (mark.line + 1, mark.column + 1)

    def value(self, path: tuple) -> tuple[int, int]:
        marks = self._marks
        if marks is None:
            return PosMap.value(self, path)
        mark = marks[1].get(tuple(path))
        return self.key(path) if mark is None else (mark.line + 1, mark.column + 1)

    def __reduce__(self):
        return (PosMap, (self.k, self.v))


def _named_at(k: dict, v: dict, path: tuple):
    """What :meth:`PosMap.key` answers from ``k`` and ``v`` (key positions, value
    positions): the entry of ``path`` or of its nearest ancestor, or None."""
    while True:
        hit = k.get(path)
        if hit is None:
            hit = v.get(path)
        if hit is not None or not path:
            return hit
        path = path[:-1]


#: the most nodes :func:`walk` visits (the loader's limits keep a document far below it)
MAX_WALK = 200_000


def walk(data: Any):
    """The path of every node of ``data`` (dicts and lists), the root first, then each
    child before its next sibling (document order), at most :data:`MAX_WALK` of them."""
    stack: list[tuple[tuple, Any]] = [((), data)]
    n = 0
    while stack and n < MAX_WALK:
        path, node = stack.pop()
        n += 1
        yield path
        t = type(node)
        if t is dict:
            stack.extend(reversed([(path + (key,), value) for key, value in node.items()]))
        elif t is list:
            stack.extend(reversed([(path + (i,), value) for i, value in enumerate(node)]))


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
