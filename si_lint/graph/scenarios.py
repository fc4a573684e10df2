"""What the documents define and reference: scenarios (deviations, template bindings,
composite tables, profile documents, companions) and fixtures/evidence."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..mapping import MAPPING
from ..model import (
    COMPOSITE,
    TEMPLATE,
    TEMPLATE_KEY,
    Scoring,
    deviations,
    find_template,
    scoring_of,
    table_calls,
    template_roles,
)
from .ids import (
    ASSERTS_BEHAVIOR,
    BINDS_ROLE,
    CALLS,
    CHARACTERISED_BY,
    COMPANION,
    DECLARES,
    IN_SUBCATEGORY,
    INSTANCE_OF,
    REFERENCES_DEVIATION,
    USES_STIMULUS,
    USES_TEMPLATE,
    node_id,
)
from .profile import add_profile_names

Path = tuple


def define_scenario(b, doc) -> None:
    sid = doc.data.get("id")
    if not isinstance(sid, str):
        return
    b.at(doc)
    if not b.define("scenario", sid, doc.relpath, (("id",), "value"), defined_in=[doc.label]):
        b.graph().nodes[node_id("scenario", sid)]["defined_in"].append(doc.label)


def add_scenario(b, doc) -> None:
    """A scenario's deviations and the references its scoring makes."""
    sid = doc.data.get("id")
    if not isinstance(sid, str):
        return
    b.at(doc)
    _deviations(b, doc, sid)
    _scoring(b, doc, sid)


def _deviations(b, doc, sid: str) -> None:
    """``injection.deviations``: declared by the scenario, characterised by a synonym list."""
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
            tpath = path + ("deviation_type",)
            b.edge(dnode, b.ref("synonyms", dtype), CHARACTERISED_BY, f, tpath, "value")


def _scoring(b, doc, sid: str) -> None:
    """Form B: the template, the roles bound and the deviations the factors name; a
    composite: the primitives its table calls and the deviations their arguments name."""
    f = doc.relpath
    snode = node_id("scenario", sid)
    s = scoring_of(doc.data)
    roles: Mapping[str, Any] = {}
    if s.form == TEMPLATE and isinstance(s.template, str):
        template = s.template
        tnode = b.ref("template", template)
        b.edge(snode, tnode, USES_TEMPLATE, f, ("scoring", TEMPLATE_KEY), "value")
        if b.corpus.profile is not None:
            roles = template_roles(find_template(b.corpus.profile, template))
        for role, value in s.bindings.items():
            bpath = Scoring.binding_path(role)
            rnode = b.ref("role", f"{template}/{role}")
            b.edge(snode, rnode, BINDS_ROLE, f, bpath)
            spec = roles.get(role)
            rtype = spec.get("type") if isinstance(spec, MAPPING) else None
            if rtype in ("factor", None):
                _factor_ref(b, snode, sid, value, bpath, doc)
    elif s.form == COMPOSITE and isinstance(s.composite, MAPPING):
        base = ("scoring", "composite", "table")
        for _, call in table_calls(s.composite.get("table"), base):
            b.edge(snode, b.ref("primitive", call.name), CALLS, f, call.path)
            for arg, value in call.arguments.items():
                _factor_ref(b, snode, sid, value, call.path + (arg,), doc)


def _factor_ref(b, snode: str, sid: str, value: Any, path: Path, doc) -> None:
    if isinstance(value, MAPPING) and isinstance(value.get("ref"), str):
        ref = value["ref"]
        rpath = path + ("ref",)
        dnode = b.ref("deviation", f"{sid}/{ref}")
        b.edge(snode, dnode, REFERENCES_DEVIATION, doc.relpath, rpath, "value")


def add_profile_references(b, doc) -> None:
    """A scenario's references into its profile documents, and its companion."""
    data = doc.data
    sid = data.get("id")
    if not isinstance(sid, str):
        return
    b.at(doc)
    f = doc.relpath
    snode = node_id("scenario", sid)
    quality = data.get("quality")
    companion = quality.get("companion_scenario") if isinstance(quality, MAPPING) else None
    if isinstance(companion, str):
        path = ("quality", "companion_scenario")
        b.edge(snode, b.ref("scenario", companion), COMPANION, f, path, "value")
    pdocs = b.corpus.profile_docs_for(doc) if hasattr(b.corpus, "profile_docs_for") else None
    if pdocs is None:
        return
    add_profile_names(b, pdocs)
    for kind, rel, path, name in profile_refs(data):
        b.edge(snode, b.ref(kind, name), rel, f, path, "value")


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
            if isinstance(stim, MAPPING) and isinstance(stim.get("library_ref"), str):
                yield "stimulus", USES_STIMULUS, ("stimuli", i, "library_ref"), stim["library_ref"]
    assertions = data.get("assertions")
    if isinstance(assertions, MAPPING):
        for key in ("must", "must_not"):
            items = assertions.get(key)
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, MAPPING) and isinstance(item.get("behavior"), str):
                    yield (
                        "behavior",
                        ASSERTS_BEHAVIOR,
                        ("assertions", key, i, "behavior"),
                        item["behavior"],
                    )


def add_artifact(b, doc, kind: str, rel: str) -> None:
    b.at(doc)
    b.define(kind, doc.label, doc.relpath, ((), "key"))
    sid, spath, _named = doc.artifact_refs()  # (from a cache entry's head: its body not decoded)
    if sid is not None:
        b.edge(node_id(kind, doc.label), b.ref("scenario", sid), rel, doc.relpath, spath, "value")
