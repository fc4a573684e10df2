"""Reading the graph: positions resolved on demand, and the edges of a node by relation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


def resolve_positions(graph: nx.MultiDiGraph, corpus) -> nx.MultiDiGraph:
    """Fill in ``line``/``col`` (1-based) of every node and edge that has a ``file`` and a
    ``path`` in ``corpus`` (in place; returns ``graph``)."""

    def locate(data: dict) -> None:
        if data.get("line") is not None:
            return
        doc = corpus.doc(data.get("file"), data.get("document"))
        path = data.get("path")
        if doc is None or path is None:
            return
        pos = doc.pos
        data["line"], data["col"] = pos.value(path) if data.get("on") == "value" else pos.key(path)

    for _, data in graph.nodes(data=True):
        locate(data)
    for _, _, data in graph.edges(data=True):
        locate(data)
    return graph


def edges_of(graph: nx.MultiDiGraph, node: str, rel: str, *, incoming: bool = False):
    """``(other node, edge attributes)`` of ``node``'s edges of relation ``rel``, in the
    order they were added (document order)."""
    it = graph.in_edges(node, data=True) if incoming else graph.out_edges(node, data=True)
    for u, v, data in it:
        if data.get("rel") == rel:
            yield (u if incoming else v), data
