"""References into the OASIS profile documents and across the corpus (SPEC §3.2):
SI611 behaviors, SI612 stimulus library refs, SI614 subcategories, SI619 archetypes,
SI613 companion scenarios, SI615 duplicate intents. A scenario with no profile directory,
or whose profile directory lacks the document a rule needs, gets nothing from that rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import corpus_check
from si_lint.findings import Diag, Related, did_you_mean, nearest_scenario
from si_lint.graph.sources import profile_refs
from si_lint.profile_docs import slug as _slug

from ..mapping import MAPPING


def _scenarios(corpus) -> list:
    return [d for d in corpus.of_kind("scenario") if isinstance(d.data, MAPPING)]


def _refs(corpus, kind: str, attr: str) -> Iterator[tuple[Any, Any, tuple, str, dict]]:
    """(doc, ProfileDocs, path, name, defined names) of every ``kind`` reference made by a
    scenario whose profile directory has the document that defines ``kind`` names."""
    for doc in _scenarios(corpus):
        pdocs = corpus.profile_docs_for(doc)
        names = None if pdocs is None else getattr(pdocs, attr)
        if names is None:
            continue
        for rkind, _rel, path, name in profile_refs(doc.data):
            if rkind == kind:
                yield doc, pdocs, path, name, names


#: code -> (the reference's kind, the ProfileDocs attribute of its names, the profile
#: document that defines them, the help when no name is near)
UNDEFINED = {
    "SI611": (
        "behavior",
        "behaviors",
        "behavior-definitions.md",
        "use a behavior that behavior-definitions.md defines (a ### `name` heading), or "
        "define it there; run `si-lint profile behaviors` to list them",
    ),
    "SI612": (
        "stimulus",
        "stimuli",
        "stimulus-library.md",
        "reference a `### STIM-XX-NNN: title` entry of stimulus-library.md; "
        "run `si-lint profile stimuli` to list them",
    ),
    "SI619": (
        "archetype",
        "archetypes",
        "the profile's category documents (capability-categories.md, safety-categories.md)",
        "use an archetype id that a `### C-XX-NNN: title` or `### S-XX-NNN: title` heading "
        "defines; run `si-lint profile archetypes` to list them",
    ),
}


def _undefined(corpus, code: str) -> Iterator[Diag]:
    kind, attr, where, fallback = UNDEFINED[code]
    for doc, pdocs, path, name, names in _refs(corpus, kind, attr):
        if name not in names:
            in_ = _doc(pdocs, where) if where.endswith(".md") else where
            message = f"{kind} `{name}` is not defined in {in_}"
            yield _not_defined(code, doc, path, message, did_you_mean(name, names) or fallback)


def _not_defined(code: str, doc, path: tuple, message: str, help_: str, **kw) -> Diag:
    return Diag(
        code, path, message, on="value", file=doc.relpath, document=doc.index, help=help_, **kw
    )


@corpus_check("SI611", reads=("document", "profile"))
def undefined_behavior(corpus, ctx) -> Iterator[Diag]:
    return _undefined(corpus, "SI611")


@corpus_check("SI612", reads=("document", "profile"))
def undefined_stimulus(corpus, ctx) -> Iterator[Diag]:
    return _undefined(corpus, "SI612")


@corpus_check("SI619", reads=("document", "profile"))
def undefined_archetype(corpus, ctx) -> Iterator[Diag]:
    return _undefined(corpus, "SI619")


@corpus_check("SI614", reads=("document", "profile"))
def subcategory(corpus, ctx) -> Iterator[Diag]:
    for doc, pdocs, path, name, names in _refs(corpus, "subcategory", "subcategories"):
        where = _doc(pdocs, "profile.md")
        if name not in names:
            message = f"subcategory `{name}` is not defined in {where} §5.1"
            help_ = did_you_mean(name, names) or (
                "use a subcategory of the profile's §5.1 table, or omit `subcategory` when "
                "none applies; run `si-lint profile subcategories` to list them"
            )
            yield _not_defined("SI614", doc, path, message, help_)
            continue
        category = doc.data.get("category")
        n = names[name]
        if isinstance(category, str) and _slug(category) not in n.parents:
            parents = ", ".join(f"`{p}`" for p in n.parents) or "none"
            message = (
                f"subcategory `{name}` belongs to {parents} in {where} §5.1, not to "
                f"the scenario's category `{category}`"
            )
            help_ = "use a subcategory of this category, or omit `subcategory`"
            related = Related(n.file, line=n.line, col=n.col, message=f"`{n.name}` is defined here")
            yield _not_defined("SI614", doc, path, message, help_, related=(related,))


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
        path, related = ("quality", "companion_scenario"), ()
        if not isinstance(name, str):
            message = "`quality.companion_scenario` is not a scenario id"
            help_ = "name the companion scenario's `id`"
        else:
            best, related = nearest_scenario(name, scenarios)
            message = f"companion scenario `{name}` is no scenario in the corpus"
            help_ = (
                f"did you mean `{best}`?"
                if best
                else "name the `id` of an existing scenario (companions usually live in "
                "another file: the capability scenario a safety one pairs with)"
            )
        yield _not_defined("SI613", doc, path, message, help_, related=related)


@corpus_check("SI615", reads=("intent",))
def duplicate_intent(corpus, ctx) -> Iterator[Diag]:
    seen: dict[str, list] = {}
    for doc in _scenarios(corpus):
        intent = doc.data.get("intent")
        if isinstance(intent, str) and intent.strip():
            seen.setdefault(" ".join(intent.split()), []).append(doc)
    for docs in seen.values():
        # (path, document): line order inside a file
        first, *others = sorted(docs, key=lambda d: (d.relpath, d.index or 0))
        related = Related(
            first.relpath, ("intent",), "the same intent is stated here", document=first.index
        )
        for other in others:
            yield Diag(
                "SI615",
                ("intent",),
                f"scenario `{other.data.get('id')}` has the same `intent` as "
                f"`{first.data.get('id')}`",
                file=other.relpath,
                document=other.index,
                related=(related,),
                help="state the trust property this scenario tests in its own words",
            )


def _doc(pdocs, name: str) -> str:
    d = pdocs.directory
    return name if d in ("", ".") else f"{d}/{name}"
