"""The profile's nodes: primitives and synonym lists of the registry, templates with their
roles and calls, and the names the profile directory's Markdown documents define."""

from __future__ import annotations

from typing import Any

from ..mapping import MAPPING
from ..model import is_role_ref, table_calls
from .ids import CALLS, DECLARES_ROLE, USES_ROLE, node_id


def add_profile(b) -> None:
    """The registry's primitives and synonym lists, and every template of the profile
    (``b``: the :class:`~si_lint.graph.builder.GraphBuilder`)."""
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
            where: tuple | None = (("primitives", i, "name"), "value") if reg_doc else None
            b.define("primitive", p["name"], file, where, builtin=builtin)
    syns = registry.get("synonyms")
    for dtype in syns if isinstance(syns, MAPPING) else ():
        where = (("synonyms", dtype), "key") if reg_doc else None
        b.define("synonyms", dtype, file, where, builtin=builtin)
    docs: dict[str, Any] = {}
    for d in b.corpus.of_kind("template"):
        t = d.data.get("template") if isinstance(d.data, dict) else None
        if d.profile_asset and isinstance(t, MAPPING) and isinstance(t.get("id"), str):
            docs.setdefault(t["id"], d)
    templates = profile.templates if isinstance(profile.templates, MAPPING) else {}
    for tid in sorted(templates):
        add_template(b, tid, templates[tid], docs.get(tid))


def add_template(b, tid: str, data: Any, doc) -> None:
    """A template, its roles, the primitives its table calls and the roles it uses
    (``doc``: the profile asset that defines it; None for the built-in profile)."""
    if not isinstance(data, MAPPING):
        return
    b.at(doc)
    file = doc.relpath if doc is not None else None
    tnode = node_id("template", tid)
    where = (("template", "id"), "value") if doc is not None else None
    b.define("template", tid, file, where, builtin=doc is None)
    roles = data.get("roles")
    for role in roles if isinstance(roles, MAPPING) else ():
        where = (("roles", role), "key") if doc is not None else None
        b.define("role", f"{tid}/{role}", file, where, builtin=doc is None)
        b.edge(tnode, node_id("role", tid, str(role)), DECLARES_ROLE, file, ("roles", role))
    for _, call in table_calls(data.get("table")):
        b.edge(tnode, b.ref("primitive", call.name), CALLS, file, call.path)
        for arg, value in call.arguments.items():
            if is_role_ref(value) and len(value) > 1:
                rnode = b.ref("role", f"{tid}/{value[1:]}")
                b.edge(tnode, rnode, USES_ROLE, file, call.path + (arg,), "value")


def add_profile_names(b, pdocs) -> None:
    """The names one profile directory's documents define (once per directory)."""
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
        for name in sorted(names or ()):
            n = names[name]
            attrs = {"title": n.title} if n.title else {}
            if n.parents:
                attrs["parents"] = ", ".join(n.parents)
            if n.category:
                attrs["category"] = n.category
            if b.define(kind, name, n.file, None, **attrs):
                b.graph().nodes[node_id(kind, name)].update(line=n.line, col=n.col)
    b.document = document
