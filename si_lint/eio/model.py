"""Shape-tolerant views of an EIO module: every helper accepts any document shape and
never raises; a malformed section yields nothing (its shape is the schema's, SI003)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..mapping import MAPPING

ID_SECTIONS = ("concepts", "relations", "context_criteria", "profiles")

#: the root of every artifact kind a criterion may evaluate (SPEC §8 EIO112)
ARTIFACT_ROOT = "eio.artifact.context"

SCORING_METHODS = ("checklist", "assessor", "non_scoring")

#: semantic version MAJOR.MINOR.PATCH (semver.org 2.0.0, pre-release and build allowed)
SEMVER_RE = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?",
    re.ASCII,
)


def header(module: Any) -> Mapping[str, Any]:
    if isinstance(module, MAPPING) and isinstance(module.get("eio"), MAPPING):
        return module["eio"]
    return {}


def module_id(module: Any) -> str | None:
    mid = header(module).get("id")
    return mid if isinstance(mid, str) else None


def module_version(module: Any) -> str | None:
    v = header(module).get("version")
    return v if isinstance(v, str) else None


def items(module: Any, section: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
    seq = module.get(section) if isinstance(module, MAPPING) else None
    for i, item in enumerate(seq if isinstance(seq, list) else []):
        if isinstance(item, MAPPING):
            yield i, item


def str_list(value: Any) -> Iterator[tuple[int, str]]:
    if isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, str):
                yield i, v


def imports(module: Any) -> Iterator[tuple[int, str, Any]]:
    for i, imp in items(module, "imports"):
        mid = imp.get("module")
        if isinstance(mid, str):
            yield i, mid, imp.get("version")


def concept_parents(module: Any) -> dict[str, str | None]:
    """concept id -> parent id or None; the first definition of an id wins (EIO101)."""
    out: dict[str, str | None] = {}
    for _, c in items(module, "concepts"):
        cid = c.get("id")
        if isinstance(cid, str) and cid not in out:
            parent = c.get("parent")
            out[cid] = parent if isinstance(parent, str) else None
    return out


def criteria(module: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    return items(module, "context_criteria")


def profiles(module: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    return items(module, "profiles")


def covers(entry: str, kind: str, parents: Mapping[str, str | None]) -> bool:
    """SPEC §6 (pinned): ``evaluates`` entry ``entry`` covers artifacts of ``kind`` iff the
    kind is the entry itself or descends from it (its parents followed until an unknown id
    or a cycle). An unknown kind is covered only where it is named exactly."""
    seen: set[str] = set()
    cur: str | None = kind
    while isinstance(cur, str) and cur not in seen:
        if cur == entry:
            return True
        seen.add(cur)
        cur = parents.get(cur)
    return False


def descendants(entry: str, parents: Mapping[str, str | None]) -> list[str]:
    return [entry] + sorted(k for k in parents if k != entry and covers(entry, k, parents))
