"""How the language server slices the corpus stage of an edit: the slice keys of a
document (what it defines or refers to) and which corpus checks can run over a slice.

A document shares a slice with every document that has one of its keys: a scenario with
its duplicates, fixtures and evidence (``scenario:<id>``), with the scenarios that state
the same intent (``intent:<text>``) and with its companion; the EIO documents with each
other. A document whose change can reach anything (a profile asset, a scenario without
an id) has :data:`ALL_KEY`: the corpus stage then runs over the whole corpus.
"""

from __future__ import annotations

from ..corpus import Document
from ..model import evidence_scenario

#: corpus checks whose findings concern only the profile's own files (its implementations):
#: a slice never changes them, so they are not re-run for one
PROFILE_ONLY_CHECKS = frozenset({"si_lint.checks.implementations.implementations"})

#: corpus checks whose findings for a document depend only on the documents that share a
#: slice key with it (and on the profile): run over the slice of an edit. Every other
#: corpus check (one added later, say) reads the whole corpus and is run over all of it.
SLICEABLE_MODULES = (
    "si_lint.checks.graph_checks.",
    "si_lint.checks.dryrun.",
    "si_lint.checks.eio.",
)
SLICEABLE_CHECKS = frozenset(
    {
        "si_lint.checks.implementations.implementations",
        # per document, against the OASIS profile documents of its directory
        "si_lint.checks.profile_refs.undefined_behavior",
        "si_lint.checks.profile_refs.undefined_stimulus",
        "si_lint.checks.profile_refs.subcategory",
        "si_lint.checks.profile_refs.undefined_archetype",
        # scenarios with the same intent share the key intent:<text>
        "si_lint.checks.profile_refs.duplicate_intent",
    }
)


def sliceable(check) -> bool:
    return check.name in SLICEABLE_CHECKS or check.name.startswith(SLICEABLE_MODULES)


#: slice keys: a document shares a slice with every document that has one of its keys
EIO_KEY = "eio"
ALL_KEY = "*"  # the change can reach anything: run the corpus stage over everything


def doc_keys(doc: Document) -> frozenset[str]:
    """What a document defines or refers to, for slicing the corpus stage."""
    data = doc.data
    kind = doc.kind
    if doc.profile_asset or kind in ("registry", "template"):
        return frozenset({ALL_KEY})
    if kind == "scenario":
        sid = data.get("id") if isinstance(data, dict) else None
        if not isinstance(sid, str):
            return frozenset({ALL_KEY})
        keys = {f"scenario:{sid}"}
        quality = data.get("quality")  # SI613: the companion it names
        companion = quality.get("companion_scenario") if isinstance(quality, dict) else None
        if isinstance(companion, str):
            keys.add(f"scenario:{companion}")
        intent = data.get("intent")  # SI615: the scenarios that state the same intent
        if isinstance(intent, str) and intent.strip():
            keys.add("intent:" + " ".join(intent.split()))
        return frozenset(keys)
    if kind in ("fixture", "evidence"):
        sid, _ = evidence_scenario(data)  # `scenario`, or oasisctl's `scenario_id`
        return frozenset({f"scenario:{sid}"}) if isinstance(sid, str) else frozenset()
    if kind in ("eio-module", "eio-input"):
        return frozenset({EIO_KEY})
    return frozenset()  # an unclassified file: no cross-file check reads it
