"""The EIO modules' nodes and edges (``eio-module:…``, ``eio-concept:…``, …), from
:func:`si_lint.eio.refs.graph_edges`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


def add_eio(graph: nx.MultiDiGraph, corpus) -> None:
    """Add the EIO modules' nodes and edges (``si_lint.eio.refs.graph_edges``)."""
    try:
        from ..eio import refs
    except ImportError:  # pragma: no cover - the EIO package is part of si-lint
        return
    modules = corpus.of_kind("eio-module")
    if not modules:
        return
    index = refs.index_of(modules)
    defined: set[str] = set()
    added: list[str] = []
    for src, tgt, rel, attrs in refs.graph_edges(index):
        file = attrs.get("file")
        path = tuple(attrs.get("path") or ())
        for nid in (src, tgt):
            if nid not in graph:
                kind, _, name = nid.partition(":")
                graph.add_node(
                    nid, kind=kind, name=name, file=None, line=None, col=None, missing=False
                )
                added.append(nid)
        if rel == "defines":  # the definition's location is the node's
            defined.update((src, tgt))
            at = {"document": attrs["document"]} if attrs.get("document") is not None else {}
            if graph.nodes[src].get("file") is None:
                graph.nodes[src].update(file=file, path=(), on="key", **at)
            node = graph.nodes[tgt]
            if node.get("file") is None:
                node.update(file=file, path=path, on="key", **at)
        extra = {k: v for k, v in attrs.items() if k not in ("file", "path")}
        graph.add_edge(
            src, tgt, rel=rel, file=file, path=path, on="key", line=None, col=None, **extra
        )
        if rel == "imports":
            defined.add(src)
    for nid in added:  # referenced, defined by no module in the corpus
        if nid not in defined:
            graph.nodes[nid]["missing"] = True
