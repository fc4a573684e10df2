"""What a profile change reaches in a corpus: templates → scenarios → fixtures (the rules:
docs/review.md, "Reach")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..evaluator.evidence import named_scenario
from ..mapping import MAPPING
from ..model import TEMPLATE, deviations, primitives_in, scoring_of
from ..profile import Profile
from .diff import Change


@dataclass
class CorpusView:
    """Scenarios by id (the first in path order wins) and fixtures."""

    scenarios: dict[str, tuple[str, Any]] = field(default_factory=dict)  # id -> (relpath, data)
    fixtures: list[tuple[str, Any]] = field(default_factory=list)  # (relpath, data)

    @classmethod
    def from_documents(cls, documents: Iterable[Any]) -> CorpusView:
        view = cls()
        for d in sorted(documents, key=lambda d: (d.relpath, getattr(d, "index", 0))):
            if getattr(d, "profile_asset", False):
                continue
            if d.kind == "scenario" and isinstance(d.data, MAPPING):
                if isinstance(sid := d.data.get("id"), str):
                    view.scenarios.setdefault(sid, (d.relpath, d.data))
            elif d.kind == "fixture" and isinstance(d.data, MAPPING):
                # a document of a multi-document file is `path#index`
                view.fixtures.append((getattr(d, "label", d.relpath), d.data))
        return view


@dataclass
class Reach:
    templates: list[str] = field(default_factory=list)
    scenarios: list[str] = field(default_factory=list)  # scenario ids
    fixtures: list[str] = field(default_factory=list)  # relpaths

    def as_dict(self, view: CorpusView) -> dict:
        return {
            "templates": list(self.templates),
            "scenarios": [{"id": s, "path": view.scenarios[s][0]} for s in self.scenarios],
            "fixtures": list(self.fixtures),
        }


def _template_of(data: Any) -> str | None:
    s = scoring_of(data)
    return s.template if s.form == TEMPLATE and isinstance(s.template, str) else None


def _composite_table(data: Any) -> Any:
    c = scoring_of(data).block.get("composite")
    return c.get("table") if isinstance(c, MAPPING) else None  # _table_uses vets it


def _table_uses(table: Any, names: set[str]) -> bool:
    registered: dict[str, dict] = {n: {} for n in names}
    rows = table if isinstance(table, list) else []
    return any(
        next(primitives_in(row.get("when"), registered), None) is not None
        for row in rows
        if isinstance(row, MAPPING)
    )


def _mentions(value: Any, needle: str, depth: int = 0) -> bool:
    if isinstance(value, str):
        return value == needle
    if isinstance(value, MAPPING):
        value = list(value.values())
    deeper = depth < 100 and isinstance(value, list)  # a string at most 100 levels down
    return deeper and any(_mentions(v, needle, depth + 1) for v in value)


def _reads_synonyms(data: Any, profiles: tuple[Profile, ...]) -> bool:
    """Whether the scenario's table (its composite's, or its template's in either profile)
    uses ``factor_identified``, the only primitive that reads synonyms."""
    tid = _template_of(data)
    templates = [p.templates.get(tid) for p in profiles] if tid else []
    tables = [_composite_table(data)] + [
        t.get("table") for t in templates if isinstance(t, MAPPING)
    ]
    return any(_table_uses(t, {"factor_identified"}) for t in tables)


def reach_of(change: Change, base: Profile, head: Profile, view: CorpusView) -> Reach:
    touches = change.touches or {}
    templates: set[str] = set(touches.get("templates", ()))
    scenarios: set[str] = set(touches.get("scenarios", ())) & set(view.scenarios)
    prims = set(touches.get("primitives", ()))
    chans = touches.get("channels", ())
    dtypes = touches.get("deviation_types", ())  # a tuple: `in` hashes nothing
    profiles = (base, head)
    for p in profiles:
        for tid, tdoc in p.templates.items():
            table = tdoc.get("table") if isinstance(tdoc, MAPPING) else None
            if (prims and _table_uses(table, prims)) or any(
                _mentions(tdoc.get("roles"), c) or _mentions(table, c) for c in chans
            ):
                templates.add(tid)
    for sid, (_path, data) in view.scenarios.items():
        if (
            (prims and _table_uses(_composite_table(data), prims))
            or any(_mentions(scoring_of(data).block, c) for c in chans)
            or (
                any(d.get("deviation_type") in dtypes for _, d in deviations(data))
                and _reads_synonyms(data, profiles)
            )
        ):
            scenarios.add(sid)
    scenarios.update(
        sid for sid, (_, data) in view.scenarios.items() if _template_of(data) in templates
    )
    fixtures = {p for p, data in view.fixtures if named_scenario(data) in scenarios}
    return Reach(sorted(templates), sorted(scenarios), sorted(fixtures))
