"""One change between two profiles (a :class:`Change`: what ``diff_profiles`` lists) and
how two profile values are compared: as canonical JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..mapping import MAPPING

KIND_ORDER = (
    "registry",
    "channel",
    "promotion",
    "primitive",
    "parameter",
    "candidate",
    "synonyms",
    "ratified_budget",
    "constant",
    "template",
)


@dataclass(frozen=True)
class Change:
    kind: str  # one of KIND_ORDER
    action: str  # added | removed | changed | promoted
    name: str  # the primitive, `primitive.param`, channel, deviation type, scenario id, template id
    before: Any = None
    after: Any = None
    detail: str = ""
    #: what the change touches in the profile: primitive names, template ids, deviation
    #: types, channels and scenario ids (used to compute its reach in a corpus)
    touches: Mapping[str, tuple] = field(default_factory=dict, compare=False, hash=False)

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "action": self.action,
            "name": self.name,
            "before": plain(self.before),
            "after": plain(self.after),
            "detail": self.detail,
        }


def plain(v: Any) -> Any:
    """``v`` as JSON data (mapping keys as strings, tuples as lists)."""
    if isinstance(v, MAPPING):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def canon(v: Any) -> str:
    """A value's canonical JSON text: two values are equal when their texts are."""
    return json.dumps(plain(v), sort_keys=True, default=str)


def field_changes(a: Mapping[str, Any], b: Mapping[str, Any], skip: tuple = ()) -> list[str]:
    """``key added`` / ``key removed`` / ``key changed`` for each key of two mappings."""
    out = []
    for key in sorted(set(a) | set(b), key=str):
        if key in skip:
            continue
        if key not in b:
            out.append(f"{key} removed")
        elif key not in a:
            out.append(f"{key} added")
        elif canon(a[key]) != canon(b[key]):
            out.append(f"{key} changed")
    return out
