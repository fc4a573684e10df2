"""The corpus reference graph (a ``networkx.MultiDiGraph``; its nodes and edges are
listed in docs/graph.md).

Built once per run from the documents' plain data by :func:`build_ref_graph`, as the
dicts a ``MultiDiGraph`` holds (:class:`RefGraph`: what the corpus checks read, without
importing networkx); :attr:`si_lint.corpus.Corpus.ref_graph` calls it lazily, and
:attr:`si_lint.corpus.Corpus.graph` is the ``networkx.MultiDiGraph`` over it.
``line``/``col`` of nodes and edges are filled in only by :func:`resolve_positions`.

The package: :mod:`.ids` (relations, node ids), :mod:`.builder` (building and reading),
:mod:`.sources` (what the profile and the documents add), :mod:`.dot` (the DOT picture
of ``si-lint graph``) and :mod:`.export` (GraphML and JSON).
"""

from __future__ import annotations

from .builder import RefGraph, build_graph, build_ref_graph, edges_of, resolve_positions
from .ids import DECLARES, REFERENCES_DEVIATION, TESTS, doc_ref, node_id
from .sources import profile_refs

__all__ = [
    "DECLARES",
    "REFERENCES_DEVIATION",
    "TESTS",
    "RefGraph",
    "build_graph",
    "build_ref_graph",
    "doc_ref",
    "edges_of",
    "node_id",
    "profile_refs",
    "resolve_positions",
]
