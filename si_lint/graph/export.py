"""``si-lint graph``'s node-link JSON and GraphML (every node and edge, sorted: the same
whatever the file order or hash seed), and the parts of a graph an export narrows to."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import networkx as nx

from ..findings import format_path
from ..fsutil import inside

FORMATS = ("dot", "graphml", "json", "svg")


def path_text(path: Any) -> str:
    return format_path(tuple(path)) if path else ""


def _record(head: dict[str, Any], data: dict) -> dict:
    body = {k: path_text(v) if k == "path" else v for k, v in sorted(data.items()) if v is not None}
    return head | body


def _sorted_edges(graph) -> list[tuple[str, str, dict]]:
    def key(e):
        u, v, d = e
        return (
            u,
            v,
            str(d.get("rel", "")),
            str(d.get("file") or ""),
            d.get("line") or 0,
            d.get("col") or 0,
            path_text(d.get("path")),
        )

    return sorted(((u, v, d) for u, v, d in graph.edges(data=True)), key=key)


def to_json(graph) -> str:
    """Node-link JSON (networkx's ``node_link_data`` layout)."""
    data = {
        "directed": True,
        "multigraph": True,
        "graph": {},
        "nodes": [_record({"id": n}, graph.nodes[n]) for n in sorted(graph.nodes)],
        "edges": [_record({"source": u, "target": v}, d) for u, v, d in _sorted_edges(graph)],
    }
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def _graphml_value(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return path_text(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def to_graphml(graph) -> str:
    def attrs(d: dict) -> dict:
        return {k: _graphml_value(v) for k, v in sorted(d.items()) if v is not None}

    out: nx.MultiDiGraph = nx.MultiDiGraph()
    out.add_nodes_from((nid, attrs(graph.nodes[nid])) for nid in sorted(graph.nodes))
    for i, (u, v, d) in enumerate(_sorted_edges(graph)):
        out.add_edge(u, v, key=f"e{i}", **attrs(d))
    return "\n".join(nx.generate_graphml(out, prettyprint=True)) + "\n"


def focus(graph, node: str):
    return nx.ego_graph(graph, node, radius=1, undirected=True)


def resolve_node(graph, name: str) -> str | None:
    """``name`` as a node id, or the one node whose name (the part after ``kind:``) it is."""
    if name in graph:
        return name
    hits = sorted(n for n, d in graph.nodes(data=True) if d.get("name") == name)
    return hits[0] if len(hits) == 1 else None


def _under(path: str, roots: list[str]) -> bool:
    return any(inside(path, r) for r in roots)


def restrict(graph, corpus, paths: list[str], cwd: Path):
    """The part of the graph made in the named files: nodes defined there, edges made
    there, and the nodes those edges point at."""
    roots = [os.path.abspath(cwd / p) for p in paths]
    if getattr(corpus, "config", None) and _under(os.path.abspath(corpus.config.root), roots):
        return graph  # a named path covers the whole corpus: `graph .` is `graph`

    def named(relpath: str | None) -> bool:
        if not relpath:
            return False
        doc = corpus.doc(relpath)
        return _under(os.path.abspath(doc.abspath if doc is not None else cwd / relpath), roots)

    edges = [(u, v, k) for u, v, k, d in graph.edges(keys=True, data=True) if named(d.get("file"))]
    sub: nx.MultiDiGraph = nx.MultiDiGraph(graph.edge_subgraph(edges))
    sub.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if named(d.get("file")))
    return sub
