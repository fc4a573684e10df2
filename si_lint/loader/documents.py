"""What the loader returns: a stream's documents and the position map of each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..findings import Diag


@dataclass
class PosMap:
    """Positions (1-based line, column) of keys (``k``) and values (``v``) by path."""

    k: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    v: dict[tuple, tuple[int, int]] = field(default_factory=dict)

    def key(self, path: tuple) -> tuple[int, int]:
        """Where the node at ``path`` is named: its key, or the item itself in a list (or
        its nearest ancestor's)."""
        path = tuple(path)
        for at in (path[:n] for n in range(len(path), -1, -1)):
            hit = self.k.get(at) or self.v.get(at)
            if hit is not None:
                return hit
        return (1, 1)

    def value(self, path: tuple) -> tuple[int, int]:
        return self.v.get(tuple(path)) or self.key(path)

    def to_blob(self, data: Any) -> str | None:
        """Positions as one plain string (for the cache), given the document's ``data``:
        per node of :func:`walk`, value line (as the change from the last value line),
        value column, key line (as the change from the value line) and key column (0: no
        such position); the paths are the data's own. None when the data is too large to
        walk (the file is read again if its positions are needed)."""
        out: list = []
        last = 0
        for path in walk(data):
            vp, kp = self.v.get(path), self.k.get(path)
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
            it = iter([int(n) for n in blob.split(",")])
        except ValueError:
            return None
        pos, last = cls(), 0
        try:
            for path in walk(data):
                vl, vc, kl, kc = next(it), next(it), next(it), next(it)
                if vc > 0:
                    last += vl
                    pos.v[path] = (last, vc)
                if kc > 0:
                    pos.k[path] = (last + kl, kc)
        except StopIteration:
            return None
        if next(it, None) is not None:  # more numbers than nodes: not this data's
            return None
        return pos


#: the most nodes :func:`walk` visits (the loader's limits keep a document far below it)
MAX_WALK = 200_000


def walk(data: Any):
    """The path of each node of ``data`` in document order, at most :data:`MAX_WALK`."""
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
    #: 0-based index among the documents the parser yields (a comment-only prefix before
    #: the first ``---`` is no document; empty documents count, but are not kept)
    index: int
    data: Any
    pos: PosMap = field(default_factory=PosMap)


@dataclass
class Loaded:
    """A file read as a YAML stream: its non-empty documents, in order."""

    documents: list[LoadedDoc] = field(default_factory=list)
    #: ``Diag.document`` names the document a finding is in (None: the file as a whole)
    findings: list[Diag] = field(default_factory=list)
    failed: bool = False  # the text could not be read at all (SI001/SI005/SI006)
    text: str | None = None
    #: spans ((line, col), (line, col)), 1-based, of scalars whose text holds
    #: ``si-lint:``: a suppression-looking text there is data, not a comment
    quiet_spans: list = field(default_factory=list)
    #: 0-based line where each document the parser yields starts (its ``---``, or its
    #: first node), empty ones included: where ``--fix`` cuts the file into documents
    starts: list = field(default_factory=list)

    @property
    def data(self) -> Any:  # the first document's
        return self.documents[0].data if self.documents else None

    @property
    def pos(self) -> PosMap:
        return self.documents[0].pos if self.documents else PosMap()
