"""EIO modules across a corpus: the module index, import resolution, reference scopes and
the cycle graphs (EIO102, EIO103, EIO112, EIO113, EIO117).

Pure functions of plain data: a "module" here is ``(relpath, data)`` — the corpus's
``eio-module`` documents. The lead's reference graph may call :func:`graph_edges` to add the
EIO nodes and edges to the corpus graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from si_lint.eio import model

if TYPE_CHECKING:  # networkx is imported where a graph is built
    import networkx as nx

Path = tuple


@dataclass(frozen=True)
class Module:
    relpath: str
    data: Any
    #: the document's index in a file that holds more than one, else None
    document: int | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.relpath, self.document or 0)

    @property
    def id(self) -> str | None:
        return model.module_id(self.data)

    @property
    def version(self) -> str | None:
        return model.module_version(self.data)


@dataclass
class Import:
    """One import of a module, resolved against the corpus."""

    index: int
    module: str
    version: Any
    target: Module | None  # the module it resolves to (None: absent, or only at other versions)
    others: tuple[Module, ...] = ()  # modules of that id at other versions


@dataclass
class Index:
    """Every EIO module of a corpus, by id (path order)."""

    modules: list[Module]
    by_id: dict[str, list[Module]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for m in sorted(self.modules, key=lambda m: m.relpath):
            if m.id is not None:
                self.by_id.setdefault(m.id, []).append(m)

    # imports ------------------------------------------------------------------------
    def imports_of(self, m: Module) -> list[Import]:
        out = []
        for i, mid, version in model.imports(m.data):
            cands = self.by_id.get(mid, [])
            if version is None:
                target = cands[0] if cands else None
                others: tuple[Module, ...] = ()
            else:
                same = [c for c in cands if c.version == version]
                target = same[0] if same else None
                others = tuple(c for c in cands if c.version != version) if not same else ()
            out.append(Import(i, mid, version, target, others))
        return out

    def closure(self, m: Module) -> tuple[list[Module], bool]:
        """The modules ``m`` imports, transitively, in breadth-first order (``m`` excluded),
        and whether every import along the way resolved."""
        seen = {m.key}
        order: list[Module] = []
        complete = True
        frontier = [m]
        while frontier:
            nxt = []
            for cur in frontier:
                for imp in self.imports_of(cur):
                    if imp.target is None:
                        complete = False
                        continue
                    if imp.target.key not in seen:
                        seen.add(imp.target.key)
                        order.append(imp.target)
                        nxt.append(imp.target)
            frontier = nxt
        return order, complete

    # scopes --------------------------------------------------------------------------
    def scope(self, m: Module) -> Scope:
        mods, complete = self.closure(m)
        parents = model.concept_parents(m.data)
        concepts = set(parents)
        for other in mods:
            for cid, parent in model.concept_parents(other.data).items():
                concepts.add(cid)
                parents.setdefault(cid, parent)
        return Scope(parents=parents, concepts=concepts, complete=complete)

    def import_parents(self, m: Module) -> dict[str, str | None]:
        """Concept parents of the modules ``m`` imports (transitively), for the evaluator."""
        out: dict[str, str | None] = {}
        for other in self.closure(m)[0]:
            for cid, parent in model.concept_parents(other.data).items():
                out.setdefault(cid, parent)
        return out


@dataclass
class Scope:
    """What a module's references may name: its own concepts and those of its imports."""

    parents: dict[str, str | None]
    concepts: set[str]
    complete: bool  # every (transitive) import is in the corpus


def index_of(documents: Iterable[Any]) -> Index:
    """An :class:`Index` over corpus documents (anything with ``relpath`` and ``data``)."""
    return Index(
        [
            Module(d.relpath, d.data, d.index if getattr(d, "multi", False) else None)
            for d in documents
        ]
    )


# ----------------------------------------------------------------------------------------
# references


@dataclass(frozen=True)
class Ref:
    path: Path  # where the reference is written
    target: str
    what: str  # "parent", "domain", ... for messages
    on: str  # "key" (a list item) or "value"
    namespace: str  # "concept" or "criterion"


def references(data: Any) -> Iterator[Ref]:
    """Every reference a module writes, in document order."""
    for i, c in model.items(data, "concepts"):
        if isinstance(c.get("parent"), str):
            yield Ref(("concepts", i, "parent"), c["parent"], "parent", "value", "concept")
    for i, r in model.items(data, "relations"):
        for key in ("domain", "range"):
            for k, t in model.str_list(r.get(key)):
                yield Ref(("relations", i, key, k), t, key, "key", "concept")
    for i, c in model.criteria(data):
        for k, t in model.str_list(c.get("evaluates")):
            yield Ref(("context_criteria", i, "evaluates", k), t, "evaluates", "key", "concept")
        if isinstance(c.get("axis"), str):
            yield Ref(("context_criteria", i, "axis"), c["axis"], "axis", "value", "concept")
    for p, prof in model.profiles(data):
        for key in ("scoring_criteria", "findings_only"):
            for k, t in model.str_list(prof.get(key)):
                yield Ref(("profiles", p, key, k), t, key, "key", "criterion")


def criterion_ids(data: Any) -> set[str]:
    return {c["id"] for _, c in model.criteria(data) if isinstance(c.get("id"), str)}


def artifact_descent(entry: str, parents: Mapping[str, str | None]) -> bool | None:
    """Whether concept ``entry`` is ``eio.artifact.context`` or descends from it: True,
    False, or None when that cannot be told (a parent outside the scope, or a cycle)."""
    cur: str | None = entry
    seen: set[str] = set()
    while cur is not None:
        if cur == model.ARTIFACT_ROOT:
            return True
        if cur in seen or cur not in parents:
            return None
        seen.add(cur)
        cur = parents[cur]
    return False


# ----------------------------------------------------------------------------------------
# cycles (EIO113)


@dataclass(frozen=True)
class Cycle:
    kind: str  # "concept" or "import"
    nodes: tuple[str, ...]  # in cycle order, starting at the reported edge's source
    #: (relpath, document index or None, document path) of each edge, same order
    edges: tuple[tuple[str, int | None, Path], ...]


def _cycles(graph: nx.DiGraph, kind: str) -> list[Cycle]:
    import networkx as nx  # imported where used: start-up stays lean

    out = []
    for comp in nx.strongly_connected_components(graph):
        if len(comp) == 1:
            (n,) = comp
            if not graph.has_edge(n, n):
                continue
        sub = graph.subgraph(comp)
        start = min(sub.edges, key=lambda e: _loc_key(sub.edges[e]["loc"]))[0]
        edges = nx.find_cycle(sub, source=start)
        # rotate so that the cycle starts at its smallest location
        locs = [_loc_key(sub.edges[u, v]["loc"]) for u, v in edges]
        k = locs.index(min(locs))
        edges = edges[k:] + edges[:k]
        out.append(
            Cycle(kind, tuple(u for u, _ in edges), tuple(sub.edges[u, v]["loc"] for u, v in edges))
        )
    return sorted(out, key=lambda c: _loc_key(c.edges[0]))


def _loc_key(loc: tuple) -> tuple:
    file, document, path = loc
    return (file, document or 0, path)


def concept_cycles(index: Index) -> list[Cycle]:
    if not index.modules:  # no module, no cycle: networkx is not imported
        return []
    import networkx as nx

    g: nx.DiGraph = nx.DiGraph()
    for m in sorted(index.modules, key=lambda m: m.relpath):
        for i, c in model.items(m.data, "concepts"):
            cid, parent = c.get("id"), c.get("parent")
            if isinstance(cid, str) and isinstance(parent, str) and not g.has_edge(cid, parent):
                g.add_edge(cid, parent, loc=(m.relpath, m.document, ("concepts", i, "parent")))
    return _cycles(g, "concept")


def import_cycles(index: Index) -> list[Cycle]:
    if not index.modules:  # no module, no cycle: networkx is not imported
        return []
    import networkx as nx

    g: nx.DiGraph = nx.DiGraph()
    for m in sorted(index.modules, key=lambda m: m.relpath):
        if m.id is None:
            continue
        for i, mid, _ in model.imports(m.data):
            if mid in index.by_id and not g.has_edge(m.id, mid):
                g.add_edge(m.id, mid, loc=(m.relpath, m.document, ("imports", i)))
    return _cycles(g, "import")


# ----------------------------------------------------------------------------------------
# the reference graph


def graph_edges(index: Index) -> Iterator[tuple[str, str, str, dict]]:
    """EIO nodes and edges for the corpus reference graph, as ``(source, target, relation,
    attributes)``; nodes are ``eio-module:<id>@<version>``, ``eio-concept:<id>``,
    ``eio-criterion:<id>`` and ``eio-profile:<id>``."""
    for m in index.modules:
        if m.id is None:
            continue
        where = (
            {"file": m.relpath}
            if m.document is None
            else {"file": m.relpath, "document": m.document}
        )
        me = f"eio-module:{m.id}@{m.version}"
        for imp in index.imports_of(m):
            tgt = (
                f"eio-module:{imp.target.id}@{imp.target.version}"
                if imp.target
                else f"eio-module:{imp.module}@{imp.version}"
            )
            yield (
                me,
                tgt,
                "imports",
                {
                    **where,
                    "path": ("imports", imp.index),
                    "version": imp.version,
                    "resolved": imp.target is not None,
                },
            )
        for section, prefix in (
            ("concepts", "eio-concept"),
            ("relations", "eio-relation"),
            ("context_criteria", "eio-criterion"),
            ("profiles", "eio-profile"),
        ):
            for i, item in model.items(m.data, section):
                if isinstance(item.get("id"), str):
                    yield me, f"{prefix}:{item['id']}", "defines", {**where, "path": (section, i)}
        for ref in references(m.data):
            src = _owner(ref.path, m.data)
            if src is None:
                continue
            prefix = "eio-concept" if ref.namespace == "concept" else "eio-criterion"
            yield src, f"{prefix}:{ref.target}", ref.what, {**where, "path": ref.path}


def _owner(path: Path, data: Any) -> str | None:
    section, i = path[0], path[1]
    prefix = {
        "concepts": "eio-concept",
        "relations": "eio-relation",
        "context_criteria": "eio-criterion",
        "profiles": "eio-profile",
    }[section]
    item = data[section][i]
    return f"{prefix}:{item['id']}" if isinstance(item.get("id"), str) else None
