"""The corpus reference graph (a ``networkx.MultiDiGraph``; its nodes and edges are
listed in docs/graph.md).

Built once per run from the documents' plain data by :func:`build_ref_graph`, as the
dicts a ``MultiDiGraph`` holds (:class:`RefGraph`: what the corpus checks read, without
importing networkx); :attr:`si_lint.corpus.Corpus.ref_graph` calls it lazily, and
:attr:`si_lint.corpus.Corpus.graph` is the ``networkx.MultiDiGraph`` over it.
``line``/``col`` of nodes and edges are filled in only by :func:`resolve_positions`.
"""

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
