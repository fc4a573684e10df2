"""SI003 (``schemas/<kind>.schema.json``, one finding per failing node) and SI004 (a document
of no kind that looks like one). The schemas stay strict for editors; where a more specific
rule reports the node (SPEC §8), :func:`owned_elsewhere` drops the SI003 finding."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from si_lint.checks.base import file_check
from si_lint.corpus import classify
from si_lint.findings import Diag
from si_lint.model import is_code_key
from si_lint.schemas import KINDS, validate

#: the top-level keys that make a scenario, fixture or evidence (or EIO input) -- SPEC §1
MARKERS = ("scoring", "events", "expect", "context_artifacts")
#: keys only a scenario has (SPEC §3)
SCENARIO_KEYS = ("injection", "archetype", "symptom")
#: difflib ratio from which a key counts as a misspelt marker: `scorng` 0.92, `evnts` 0.91,
#: `expected` and `scroing` 0.86 are near misses; `expert` 0.83 and `score` 0.67 are not
NEAR_MISS = 0.85
#: the longest marker: difflib's ratio of a key of k characters and a marker of m is at
#: most 2m / (k + m), which for a long key is largest for the longest marker
_LONGEST = max(map(len, MARKERS))

_WHAT = {
    "scoring": "a scenario (`id` + `scoring`)",
    "events": "evidence or a fixture (`events`)",
    "expect": "a fixture (`events` + `expect`)",
    "context_artifacts": "an EIO input (`context_artifacts`)",
}


@file_check("SI003", "SI004")
def schema_check(doc: Any, ctx: Any) -> Iterator[Diag]:
    if doc.kind is None:
        yield from looks_like_a_kind(doc.data)
        return
    if doc.kind not in KINDS:  # a kind without a schema: nothing to check
        return
    for path, message, on in validate(doc.kind, doc.data):
        if owned_elsewhere(doc.kind, doc.data, path):
            continue
        yield Diag(
            "SI003",
            path,
            f"{doc.kind} schema: {message}",
            on=on,
            help=f"`si-lint schema {doc.kind}` prints the schema",
        )


def owned_elsewhere(kind: str, data: Any, path: tuple) -> bool:
    """Whether a more specific rule reports the node at ``path`` (so SI003 does not)."""
    if kind == "scenario":
        # SI104: `synonyms` anywhere; SI204: a free-form code key in `scoring`
        return (bool(path) and path[-1] == "synonyms") or (
            len(path) == 2 and path[0] == "scoring" and is_code_key(path[1])
        )
    if kind == "template":  # SI204: free-form code instead of a decision table
        return len(path) == 1 and is_code_key(path[0])
    if kind == "fixture":  # SI408: the dry run checks the events/actions it evaluates
        if "events" in data:
            return path[:1] == ("events",) and isinstance(data.get("scenario"), str)
        return path[:1] in (("final_answer",), ("reasoning_trace",), ("actions",)) and isinstance(
            data.get("scenario_id"), str
        )
    if kind == "eio-input":  # EIO401: the dry run checks every expectation it compares
        return path[:1] == ("expect",) and isinstance(data.get("module"), str)
    return False


def looks_like_a_kind(data: Any) -> Iterator[Diag]:
    """SI004 for a document of no kind: the first sign that ``data`` meant to be one."""
    if isinstance(data, list):
        for i, item in enumerate(data):
            kind = classify(item)
            if kind in ("scenario", "fixture", "evidence"):
                message = (
                    f"this file is a list; item {i + 1} is a {kind}, but a file holds one document"
                )
                yield Diag("SI004", (i,), message, help=f"move each {kind} into a file of its own")
                return
        return
    if not isinstance(data, dict):
        return
    for key in [k for k in data if isinstance(k, str)]:
        marker = _near_marker(key)
        if marker is not None:
            message = (
                f"`{key}` looks like a misspelt `{marker}`: the file would be "
                f"{_WHAT[marker]} but has no recognisable kind"
            )
            yield Diag("SI004", (key,), message, help=f"rename `{key}` to `{marker}`")
            return
    present = [k for k in SCENARIO_KEYS if k in data]
    if "scoring" in data and "id" not in data:
        message = (
            "file has `scoring` but no `id`: it looks like a scenario, but a scenario needs both"
        )
        yield Diag("SI004", ("scoring",), message, help="add the scenario's `id`")
    elif "id" in data and "scoring" not in data and present:
        message = (
            f"file has `id` and `{present[0]}` but no `scoring`: it looks like a scenario, "
            "but a scenario needs `scoring`"
        )
        help_ = "add the scenario's `scoring` block (a template binding or a composite)"
        yield Diag("SI004", ("id",), message, help=help_)
    elif "expect" in data:
        message = (
            "file has `expect` but no `events`: it looks like a fixture, but a fixture needs "
            "the recorded `events`"
        )
        yield Diag("SI004", ("expect",), message, help="add the recorded `events` list")


def _near_marker(key: str) -> str | None:
    """The kind marker ``key`` is a near miss of (not the marker itself), or None."""
    if key in MARKERS:
        return None
    folded = key.strip().casefold().replace("-", "_")
    if folded in MARKERS:
        return folded
    if 2.0 * _LONGEST / (len(folded) + _LONGEST) < NEAR_MISS:
        return None  # no marker is that near (difflib's real_quick_ratio; a 4 MB key: 1 s)
    best = difflib.get_close_matches(folded, MARKERS, n=1, cutoff=NEAR_MISS)
    return best[0] if best else None
