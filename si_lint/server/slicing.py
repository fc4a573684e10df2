"""How the language server slices the corpus stage of an edit: the slice keys of a
document (a scenario shares a slice with its duplicates, fixtures and evidence, the
scenarios of the same intent and its companion; the EIO documents with each other;
:data:`ALL_KEY`: the change can reach anything) and, from what each corpus check declares
it reads (``corpus_check(reads=...)``), which checks run over a slice (:func:`plan`)."""

from __future__ import annotations

from ..corpus import Document
from ..model import evidence_scenario

#: what a corpus check may read (``corpus_check(reads=...)``, :data:`si_lint.registry.READS`)
#: that a slice holds whole: the profile (every slice has it), the document itself, and the
#: relations :func:`doc_keys` gives keys for (``scenario:<id>``, ``intent:<text>``, ``eio``)
SLICED_READS = frozenset({"profile", "document", "scenario", "intent", "eio"})

#: how :func:`plan` has the server run a corpus check after an edit
PROFILE, SLICE, WHOLE = "profile", "slice", "whole"


def plan(check) -> str:
    """``profile``: its findings depend on the profile alone, so an edit that does not reach
    everything leaves them (a profile asset's edit does: the corpus stage then runs whole);
    ``slice``: run over the slice of the edit; ``whole``: over the whole corpus at every edit
    -- a check that reads anything else, or declares nothing (never silently sliced)."""
    reads = check.reads
    if reads is None or not set(reads) <= SLICED_READS:
        return WHOLE
    return PROFILE if set(reads) == {"profile"} else SLICE


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
