"""What the profile, the scenarios, the profile documents and the fixtures/evidence add to
the graph (``b``: the :class:`~si_lint.graph.builder.GraphBuilder`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..mapping import MAPPING
from ..model import (
    COMPOSITE,
    TEMPLATE,
    TEMPLATE_KEY,
    deviations,
    find_template,
    is_role_ref,
    scoring_of,
    table_calls,
    template_roles,
)

#: the edge relations the corpus checks read (every relation is listed in docs/graph.md)
DECLARES = "declares"
REFERENCES_DEVIATION = "references-deviation"
TESTS = "tests"


def doc_ref(doc) -> tuple[str, int | None]:
    """``(file, document)`` as nodes and edges record a document (index only when multi)."""
    return (doc.relpath, doc.index if doc.multi else None)


def node_id(kind: str, *parts: str) -> str:
    return f"{kind}:{'/'.join(parts)}"


def add_profile(b) -> None:
    profile = b.corpus.profile
    if profile is None:
        return
    reg_doc = next((d for d in b.corpus.of_kind("registry") if d.profile_asset), None)
    file = reg_doc.relpath if reg_doc is not None else None
    builtin = reg_doc is None
    b.at(reg_doc)
    registry = profile.registry if isinstance(profile.registry, MAPPING) else {}
    prims = registry.get("primitives")
    for i, p in enumerate(prims if isinstance(prims, list) else []):
        if isinstance(p, MAPPING) and isinstance(p.get("name"), str):
            where = (("primitives", i, "name"), "value")
            b.define("primitive", p["name"], file, where, builtin=builtin)
    for dtype in profile.synonyms:
        b.define("synonyms", dtype, file, (("synonyms", dtype), "key"), builtin=builtin)
    docs: dict[str, Any] = {}
    for d in b.corpus.of_kind("template"):
        t = d.data.get("template") if isinstance(d.data, dict) else None
        if d.profile_asset and isinstance(t, MAPPING) and isinstance(t.get("id"), str):
            docs.setdefault(t["id"], d)
    templates = profile.templates if isinstance(profile.templates, MAPPING) else {}
    for tid, data in sorted(templates.items()):
        if not isinstance(data, MAPPING):
            continue
        doc = docs.get(tid)  # the profile asset that defines it; None for the built-in profile
        b.at(doc)
        file = doc.relpath if doc is not None else None
        tnode = node_id("template", tid)
        b.define("template", tid, file, (("template", "id"), "value"), builtin=doc is None)
        roles = data.get("roles")
        for role in roles if isinstance(roles, MAPPING) else ():
            b.define("role", f"{tid}/{role}", file, (("roles", role), "key"), builtin=doc is None)
            b.edge(tnode, node_id("role", tid, str(role)), "declares-role", file, ("roles", role))
        for _, call in table_calls(data.get("table")):
            b.edge(tnode, b.ref("primitive", call.name), "calls", file, call.path)
            for arg, value in call.arguments.items():
                if is_role_ref(value) and len(value) > 1:
                    rnode = b.ref("role", f"{tid}/{value[1:]}")
                    b.edge(tnode, rnode, "uses-role", file, call.path + (arg,), "value")


def add_profile_names(b, pdocs) -> None:
    if id(pdocs) in b.profile_dirs_done:
        return
    b.profile_dirs_done.add(id(pdocs))
    document, b.document = b.document, None  # a Markdown file has no documents
    for kind, names in (
        ("behavior", pdocs.behaviors),
        ("stimulus", pdocs.stimuli),
        ("subcategory", pdocs.subcategories),
        ("archetype", pdocs.archetypes),
    ):
        for name, n in sorted((names or {}).items()):
            meta = {"title": n.title, "parents": ", ".join(n.parents or ()), "category": n.category}
            meta = {k: v for k, v in meta.items() if v}
            b.define(kind, name, n.file, None, **meta, line=n.line, col=n.col)
    b.document = document


def define_scenario(b, doc, sid: str) -> None:
    if not b.define("scenario", sid, doc.relpath, (("id",), "value"), defined_in=[doc.label]):
        b.graph.nodes[node_id("scenario", sid)]["defined_in"].append(doc.label)


def add_scenario(b, doc, sid: str) -> None:
    f = doc.relpath
    snode = node_id("scenario", sid)
    for i, dev in deviations(doc.data):
        if not isinstance(dev.get("id"), str):
            continue
        dnode = node_id("deviation", sid, dev["id"])
        path = ("injection", "deviations", i)
        b.define("deviation", f"{sid}/{dev['id']}", f, (path + ("id",), "value"))
        b.edge(snode, dnode, DECLARES, f, path)
        dtype = dev.get("deviation_type")
        if isinstance(dtype, str):
            tpath = (*path, "deviation_type")
            b.edge(dnode, b.ref("synonyms", dtype), "characterised-by", f, tpath, "value")
    s = scoring_of(doc.data)
    roles: Mapping[str, Any] = {}
    if s.form == TEMPLATE and isinstance(s.template, str):
        template = s.template
        tnode = b.ref("template", template)
        b.edge(snode, tnode, "uses-template", f, ("scoring", TEMPLATE_KEY), "value")
        if b.corpus.profile is not None:
            roles = template_roles(find_template(b.corpus.profile, template))
        for role, value in s.bindings.items():
            bpath = ("scoring", role)
            rnode = b.ref("role", f"{template}/{role}")
            b.edge(snode, rnode, "binds-role", f, bpath)
            spec = roles.get(role)
            rtype = spec.get("type") if isinstance(spec, MAPPING) else None
            if rtype in ("factor", None):
                _factor_ref(b, snode, sid, value, bpath, doc)
    elif s.form == COMPOSITE and isinstance(s.composite, MAPPING):
        base = ("scoring", "composite", "table")
        for _, call in table_calls(s.composite.get("table"), base):
            b.edge(snode, b.ref("primitive", call.name), "calls", f, call.path)
            for arg, value in call.arguments.items():
                _factor_ref(b, snode, sid, value, call.path + (arg,), doc)


def _factor_ref(b, snode: str, sid: str, value: Any, path: tuple, doc) -> None:
    if isinstance(value, MAPPING) and isinstance(value.get("ref"), str):
        dnode = b.ref("deviation", f"{sid}/{value['ref']}")
        b.edge(snode, dnode, REFERENCES_DEVIATION, doc.relpath, path + ("ref",), "value")


def add_profile_references(b, doc, sid: str) -> None:
    data = doc.data
    f = doc.relpath
    snode = node_id("scenario", sid)
    quality = data.get("quality")
    companion = quality.get("companion_scenario") if isinstance(quality, MAPPING) else None
    if isinstance(companion, str):
        path = ("quality", "companion_scenario")
        b.edge(snode, b.ref("scenario", companion), "companion", f, path, "value")
    pdocs = b.corpus.profile_docs_for(doc)
    if pdocs is None:
        return
    add_profile_names(b, pdocs)
    for kind, rel, path, name in profile_refs(data):
        b.edge(snode, b.ref(kind, name), rel, f, path, "value")


#: (node kind, relation, the list's path, the key of its items that names the node)
_PROFILE_LISTS = (
    ("stimulus", "uses-stimulus", ("stimuli",), "library_ref"),
    ("behavior", "asserts-behavior", ("assertions", "must"), "behavior"),
    ("behavior", "asserts-behavior", ("assertions", "must_not"), "behavior"),
)


def profile_refs(data: Mapping) -> Iterator[tuple[str, str, tuple, str]]:
    """(node kind, relation, document path of the value, name) of every reference a
    scenario makes into its profile documents, in document order (SPEC §3.2)."""
    for kind, rel in (("archetype", "instance-of"), ("subcategory", "in-subcategory")):
        if isinstance(data.get(kind), str):
            yield kind, rel, (kind,), data[kind]
    for kind, rel, at, key in _PROFILE_LISTS:
        items: Any = data
        for part in at:
            items = items.get(part) if isinstance(items, MAPPING) else None
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, MAPPING) and isinstance(item.get(key), str):
                yield kind, rel, (*at, i, key), item[key]


def add_artifact(b, doc, kind: str, rel: str) -> None:
    b.at(doc)
    b.define(kind, doc.label, doc.relpath, ((), "key"))
    sid, spath, _named = doc.artifact_refs()
    if sid is not None:
        b.edge(node_id(kind, doc.label), b.ref("scenario", sid), rel, doc.relpath, spath, "value")
