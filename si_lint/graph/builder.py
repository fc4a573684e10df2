"""Building the graph: the :class:`GraphBuilder` (nodes, edges and the document being
read) and :func:`build_graph`, which reads the profile, then the documents, in path order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .eio import add_eio
from .ids import RECORDS, TESTS
from .profile import add_profile
from .scenarios import add_artifact, add_profile_references, add_scenario, define_scenario

if TYPE_CHECKING:  # networkx is imported when a graph is built (start-up stays lean)
    import networkx as nx

Path = tuple


class GraphBuilder:
    """The graph being built, and the document its definitions and references come from."""

    def __init__(self, corpus) -> None:
        self.corpus = corpus
        #: profile directories whose documents' names are in the graph already
        self.profile_dirs_done: set[int] = set()
        #: the index of the document being read, in a multi-document file (else None)
        self.document: int | None = None
        #: every document path a node or edge records, one tuple each: the same paths
        #: recur in every scenario (``("injection", "deviations", 0)``, ``("id",)``), and a
        #: tuple each was 6 MB of the graph's 116 MB at 40,000 files
        self._paths: dict[tuple[tuple, tuple], tuple] = {}
        # the graph as a networkx.MultiDiGraph holds it (node -> attributes, node -> other
        # node -> edge key -> attributes), filled here as ``add_node``/``add_edge`` fill
        # them: through those methods (keyword arguments, views, a cache cleared at every
        # call) the build cost twice as much; networkx itself is imported only by a caller
        # that asks for the MultiDiGraph (:class:`RefGraph`)
        self._node: dict = {}
        self._succ: dict = {}
        self._pred: dict = {}

    def nodes(self) -> dict:
        """Node -> its attributes, so far."""
        return self._node

    def graph(self) -> RefGraph:
        """What has been built so far."""
        return RefGraph(self._node, self._succ, self._pred)

    def path(self, path) -> tuple:
        """``path`` as a tuple, the one the graph holds already when it has it (and not
        one that is only equal: a key ``true`` or ``1.0`` is equal to the index 1, so the
        parts' types are part of the key)."""
        path = tuple(path)
        return self._paths.setdefault((path, tuple(map(type, path))), path)

    def at(self, doc) -> GraphBuilder:
        """Read ``doc`` next: what it defines and references carry its index."""
        self.document = doc.index if doc is not None and doc.multi else None
        return self

    def define(
        self, nid: str, kind: str, name: str, file: str | None, where: tuple | None, **attrs: Any
    ) -> bool:
        """Define ``nid``; the first definition (in path order) keeps its location
        (``where`` = (document path, "key"|"value"); line and column are filled in by
        :func:`resolve_positions`). Returns False when the node was already defined."""
        node = self._node.get(nid)
        if node is not None and not node.get("missing"):
            return False
        path, on = where if where else (None, None)
        data: dict[str, Any] = {"kind": kind, "name": name, "file": file, "missing": False}
        if path is not None:
            data.update(path=self.path(path), on=on)
        if self.document is not None and file is not None:
            data["document"] = self.document
        data.update(attrs)
        if node is not None:
            node.update(data)
        else:
            self._add(nid, data)
        return True

    def _add(self, nid: str, data: dict) -> None:
        """A new node with attributes ``data`` (``add_node``'s three dicts)."""
        self._node[nid] = data
        self._succ[nid] = {}
        self._pred[nid] = {}

    def ref(self, nid: str, kind: str, name: str) -> str:
        """Make sure ``nid`` exists (as a ``missing`` node until something defines it)."""
        if nid not in self._node:
            self._add(nid, {"kind": kind, "name": name, "file": None, "missing": True})
        return nid

    def edge(self, u: str, v: str, rel: str, file: str | None, path: Path, on: str = "key") -> None:
        """An edge ``u`` -> ``v`` (``add_edge``: its key is the number of ``u`` -> ``v``
        edges before it; nodes not in the graph yet are added without attributes)."""
        data: dict[str, Any] = {"rel": rel, "file": file, "path": self.path(path), "on": on}
        if self.document is not None and file:
            data["document"] = self.document
        succ = self._succ
        for n in (u, v):
            if n not in succ:
                self._add(n, {})
        keyed = succ[u].get(v)
        if keyed is None:
            succ[u][v] = self._pred[v][u] = {0: data}
        else:
            keyed[len(keyed)] = data  # edges are never removed while building


class RefGraph:
    """The reference graph as a ``networkx.MultiDiGraph`` holds it, without networkx:
    ``nodes`` (node -> its attributes), ``_succ`` and ``_pred`` (node -> other node -> edge
    key -> attributes; the names networkx gives them). The corpus checks read these dicts
    (``graph.nodes``, :func:`~.queries.edges_of`), so a run that builds the graph does not
    import networkx (80–110 ms, a fifth of a re-check after a scenario changed);
    :meth:`networkx` is the ``MultiDiGraph`` over the same attribute dicts, for ``si-lint
    graph`` and whoever wants networkx's API."""

    __slots__ = ("nodes", "_succ", "_pred")

    def __init__(self, nodes: dict, succ: dict, pred: dict) -> None:
        self.nodes = nodes
        self._succ = succ
        self._pred = pred

    def __contains__(self, node) -> bool:
        return node in self.nodes

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def networkx(self) -> nx.MultiDiGraph:
        """A ``networkx.MultiDiGraph`` of these nodes and edges, in the same order, holding
        the same attribute dicts."""
        import networkx as nx

        g: nx.MultiDiGraph = nx.MultiDiGraph()
        nodes, succ, pred = nx_dicts(g)
        nodes.update(self.nodes)
        succ.update(self._succ)  # (a MultiDiGraph's _adj is its _succ)
        pred.update(self._pred)
        return g


def nx_dicts(g: Any) -> tuple[dict, dict, dict]:
    """A ``MultiDiGraph``'s own dicts: node attributes, successors, predecessors
    (networkx's private ``_node``, ``_succ``, ``_pred``, which its stubs do not declare)."""
    return g._node, g._succ, g._pred


def build_ref_graph(corpus) -> RefGraph:
    """The reference graph of ``corpus`` (deterministic: built in path order).

    Nodes and edges carry ``file`` and the document ``path`` (with ``on``: ``key`` or
    ``value``) of where they are defined or made; ``line``/``col`` are absent until
    :func:`resolve_positions` fills them in (a key of None each would make every edge's
    attribute dict the next size up: 10 MB at 40,000 files). Positions are not needed by
    the checks (a finding is located by the engine from its path) and documents served
    from the cache carry none, so reading them for every edge would re-read every file.
    A corpus with EIO modules has them added through networkx's API (:func:`add_eio`)."""
    b = GraphBuilder(corpus)
    add_profile(b)
    scenarios = [d for d in corpus.of_kind("scenario") if isinstance(d.data, dict)]
    for doc in scenarios:  # definitions first: the first in path order keeps the node
        define_scenario(b, doc)
    for doc in scenarios:
        add_scenario(b, doc)
    for doc in scenarios:
        add_profile_references(b, doc)
    for kind, rel in (("fixture", TESTS), ("evidence", RECORDS)):
        for doc in corpus.of_kind(kind):  # a mapping (``classify``); read by its refs
            add_artifact(b, doc, kind, rel)
    b.document = None
    graph = b.graph()
    if corpus.of_kind("eio-module"):
        g = graph.networkx()
        add_eio(g, corpus)
        graph = RefGraph(*nx_dicts(g))
    return graph


def build_graph(corpus) -> nx.MultiDiGraph:
    """:func:`build_ref_graph` as a ``networkx.MultiDiGraph``."""
    return build_ref_graph(corpus).networkx()
