"""The corpus reference graph (its nodes and edges: docs/graph.md): built per run by
:func:`build_ref_graph` as the dicts a ``networkx.MultiDiGraph`` holds (:class:`RefGraph`),
so that the corpus checks read it without importing networkx."""

from __future__ import annotations

from .builder import RefGraph, build_ref_graph, edges_of, resolve_positions
from .sources import DECLARES, REFERENCES_DEVIATION, TESTS, doc_ref, node_id, profile_refs

__all__ = [
    "DECLARES",
    "REFERENCES_DEVIATION",
    "TESTS",
    "RefGraph",
    "build_ref_graph",
    "doc_ref",
    "edges_of",
    "node_id",
    "profile_refs",
    "resolve_positions",
]
