"""References into the OASIS profile documents and across the corpus (SPEC §3.2):
SI611 behaviors, SI612 stimulus library refs, SI614 subcategories, SI619 archetypes,
SI613 companion scenarios, SI615 duplicate intents.

These are corpus checks: they depend on documents other than the scenario (the profile
directory's Markdown, read by the read stage into ``corpus.profile_docs``, and the other
scenarios), so they run on the whole corpus every time, and their findings are filtered to
the named files afterwards (pre-commit passing some files gets the same findings for
them). A scenario with no profile directory, or whose profile directory lacks the
document a rule needs, gets nothing from that rule (``--verbose`` says so).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import corpus_check
from si_lint.findings import Diag, Related, did_you_mean, nearest_scenario
from si_lint.graph import profile_refs
from si_lint.profile_docs import slug as _slug

from ..mapping import MAPPING


def _scenarios(corpus) -> list:
    return [d for d in corpus.of_kind("scenario") if isinstance(d.data, MAPPING)]


def _order(doc) -> tuple:
    return (doc.relpath, getattr(doc, "index", 0) or 0)


def _related(n) -> tuple:
    return (Related(n.file, line=n.line, col=n.col, message=f"`{n.name}` is defined here"),)


def _refs(corpus, kind: str, attr: str) -> Iterator[tuple[Any, Any, tuple, str, dict]]:
    """(doc, ProfileDocs, path, name, defined names) of every ``kind`` reference made by a
    scenario whose profile directory has the document that defines ``kind`` names."""
    for doc in _scenarios(corpus):
        pdocs = corpus.profile_docs_for(doc)
        names = getattr(pdocs, attr, None) if pdocs is not None else None
        if names is None:
            continue
        for rkind, _rel, path, name in profile_refs(doc.data):
            if rkind == kind:
                yield doc, pdocs, path, name, names


@corpus_check("SI611", reads=("document", "profile"))
def undefined_behavior(corpus, ctx) -> Iterator[Diag]:
    for doc, pdocs, path, name, names in _refs(corpus, "behavior", "behaviors"):
        if name not in names:
            yield Diag(
                "SI611",
                path,
                f"behavior `{name}` is not defined in {_doc(pdocs, 'behavior-definitions.md')}",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help=did_you_mean(name, names)
                or "use a behavior that behavior-definitions.md defines (a "
                "### `name` heading), or define it there; run `si-lint profile behaviors` "
                "to list them",
            )


@corpus_check("SI612", reads=("document", "profile"))
def undefined_stimulus(corpus, ctx) -> Iterator[Diag]:
    for doc, pdocs, path, name, names in _refs(corpus, "stimulus", "stimuli"):
        if name not in names:
            yield Diag(
                "SI612",
                path,
                f"stimulus `{name}` is not defined in {_doc(pdocs, 'stimulus-library.md')}",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help=did_you_mean(name, names)
                or "reference a `### STIM-XX-NNN: title` entry of stimulus-library.md; "
                "run `si-lint profile stimuli` to list them",
            )


@corpus_check("SI614", reads=("document", "profile"))
def subcategory(corpus, ctx) -> Iterator[Diag]:
    for doc, pdocs, path, name, names in _refs(corpus, "subcategory", "subcategories"):
        where = _doc(pdocs, "profile.md")
        if name not in names:
            yield Diag(
                "SI614",
                path,
                f"subcategory `{name}` is not defined in {where} §5.1",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help=did_you_mean(name, names)
                or "use a subcategory of the profile's §5.1 table, or omit "
                "`subcategory` when none applies; run `si-lint profile subcategories` to "
                "list them",
            )
            continue
        category = doc.data.get("category")
        n = names[name]
        if isinstance(category, str) and _slug(category) not in n.parents:
            parents = ", ".join(f"`{p}`" for p in n.parents) or "none"
            yield Diag(
                "SI614",
                path,
                f"subcategory `{name}` belongs to {parents} in {where} §5.1, not to "
                f"the scenario's category `{category}`",
                on="value",
                file=doc.relpath,
                document=doc.index,
                related=_related(n),
                help="use a subcategory of this category, or omit `subcategory`",
            )


@corpus_check("SI619", reads=("document", "profile"))
def undefined_archetype(corpus, ctx) -> Iterator[Diag]:
    for doc, _pdocs, path, name, names in _refs(corpus, "archetype", "archetypes"):
        if name not in names:
            yield Diag(
                "SI619",
                path,
                f"archetype `{name}` is not defined in the profile's category documents "
                "(capability-categories.md, safety-categories.md)",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help=did_you_mean(name, names)
                or "use an archetype id that a `### C-XX-NNN: title` or "
                "`### S-XX-NNN: title` heading defines; run `si-lint profile archetypes` "
                "to list them",
            )


@corpus_check("SI613", reads=("scenario", "corpus"))
def companion(corpus, ctx) -> Iterator[Diag]:
    """A companion that names no scenario relates to the scenario with the nearest id, the
    one its "did you mean" names (SPEC §9 "Cross-file scope": renaming that scenario
    reports the companions it left dangling). The nearest id depends on every scenario of
    the corpus: it reads the whole corpus (``reads``), so the language server runs it over
    all of it."""
    scenarios = corpus.scenarios
    for doc in _scenarios(corpus):
        quality = doc.data.get("quality")
        name = quality.get("companion_scenario") if isinstance(quality, MAPPING) else None
        if name is None or (isinstance(name, str) and name in scenarios):
            continue
        path = ("quality", "companion_scenario")
        if not isinstance(name, str):
            yield Diag(
                "SI613",
                path,
                "`quality.companion_scenario` is not a scenario id",
                on="value",
                file=doc.relpath,
                document=doc.index,
                help="name the companion scenario's `id`",
            )
            continue
        yield _dangling_companion(doc, path, name, scenarios)


def _dangling_companion(doc, path: tuple, name: str, scenarios) -> Diag:
    best, related = nearest_scenario(name, scenarios)
    return Diag(
        "SI613",
        path,
        f"companion scenario `{name}` is no scenario in the corpus",
        on="value",
        file=doc.relpath,
        document=doc.index,
        help=f"did you mean `{best}`?"
        if best
        else "name the `id` of an existing scenario (companions usually live in another "
        "file: the capability scenario a safety one pairs with)",
        related=related,
    )


def _intent_key(text: str) -> str:
    return " ".join(text.split())


@corpus_check("SI615", reads=("intent",))
def duplicate_intent(corpus, ctx) -> Iterator[Diag]:
    seen: dict[str, list] = {}
    for doc in _scenarios(corpus):
        intent = doc.data.get("intent")
        if isinstance(intent, str) and intent.strip():
            seen.setdefault(_intent_key(intent), []).append(doc)
    for docs in seen.values():
        if len(docs) < 2:
            continue
        docs = sorted(docs, key=_order)  # (path, document): line order inside a file
        first = docs[0]
        for other in docs[1:]:
            yield Diag(
                "SI615",
                ("intent",),
                f"scenario `{other.data.get('id')}` has the same `intent` as "
                f"`{first.data.get('id')}`",
                file=other.relpath,
                document=other.index,
                related=(
                    Related(
                        first.relpath,
                        ("intent",),
                        "the same intent is stated here",
                        document=first.index,
                    ),
                ),
                help="state the trust property this scenario tests in its own words",
            )


def _doc(pdocs, name: str) -> str:
    d = pdocs.directory
    return name if d in ("", ".") else f"{d}/{name}"
