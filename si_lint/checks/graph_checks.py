"""Corpus checks on the reference graph: SI301–SI306 (SPEC §8, §9). They see the whole
corpus under the root; the locate stage keeps the findings of the named files."""

from __future__ import annotations

from si_lint.checks.base import corpus_check
from si_lint.findings import Diag, Related, format_path, nearest_scenario
from si_lint.graph.builder import edges_of
from si_lint.graph.sources import DECLARES, REFERENCES_DEVIATION, TESTS, doc_ref, node_id
from si_lint.model import TEMPLATE, scoring_of

from ..mapping import MAPPING


def _scenario_docs(corpus):
    return [
        d
        for d in corpus.of_kind("scenario")
        if isinstance(d.data, dict) and isinstance(d.data.get("id"), str)
    ]


@corpus_check("SI301", reads=("scenario",))
def duplicate_scenario_ids(corpus, ctx):
    # the corpus's first definition of each id, not the reference graph (every scenario
    # with a string id is a node of it): no graph is built for this check
    for doc in _scenario_docs(corpus):
        sid = doc.data["id"]
        first = corpus.scenarios.get(sid, doc)
        if first is doc:
            continue
        where = first.relpath + (f" (document {first.index})" if first.multi else "")
        related = Related(
            first.relpath, ("id",), "first defined here", on="value", document=first.index
        )
        yield Diag(
            "SI301",
            ("id",),
            f"duplicate scenario id `{sid}`: already defined in {where}",
            on="value",
            file=doc.relpath,
            document=doc.index,
            help="give this scenario an id of its own (ids are unique in the corpus)",
            related=(related,),
        )


@corpus_check("SI302", "SI304", "SI306", reads=("scenario",))
def scenario_edges(corpus, ctx):
    """Each scenario id's node, its edges from every definition (a later duplicate: SI301)."""
    graph = corpus.ref_graph
    docs = _scenario_docs(corpus)
    form_b = {doc_ref(d) for d in docs if scoring_of(d.data).has_table}
    required = ctx.config.require_fixtures
    done: set[str] = set()
    for doc in docs:
        if (snode := node_id("scenario", doc.data["id"])) in done:
            continue
        done.add(snode)
        referenced = {
            (e["file"], e.get("document"), d)
            for d, e in edges_of(graph, snode, REFERENCES_DEVIATION)
        }
        # by (file, document, deviation node): the first binds the factors, a later is SI302
        first: dict[tuple, tuple] = {}
        for dnode, edge in edges_of(graph, snode, DECLARES):
            file, document = edge["file"], edge.get("document")
            key = (file, document, dnode)
            did = graph.nodes[dnode]["name"].rsplit("/", 1)[-1]
            if key in first:
                related = Related(
                    file, first[key], "first declared here", on="value", document=document
                )
                yield Diag(
                    "SI302",
                    edge["path"] + ("id",),
                    f"duplicate deviation id `{did}` in this scenario "
                    f"(the first, {format_path(first[key][:3])}, is the one a factor binds to)",
                    on="value",
                    file=file,
                    document=document,
                    help="give each deviation an id of its own",
                    related=(related,),
                )
                continue
            first[key] = edge["path"] + ("id",)
            if key[:2] in form_b and key not in referenced:
                yield Diag(
                    "SI304",
                    edge["path"],
                    f"deviation `{did}` is referenced by no factor: a contributing factor "
                    "the scoring never asks for",
                    file=file,
                    document=document,
                    help=f"bind a factor to it (`ref: {did}`), or remove the deviation",
                )
        # Form A (SI115) and safety scenarios have no table to exercise
        if doc_ref(doc) in form_b and not any(edges_of(graph, snode, TESTS, incoming=True)):
            yield Diag(
                "SI306",
                ("id",),
                f"scenario `{doc.data['id']}` has no fixtures",
                on="value",
                file=doc.relpath,
                document=doc.index,
                severity="error" if required else None,
                help="add fixtures (evidence with `expect`) that exercise every row of its table",
            )


@corpus_check("SI303", reads=("scenario", "corpus"))
def unknown_scenario(corpus, ctx):
    # read from each artifact's reference, not the reference graph: the server runs this
    # at every edit of a scenario, and building the whole graph was most of that edit's time
    known = corpus.scenarios
    for kind in ("fixture", "evidence"):
        for doc in corpus.of_kind(kind):
            sid, spath, _named = doc.artifact_refs()
            if sid is None or sid in known:
                continue
            best, related = nearest_scenario(sid, known)
            yield Diag(
                "SI303",
                spath,
                f"{kind} names an unknown scenario `{sid}`",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help=f"did you mean `{best}`?"
                if best
                else "name the `id` of a scenario in the corpus",
                related=related,
            )


#: the single-signal diagnosis archetype (C-DA-002…004 are multi-signal, misleading-signal and
#: cascading diagnosis: SPEC §8)
SINGLE_SIGNAL = "C-DA-001"
SINGLE_SIGNAL_HELP = (
    "a single-signal diagnosis scenario injects exactly one deviation; split it into one "
    "scenario per deviation, or use a multi-signal archetype (C-DA-002)"
)


@corpus_check("SI305", reads=("document",))
def single_signal(corpus, ctx):
    for doc in _scenario_docs(corpus):
        data = doc.data
        arch = data.get("archetype")
        if not isinstance(arch, str):
            s = scoring_of(data)
            arch = s.template if s.form == TEMPLATE and isinstance(s.template, str) else None
        if arch != SINGLE_SIGNAL:
            continue
        injection = data.get("injection")
        devs = injection.get("deviations") if isinstance(injection, MAPPING) else None
        if not isinstance(devs, list) or len(devs) == 1:
            continue  # no manifest, or no deviations list (SI616 / SI003)
        if not devs:
            what = "declares no deviation"
        else:
            ids = [d.get("id") for d in devs if isinstance(d, MAPPING)]
            named = ", ".join(f"`{i}`" for i in ids if isinstance(i, str))
            what = f"declares {len(devs)} deviations" + (f" ({named})" if named else "")
        message = f"single-signal archetype {SINGLE_SIGNAL} {what}; it needs exactly one"
        at = {"file": doc.relpath, "document": doc.index}
        yield Diag("SI305", ("injection", "deviations"), message, help=SINGLE_SIGNAL_HELP, **at)
