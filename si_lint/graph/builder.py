"""Building the reference graph (the profile, then the documents in path order, then the
EIO modules) and reading it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..eio import refs
from . import sources
from .sources import node_id

if TYPE_CHECKING:  # networkx is imported only where its API is used (see RefGraph)
    import networkx as nx


class GraphBuilder:
    """The graph being built, and the document its definitions and references come from."""

    def __init__(self, corpus) -> None:
        self.corpus = corpus
        self.profile_dirs_done: set[int] = set()
        #: the index of the document being read, in a multi-document file (else None)
        self.document: int | None = None
        self.graph = RefGraph({}, {}, {})  # filled as add_node/add_edge fill a MultiDiGraph

    def at(self, doc) -> None:
        self.document = doc.index if doc is not None and doc.multi else None

    def define(
        self, kind: str, name: str, file: str | None, where: tuple | None, **attrs: Any
    ) -> bool:
        """Define the node ``kind:name`` unless defined already (then False): the first
        definition in path order keeps its location ``where``, (path in ``file``, "key"|"value")."""
        nid = node_id(kind, name)
        node = self.graph.nodes.get(nid)
        if node is not None and not node.get("missing"):
            return False
        data: dict[str, Any] = {"kind": kind, "name": name, "file": file, "missing": False}
        if where and file is not None:
            data.update(path=tuple(where[0]), on=where[1])
        if self.document is not None and file is not None:
            data["document"] = self.document
        data.update(attrs)
        if node is not None:
            node.update(data)
        else:
            self._add(nid, data)
        return True

    def _add(self, nid: str, data: dict) -> None:
        self.graph.nodes[nid] = data
        self.graph._succ[nid] = {}
        self.graph._pred[nid] = {}

    def ref(self, kind: str, name: str) -> str:
        """The node ``kind:name``, made ``missing`` until something defines it."""
        nid = node_id(kind, name)
        if nid not in self.graph.nodes:
            self._add(nid, {"kind": kind, "name": name, "file": None, "missing": True})
        return nid

    def edge(
        self, u: str, v: str, rel: str, file: str | None, path: tuple, on: str = "key", **attrs: Any
    ) -> None:
        """``add_edge``: the key is the number of ``u`` -> ``v`` edges before it."""
        data: dict[str, Any] = {"rel": rel, "file": file, "path": tuple(path), "on": on}
        if self.document is not None and file:
            data["document"] = self.document
        data.update(attrs)
        succ = self.graph._succ
        for n in (u, v):
            if n not in succ:
                self._add(n, {})
        keyed = succ[u].get(v)
        if keyed is None:
            succ[u][v] = self.graph._pred[v][u] = {0: data}
        else:
            keyed[len(keyed)] = data  # edges are never removed while building


@dataclass(slots=True, eq=False)
class RefGraph:
    """A ``MultiDiGraph``'s dicts without networkx: ``nodes`` (node -> attributes), ``_succ``
    and ``_pred`` (node -> other node -> edge key -> attributes)."""

    nodes: dict
    _succ: dict
    _pred: dict

    def networkx(self) -> nx.MultiDiGraph:
        """The ``MultiDiGraph`` holding these very dicts."""
        import networkx as nx  # heavy: only where its API is used

        g: Any = nx.MultiDiGraph()  # (its stubs do not declare _node, _succ, _pred)
        for theirs, ours in zip((g._node, g._succ, g._pred), (self.nodes, self._succ, self._pred)):
            theirs.update(ours)  # (a MultiDiGraph's _adj is its _succ)
        return g


def build_ref_graph(corpus) -> RefGraph:
    """The reference graph of ``corpus``, without ``line``/``col`` (:func:`resolve_positions`):
    documents served from the cache carry no positions."""
    b = GraphBuilder(corpus)
    sources.add_profile(b)
    scenarios = [
        d
        for d in corpus.of_kind("scenario")
        if isinstance(d.data, dict) and isinstance(d.data.get("id"), str)
    ]
    # definitions first: the first in path order keeps the node
    for step in (sources.define_scenario, sources.add_scenario, sources.add_profile_references):
        for doc in scenarios:
            b.at(doc)
            step(b, doc, doc.data["id"])
    for kind, rel in (("fixture", sources.TESTS), ("evidence", "records")):
        for doc in corpus.of_kind(kind):  # a mapping (``classify``); read by its refs
            sources.add_artifact(b, doc, kind, rel)
    b.document = None
    if corpus.of_kind("eio-module"):
        add_eio(b, corpus)
    return b.graph


def add_eio(b: GraphBuilder, corpus) -> None:
    nodes = b.graph.nodes
    defined: set[str] = set()
    added: list[str] = []
    for src, tgt, rel, attrs in refs.graph_edges(refs.index_of(corpus.of_kind("eio-module"))):
        file = attrs.get("file")
        path = tuple(attrs.get("path") or ())
        for nid in (src, tgt):
            if nid not in nodes:
                kind, _, name = nid.partition(":")
                b._add(nid, {"kind": kind, "name": name, "file": None, "missing": False})
                added.append(nid)
        if rel == "defines":  # the definition's location is the node's
            defined.update((src, tgt))
            at = {"document": attrs["document"]} if attrs.get("document") is not None else {}
            for nid, npath in ((src, ()), (tgt, path)):
                if nodes[nid].get("file") is None:
                    nodes[nid].update(file=file, path=npath, on="key", **at)
        extra = {k: v for k, v in attrs.items() if k not in ("file", "path")}
        b.edge(src, tgt, rel, file, path, **extra)
        if rel == "imports":
            defined.add(src)
    for nid in added:  # referenced, defined by no module in the corpus
        if nid not in defined:
            nodes[nid]["missing"] = True


def resolve_positions(graph: nx.MultiDiGraph, corpus) -> nx.MultiDiGraph:
    """Fill in (in place) ``line``/``col`` of the nodes and edges that have a file and path."""
    for data in [*graph.nodes.values(), *(d for *_, d in graph.edges(data=True))]:
        doc = corpus.doc(data.get("file"), data.get("document"))
        path = data.get("path")
        if data.get("line") is None and doc is not None and path is not None:
            where = doc.pos.value if data.get("on") == "value" else doc.pos.key
            data["line"], data["col"] = where(path)
    return graph


def edges_of(graph: RefGraph | nx.MultiDiGraph, node: str, rel: str, *, incoming: bool = False):
    """``(other node, edge attributes)`` of ``node``'s ``rel`` edges, in the order added."""
    adjacent = (graph._pred if incoming else graph._succ).get(node, {})  # type: ignore[union-attr]
    for other, keyed in adjacent.items():
        for data in keyed.values():
            if data.get("rel") == rel:
                yield other, data
