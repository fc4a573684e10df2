"""References into the OASIS profile documents (SI611 behaviors, SI612 stimuli, SI614
subcategories, SI619 archetypes) and across the corpus (SI613 companions, SI615 duplicate
intents), SPEC §3.2."""

from __future__ import annotations

from collections.abc import Iterator

from si_lint.checks.base import corpus_check
from si_lint.findings import Diag, Related, did_you_mean, nearest_scenario
from si_lint.graph.sources import profile_refs
from si_lint.profile_docs import slug as _slug

from ..mapping import MAPPING


def _scenarios(corpus) -> list:
    return [d for d in corpus.of_kind("scenario") if isinstance(d.data, MAPPING)]


#: a reference's kind -> (its code, the ProfileDocs attribute of its names, the profile
#: document that defines them, the help when no name is near)
UNDEFINED = {
    "behavior": (
        "SI611",
        "behaviors",
        "behavior-definitions.md",
        "use a behavior that behavior-definitions.md defines (a ### `name` heading), or "
        "define it there; run `si-lint profile behaviors` to list them",
    ),
    "stimulus": (
        "SI612",
        "stimuli",
        "stimulus-library.md",
        "reference a `### STIM-XX-NNN: title` entry of stimulus-library.md; "
        "run `si-lint profile stimuli` to list them",
    ),
    "archetype": (
        "SI619",
        "archetypes",
        "the profile's category documents (capability-categories.md, safety-categories.md)",
        "use an archetype id that a `### C-XX-NNN: title` or `### S-XX-NNN: title` heading "
        "defines; run `si-lint profile archetypes` to list them",
    ),
    "subcategory": (
        "SI614",
        "subcategories",
        "profile.md",
        "use a subcategory of the profile's §5.1 table, or omit `subcategory` when none "
        "applies; run `si-lint profile subcategories` to list them",
    ),
}


def _not_defined(code: str, doc, path: tuple, message: str, help_: str, **kw) -> Diag:
    return Diag(
        code, path, message, on="value", file=doc.relpath, document=doc.index, help=help_, **kw
    )


@corpus_check("SI611", "SI612", "SI614", "SI619", reads=("document", "profile"))
def undefined_refs(corpus, ctx) -> Iterator[Diag]:
    """Each reference of a scenario into the profile documents; a scenario with no profile
    directory, or whose directory lacks the document that defines a kind, gets nothing."""
    for doc in _scenarios(corpus):
        pdocs = corpus.profile_docs_for(doc)
        for kind, _rel, path, name in profile_refs(doc.data) if pdocs is not None else ():
            code, attr, where, fallback = UNDEFINED[kind]
            names = getattr(pdocs, attr)
            if names is None:
                continue
            in_ = _doc(pdocs, where) if where.endswith(".md") else where
            if name not in names:
                message = f"{kind} `{name}` is not defined in {in_}"
                if kind == "subcategory":
                    message += " §5.1"
                yield _not_defined(code, doc, path, message, did_you_mean(name, names) or fallback)
            elif kind == "subcategory":
                n, category = names[name], doc.data.get("category")
                if not isinstance(category, str) or _slug(category) in n.parents:
                    continue
                parents = ", ".join(f"`{p}`" for p in n.parents) or "none"
                message = (
                    f"subcategory `{name}` belongs to {parents} in {in_} §5.1, not to "
                    f"the scenario's category `{category}`"
                )
                help_ = "use a subcategory of this category, or omit `subcategory`"
                related = Related(
                    n.file, line=n.line, col=n.col, message=f"`{n.name}` is defined here"
                )
                yield _not_defined("SI614", doc, path, message, help_, related=(related,))


@corpus_check("SI613", reads=("scenario", "corpus"))
def companion(corpus, ctx) -> Iterator[Diag]:
    """Reads the whole corpus: a dangling companion relates to the scenario with the nearest
    id (SPEC §9 "Cross-file scope": renaming that scenario reports it)."""
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
