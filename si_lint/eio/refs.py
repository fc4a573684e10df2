"""EIO modules across a corpus: the module index, import resolution, reference scopes and
the cycle graphs (EIO102, EIO103, EIO112, EIO113, EIO117), and the modules' nodes and edges
of the corpus reference graph (:func:`graph_edges`). Pure functions of plain data.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from si_lint.eio import model

Path = tuple

NODE_PREFIX = {
    "concepts": "eio-concept",
    "relations": "eio-relation",
    "context_criteria": "eio-criterion",
    "profiles": "eio-profile",
}


@dataclass(frozen=True)
class Module:
    relpath: str
    data: Any
    document: int | None = None

    @property
    def id(self) -> str | None:
        return model.module_id(self.data)

    @property
    def version(self) -> str | None:
        return model.module_version(self.data)


@dataclass
class Import:
    index: int
    module: str
    version: Any
    target: Module | None  # None: absent, or only at other versions
    others: tuple[Module, ...] = ()  # modules of that id at other versions


@dataclass
class Index:
    modules: list[Module]
    by_id: dict[str, list[Module]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for m in sorted(self.modules, key=lambda m: m.relpath):
            if m.id is not None:
                self.by_id.setdefault(m.id, []).append(m)

    def imports_of(self, m: Module) -> Iterator[Import]:
        for i, mid, version in model.imports(m.data):
            cands = self.by_id.get(mid, [])
            same = [c for c in cands if version is None or c.version == version]
            others = tuple(c for c in cands if c.version != version) if not same else ()
            yield Import(i, mid, version, same[0] if same else None, others)

    def closure(self, m: Module) -> list[Module]:
        """The modules ``m`` imports, transitively, breadth first."""
        seen = {id(m)}
        queue = [m]
        for cur in queue:  # (grows while it is walked)
            for imp in self.imports_of(cur):
                if imp.target is not None and id(imp.target) not in seen:
                    seen.add(id(imp.target))
                    queue.append(imp.target)
        return queue[1:]

    def import_parents(self, m: Module) -> dict[str, str | None]:
        """Concept parents of the modules ``m`` imports, transitively."""
        out: dict[str, str | None] = {}
        for other in self.closure(m):
            for cid, parent in model.concept_parents(other.data).items():
                out.setdefault(cid, parent)
        return out

    def scope(self, m: Module) -> dict[str, str | None]:
        """What ``m``'s references may name: its concepts and its imports' (its own win)."""
        return {**self.import_parents(m), **model.concept_parents(m.data)}


def index_of(documents: Iterable[Any]) -> Index:
    return Index(
        [
            Module(d.relpath, d.data, d.index if getattr(d, "multi", False) else None)
            for d in documents
        ]
    )


@dataclass(frozen=True)
class Ref:
    path: Path
    target: str
    what: str  # "parent", "domain", ... for messages
    on: str
    namespace: str  # "concept" or "criterion"


def references(data: Any) -> Iterator[Ref]:
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


@dataclass(frozen=True)
class Cycle:
    kind: str  # "concept" or "import"
    nodes: tuple[str, ...]  # in cycle order, starting at the reported edge's source
    #: (relpath, document index or None, document path) of each edge, same order
    edges: tuple[tuple[str, int | None, Path], ...]


def _loc_key(loc: tuple) -> tuple:
    file, document, path = loc
    return (file, document or 0, path)


def _cycles(kind: str, edges: list[tuple[str, str, tuple]]) -> list[Cycle]:
    """The cycles of the graph of ``(source, target, location)`` edges (the first edge
    between two nodes counts), each starting at its smallest location, in location order."""
    if not edges:  # no edge, no cycle: networkx is not imported
        return []
    import networkx as nx  # imported where a graph is built: start-up stays lean

    graph: nx.DiGraph = nx.DiGraph()
    for u, v, loc in edges:
        if not graph.has_edge(u, v):
            graph.add_edge(u, v, loc=loc)
    out = []
    for comp in nx.strongly_connected_components(graph):
        if len(comp) == 1 and not any(graph.has_edge(n, n) for n in comp):
            continue
        sub = graph.subgraph(comp)
        start = min(sub.edges, key=lambda e: _loc_key(sub.edges[e]["loc"]))[0]
        found = nx.find_cycle(sub, source=start)
        locs = [_loc_key(sub.edges[u, v]["loc"]) for u, v in found]
        k = locs.index(min(locs))
        found = found[k:] + found[:k]
        nodes = tuple(u for u, _ in found)
        out.append(Cycle(kind, nodes, tuple(sub.edges[u, v]["loc"] for u, v in found)))
    return sorted(out, key=lambda c: _loc_key(c.edges[0]))


def cycles(index: Index) -> list[Cycle]:
    """The cycles of concept parents, then those of module imports."""
    mods = sorted(index.modules, key=lambda m: m.relpath)
    parents = [
        (c["id"], c["parent"], (m.relpath, m.document, ("concepts", i, "parent")))
        for m in mods
        for i, c in model.items(m.data, "concepts")
        if isinstance(c.get("id"), str) and isinstance(c.get("parent"), str)
    ]
    imports = [
        (m.id, mid, (m.relpath, m.document, ("imports", i)))
        for m in mods
        if m.id is not None
        for i, mid, _ in model.imports(m.data)
        if mid in index.by_id
    ]
    return _cycles("concept", parents) + _cycles("import", imports)


def graph_edges(index: Index) -> Iterator[tuple[str, str, str, dict]]:
    """EIO nodes and edges of the corpus reference graph: ``(source, target, relation,
    attributes)``."""
    for m in index.modules:
        if m.id is None:
            continue
        where: dict[str, Any] = {"file": m.relpath}
        if m.document is not None:
            where["document"] = m.document
        me = f"eio-module:{m.id}@{m.version}"
        for imp in index.imports_of(m):
            t = imp.target
            name, version = (imp.module, imp.version) if t is None else (t.id, t.version)
            path = ("imports", imp.index)
            attrs = {**where, "path": path, "version": imp.version, "resolved": t is not None}
            yield me, f"eio-module:{name}@{version}", "imports", attrs
        for section, prefix in NODE_PREFIX.items():
            for i, item in model.items(m.data, section):
                if isinstance(item.get("id"), str):
                    yield me, f"{prefix}:{item['id']}", "defines", {**where, "path": (section, i)}
        for ref in references(m.data):
            owner = m.data[ref.path[0]][ref.path[1]].get("id")
            if isinstance(owner, str):
                src = f"{NODE_PREFIX[ref.path[0]]}:{owner}"
                prefix = "eio-concept" if ref.namespace == "concept" else "eio-criterion"
                yield src, f"{prefix}:{ref.target}", ref.what, {**where, "path": ref.path}
