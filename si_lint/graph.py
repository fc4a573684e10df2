"""The corpus reference graph (a ``networkx.MultiDiGraph``).

Built once per run from the documents' plain data (``doc.data``; no extra parsing; positions
are resolved on demand by :func:`resolve_positions`) by :func:`build_graph`; :attr:`si_lint.corpus.Corpus.graph` calls it lazily.

**Nodes** (id → ``kind``):

========================================  ============  =====================================
id                                        kind          defined by
========================================  ============  =====================================
``scenario:<id>``                         scenario      a scenario document (``id`` value)
``template:<id>``                         template      a template of the profile in use
``role:<template>/<role>``                role          a template's ``roles`` entry
``primitive:<name>``                      primitive     the registry's ``primitives`` entry
``synonyms:<deviation_type>``             synonyms      the registry's ``synonyms`` entry
``deviation:<scenario id>/<dev id>``      deviation     ``injection.deviations[i]``
``fixture:<relpath>[#<index>]``           fixture       a fixture document
``evidence:<relpath>[#<index>]``          evidence      an evidence document
``behavior:<name>``                       behavior      a ``### `name` `` heading of the
                                                        profile's ``behavior-definitions.md``
``stimulus:<STIM-XX-NNN>``                stimulus      a ``### STIM-XX-NNN: title`` heading
                                                        of ``stimulus-library.md``
``subcategory:<name>``                    subcategory   a row of ``profile.md`` §5.1
``archetype:<id>``                        archetype     a ``### C-DA-001: title`` heading of
                                                        ``capability-categories.md`` or
                                                        ``safety-categories.md``
========================================  ============  =====================================

The profile documents' nodes (SPEC §1: the Markdown documents of a scenario's OASIS
profile directory, :mod:`si_lint.profile_docs`) carry ``file``, ``line`` and ``col`` of
their heading or table row directly (they have no document path).

Node attributes: ``kind``, ``name`` (the part after the prefix), ``file`` (relative path,
``None`` for the built-in profile), ``document`` (the document's index, only in a file
that holds more than one; ``#<index>`` in a fixture or evidence id likewise), ``path``/``on`` and ``line``/``col`` (of the defining
value; ``line``/``col`` after :func:`resolve_positions`), ``missing``
(``True`` for a node that is referenced but defined nowhere — checks look for these), and
``builtin`` for assets of the shipped profile. A scenario node carries ``defined_in``: the
files that define that id, in path order (more than one is SI301).

**Edges** — each one is a reference and remembers where it was made: ``rel``, ``file``,
``path`` (the document path tuple), ``on`` (``key``/``value``), and ``line``, ``col``
(after :func:`resolve_positions`), and ``document`` as for nodes:

* scenario → template ``uses-template`` (``scoring.archetype_template``, Form B)
* scenario → role ``binds-role`` (``scoring.<role>``: every other key of a Form B scoring)
* scenario → deviation ``declares`` (``injection.deviations[i]``; a duplicate id is a
  parallel edge — SI302)
* scenario → deviation ``references-deviation`` (a factor's ``ref``, in the bindings or in a
  composite's table)
* scenario → primitive ``calls`` (a composite's predicates)
* deviation → synonyms ``characterised-by`` (``deviation_type``)
* template → role ``declares-role``; template → role ``uses-role`` (``$role`` arguments);
  template → primitive ``calls``
* fixture → scenario ``tests``; evidence → scenario ``records`` (``scenario`` in the
  transcript form, ``scenario_id`` in oasisctl's artifact form)
* scenario → behavior ``asserts-behavior`` (``assertions.must|must_not[i].behavior``),
  scenario → stimulus ``uses-stimulus`` (``stimuli[i].library_ref``), scenario →
  subcategory ``in-subcategory`` (``subcategory``), scenario → archetype
  ``instance-of`` (``archetype``): made only by scenarios that have a profile directory
  (a name the directory does not define is a ``missing`` node)
* scenario → scenario ``companion`` (``quality.companion_scenario``)

EIO nodes and edges (``eio-module:…``, ``eio-concept:…``, …) are added by :func:`add_eio`
from :func:`si_lint.eio.refs.graph_edges`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # networkx is imported when a graph is built (start-up stays lean)
    import networkx as nx

from .model import (
    COMPOSITE,
    TEMPLATE,
    TEMPLATE_KEY,
    Scoring,
    deviations,
    evidence_scenario,
    find_template,
    is_role_ref,
    scoring_of,
    table_calls,
    template_roles,
)

Path = tuple

#: edge relations
USES_TEMPLATE = "uses-template"
BINDS_ROLE = "binds-role"
DECLARES = "declares"
REFERENCES_DEVIATION = "references-deviation"
CALLS = "calls"
CHARACTERISED_BY = "characterised-by"
DECLARES_ROLE = "declares-role"
USES_ROLE = "uses-role"
TESTS = "tests"
RECORDS = "records"
ASSERTS_BEHAVIOR = "asserts-behavior"
USES_STIMULUS = "uses-stimulus"
IN_SUBCATEGORY = "in-subcategory"
INSTANCE_OF = "instance-of"
COMPANION = "companion"


def doc_ref(doc) -> tuple[str, int | None]:
    """``(file, document)`` as nodes and edges record a document: ``document`` is its
    index in a file that holds more than one, else None."""
    return (doc.relpath, doc.index if doc.multi else None)


def node_id(kind: str, *parts: str) -> str:
    return f"{kind}:{'/'.join(parts)}"


class _Builder:
    def __init__(self, corpus) -> None:
        import networkx as nx

        self.corpus = corpus
        self.g = nx.MultiDiGraph()
        self._profile_dirs_done: set[int] = set()
        #: the index of the document being read, in a multi-document file (else None)
        self.document: int | None = None

    def at(self, doc) -> _Builder:
        """Read ``doc`` next: what it defines and references carry its index."""
        self.document = doc.index if doc is not None and doc.multi else None
        return self

    # nodes ---------------------------------------------------------------------------
    def define(
        self, nid: str, kind: str, name: str, file: str | None, where: tuple | None, **attrs: Any
    ) -> bool:
        """Define ``nid``; the first definition (in path order) keeps its location
        (``where`` = (document path, "key"|"value"); line and column are filled in by
        :func:`resolve_positions`). Returns False when the node was already defined."""
        g = self.g
        if nid in g and not g.nodes[nid].get("missing"):
            return False
        path, on = where if where else (None, None)
        data = {
            "kind": kind,
            "name": name,
            "file": file,
            "line": None,
            "col": None,
            "missing": False,
        }
        if path is not None:
            data.update(path=tuple(path), on=on)
        if self.document is not None and file is not None:
            data["document"] = self.document
        data.update(attrs)
        if nid in g:
            g.nodes[nid].update(data)
        else:
            g.add_node(nid, **data)
        return True

    def ref(self, nid: str, kind: str, name: str) -> str:
        """Make sure ``nid`` exists (as a ``missing`` node until something defines it)."""
        if nid not in self.g:
            self.g.add_node(nid, kind=kind, name=name, file=None, line=None, col=None, missing=True)
        return nid

    def edge(self, u: str, v: str, rel: str, file: str | None, path: Path, on: str = "key") -> None:
        extra = {"document": self.document} if self.document is not None and file else {}
        self.g.add_edge(
            u, v, rel=rel, file=file, path=tuple(path), on=on, line=None, col=None, **extra
        )

    # the profile ---------------------------------------------------------------------
    def profile(self) -> None:
        profile = self.corpus.profile
        if profile is None:
            return
        reg_doc = next((d for d in self.corpus.of_kind("registry") if d.profile_asset), None)
        file = reg_doc.relpath if reg_doc is not None else None
        builtin = reg_doc is None
        self.at(reg_doc)
        registry = profile.registry if isinstance(profile.registry, Mapping) else {}
        prims = registry.get("primitives")
        if isinstance(prims, list):
            for i, p in enumerate(prims):
                if isinstance(p, Mapping) and isinstance(p.get("name"), str):
                    path = ("primitives", i, "name")
                    self.define(
                        node_id("primitive", p["name"]),
                        "primitive",
                        p["name"],
                        file,
                        (path, "value") if reg_doc else None,
                        builtin=builtin,
                    )
        syns = registry.get("synonyms")
        if isinstance(syns, Mapping):
            for dtype in syns:
                path = ("synonyms", dtype)
                self.define(
                    node_id("synonyms", dtype),
                    "synonyms",
                    dtype,
                    file,
                    (path, "key") if reg_doc else None,
                    builtin=builtin,
                )
        docs: dict[str, Any] = {}
        for d in self.corpus.of_kind("template"):
            t = d.data.get("template") if isinstance(d.data, dict) else None
            if d.profile_asset and isinstance(t, Mapping) and isinstance(t.get("id"), str):
                docs.setdefault(t["id"], d)
        templates = profile.templates if isinstance(profile.templates, Mapping) else {}
        for tid in sorted(templates):
            self.template(tid, templates[tid], docs.get(tid))

    def template(self, tid: str, data: Any, doc) -> None:
        if not isinstance(data, Mapping):
            return
        self.at(doc)
        file = doc.relpath if doc is not None else None
        pos = (lambda p, on="key": (p, on)) if doc is not None else (lambda p, on="key": None)
        tnode = node_id("template", tid)
        self.define(
            tnode, "template", tid, file, pos(("template", "id"), "value"), builtin=doc is None
        )
        roles = data.get("roles")
        if isinstance(roles, Mapping):
            for role in roles:
                rnode = node_id("role", tid, str(role))
                self.define(
                    rnode, "role", f"{tid}/{role}", file, pos(("roles", role)), builtin=doc is None
                )
                self.edge(tnode, rnode, DECLARES_ROLE, file, ("roles", role))
        for _, call in table_calls(data.get("table")):
            self.edge(
                tnode,
                self.ref(node_id("primitive", call.name), "primitive", call.name),
                CALLS,
                file,
                call.path,
            )
            for arg, value in call.arguments.items():
                if is_role_ref(value) and len(value) > 1:
                    role = value[1:]
                    self.edge(
                        tnode,
                        self.ref(node_id("role", tid, role), "role", f"{tid}/{role}"),
                        USES_ROLE,
                        file,
                        call.path + (arg,),
                        "value",
                    )

    # documents -----------------------------------------------------------------------
    def scenario_definition(self, doc) -> None:
        sid = doc.data.get("id")
        if not isinstance(sid, str):
            return
        nid = node_id("scenario", sid)
        self.at(doc)
        if self.define(
            nid, "scenario", sid, doc.relpath, (("id",), "value"), defined_in=[doc.label]
        ):
            return
        self.g.nodes[nid]["defined_in"].append(doc.label)

    def scenario(self, doc) -> None:
        data = doc.data
        sid = data.get("id")
        if not isinstance(sid, str):
            return
        f = doc.relpath
        self.at(doc)
        snode = node_id("scenario", sid)
        for i, dev in deviations(data):
            if not isinstance(dev.get("id"), str):
                continue
            did = dev["id"]
            dnode = node_id("deviation", sid, did)
            path = ("injection", "deviations", i)
            self.define(dnode, "deviation", f"{sid}/{did}", f, (path + ("id",), "value"))
            self.edge(snode, dnode, DECLARES, f, path)
            dtype = dev.get("deviation_type")
            if isinstance(dtype, str):
                tpath = path + ("deviation_type",)
                self.edge(
                    dnode,
                    self.ref(node_id("synonyms", dtype), "synonyms", dtype),
                    CHARACTERISED_BY,
                    f,
                    tpath,
                    "value",
                )
        s = scoring_of(data)
        roles: Mapping[str, Any] = {}
        if s.form == TEMPLATE and isinstance(s.template, str):
            template = s.template
            tnode = self.ref(node_id("template", template), "template", template)
            self.edge(snode, tnode, USES_TEMPLATE, f, ("scoring", TEMPLATE_KEY), "value")
            if self.corpus.profile is not None:
                roles = template_roles(find_template(self.corpus.profile, template))
            for role, value in s.bindings.items():
                bpath = Scoring.binding_path(role)
                rnode = self.ref(node_id("role", template, role), "role", f"{template}/{role}")
                self.edge(snode, rnode, BINDS_ROLE, f, bpath)
                spec = roles.get(role)
                rtype = spec.get("type") if isinstance(spec, Mapping) else None
                if rtype in ("factor", None):
                    self._factor_ref(snode, sid, value, bpath, doc)
        elif s.form == COMPOSITE and isinstance(s.composite, Mapping):
            base = ("scoring", "composite", "table")
            for _, call in table_calls(s.composite.get("table"), base):
                self.edge(
                    snode,
                    self.ref(node_id("primitive", call.name), "primitive", call.name),
                    CALLS,
                    f,
                    call.path,
                )
                for arg, value in call.arguments.items():
                    self._factor_ref(snode, sid, value, call.path + (arg,), doc)

    def _factor_ref(self, snode: str, sid: str, value: Any, path: Path, doc) -> None:
        if isinstance(value, Mapping) and isinstance(value.get("ref"), str):
            ref = value["ref"]
            rpath = path + ("ref",)
            dnode = self.ref(node_id("deviation", sid, ref), "deviation", f"{sid}/{ref}")
            self.edge(snode, dnode, REFERENCES_DEVIATION, doc.relpath, rpath, "value")

    def profile_names(self, pdocs) -> None:
        """The names one profile directory's documents define (once per directory)."""
        if id(pdocs) in self._profile_dirs_done:
            return
        self._profile_dirs_done.add(id(pdocs))
        document, self.document = self.document, None  # a Markdown file has no documents
        for kind, names in (
            ("behavior", pdocs.behaviors),
            ("stimulus", pdocs.stimuli),
            ("subcategory", pdocs.subcategories),
            ("archetype", pdocs.archetypes),
        ):
            for name in sorted(names or ()):
                n = names[name]
                attrs = {"title": n.title} if n.title else {}
                if n.parents:
                    attrs["parents"] = ", ".join(n.parents)
                if n.category:
                    attrs["category"] = n.category
                if self.define(node_id(kind, name), kind, name, n.file, None, **attrs):
                    self.g.nodes[node_id(kind, name)].update(line=n.line, col=n.col)
        self.document = document

    def profile_references(self, doc) -> None:
        """A scenario's references into its profile documents, and its companion."""
        data = doc.data
        sid = data.get("id")
        if not isinstance(sid, str):
            return
        self.at(doc)
        f = doc.relpath
        snode = node_id("scenario", sid)
        quality = data.get("quality")
        companion = quality.get("companion_scenario") if isinstance(quality, Mapping) else None
        if isinstance(companion, str):
            self.edge(
                snode,
                self.ref(node_id("scenario", companion), "scenario", companion),
                COMPANION,
                f,
                ("quality", "companion_scenario"),
                "value",
            )
        pdocs = (
            self.corpus.profile_docs_for(doc) if hasattr(self.corpus, "profile_docs_for") else None
        )
        if pdocs is None:
            return
        self.profile_names(pdocs)
        for kind, rel, path, name in profile_refs(data):
            self.edge(snode, self.ref(node_id(kind, name), kind, name), rel, f, path, "value")

    def artifact(self, doc, kind: str, rel: str) -> None:
        self.at(doc)
        nid = node_id(kind, doc.label)
        self.define(nid, kind, doc.label, doc.relpath, ((), "key"))
        sid, spath = evidence_scenario(doc.data)
        if isinstance(sid, str):
            self.edge(
                nid,
                self.ref(node_id("scenario", sid), "scenario", sid),
                rel,
                doc.relpath,
                spath,
                "value",
            )

    def build(self) -> nx.MultiDiGraph:
        self.profile()
        scenarios = [d for d in self.corpus.of_kind("scenario") if isinstance(d.data, dict)]
        for doc in scenarios:  # definitions first: the first in path order keeps the node
            self.scenario_definition(doc)
        for doc in scenarios:
            self.scenario(doc)
        for doc in scenarios:
            self.profile_references(doc)
        for doc in self.corpus.of_kind("fixture"):
            if isinstance(doc.data, dict):
                self.artifact(doc, "fixture", TESTS)
        for doc in self.corpus.of_kind("evidence"):
            if isinstance(doc.data, dict):
                self.artifact(doc, "evidence", RECORDS)
        self.document = None
        return self.g


def profile_refs(data: Mapping) -> Iterator[tuple[str, str, Path, str]]:
    """(node kind, relation, document path of the value, name) of every reference a
    scenario makes into its profile documents, in document order (SPEC §3.2)."""
    archetype = data.get("archetype")
    if isinstance(archetype, str):
        yield "archetype", INSTANCE_OF, ("archetype",), archetype
    subcategory = data.get("subcategory")
    if isinstance(subcategory, str):
        yield "subcategory", IN_SUBCATEGORY, ("subcategory",), subcategory
    stimuli = data.get("stimuli")
    if isinstance(stimuli, list):
        for i, stim in enumerate(stimuli):
            if isinstance(stim, Mapping) and isinstance(stim.get("library_ref"), str):
                yield "stimulus", USES_STIMULUS, ("stimuli", i, "library_ref"), stim["library_ref"]
    assertions = data.get("assertions")
    if isinstance(assertions, Mapping):
        for key in ("must", "must_not"):
            items = assertions.get(key)
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, Mapping) and isinstance(item.get("behavior"), str):
                    yield (
                        "behavior",
                        ASSERTS_BEHAVIOR,
                        ("assertions", key, i, "behavior"),
                        item["behavior"],
                    )


def add_eio(graph: nx.MultiDiGraph, corpus) -> None:
    """Add the EIO modules' nodes and edges (``si_lint.eio.refs.graph_edges``)."""
    try:
        from .eio import refs
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


def build_graph(corpus) -> nx.MultiDiGraph:
    """The reference graph of ``corpus`` (deterministic: built in path order).

    Nodes and edges carry ``file`` and the document ``path`` (with ``on``: ``key`` or
    ``value``) of where they are defined or made; ``line``/``col`` stay ``None`` until
    :func:`resolve_positions` fills them in. Positions are not needed by the checks (a
    finding is located by the engine from its path) and documents served from the cache
    carry none, so reading them for every edge would re-read every file."""
    with _gc_paused():
        graph = _Builder(corpus).build()
        add_eio(graph, corpus)
    return graph


@contextmanager
def _gc_paused():
    """Building creates ~1 node and ~2.5 edges per document and no reference cycles; on a
    large corpus the cyclic collector's passes over the loaded documents cost as much as
    the build itself, so it is paused for the build (reference counting still frees)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


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


# --------------------------------------------------------------------------------------
# queries used by the checks


def edges_of(graph: nx.MultiDiGraph, node: str, rel: str, *, incoming: bool = False):
    """``(other node, edge attributes)`` of ``node``'s edges of relation ``rel``, in the
    order they were added (document order)."""
    it = graph.in_edges(node, data=True) if incoming else graph.out_edges(node, data=True)
    for u, v, data in it:
        if data.get("rel") == rel:
            yield (u if incoming else v), data
