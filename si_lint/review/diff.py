"""What changed between two profiles: :class:`Change` rows in :data:`KIND_ORDER`, each
group by name. Two profile values are equal when their canonical JSON is."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..checks.primitive_review.profile_review import (
    registered_primitives,
    registry_of,
    table_primitives,
)
from ..mapping import MAPPING
from ..model import params_of
from ..profile import SEED_CONSTANTS, Profile

KIND_ORDER = tuple(
    "registry channel promotion primitive parameter candidate synonyms ratified_budget "
    "constant template".split()
)


@dataclass(frozen=True)
class Change:
    kind: str  # one of KIND_ORDER
    action: str  # added | removed | changed | promoted
    name: str  # the primitive, `primitive.param`, channel, deviation type, scenario id, template id
    before: Any = None
    after: Any = None
    detail: str = ""
    #: the primitives, templates, deviation types, channels and scenarios it touches (reach)
    touches: Mapping[str, tuple] = field(default_factory=dict, compare=False, hash=False)

    def as_dict(self) -> dict:
        keys = ("kind", "action", "name", "before", "after", "detail")
        return {k: plain(getattr(self, k)) for k in keys}


def plain(v: Any) -> Any:
    if isinstance(v, MAPPING):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def canon(v: Any) -> str:
    return json.dumps(plain(v), sort_keys=True, default=str)


def field_changes(a: Mapping[str, Any], b: Mapping[str, Any], skip: tuple = ()) -> list[str]:
    a, b = ({k: v for k, v in m.items() if k not in skip} for m in (a, b))
    return [f"{c.name} {c.action}" for c in _compare("field", a, b, lambda n: {})]


#: what each ratified constant changes (the sentence of SPEC §2.1 / seed it reads), and
#: the primitives whose verdicts it can change (its reach)
CONSTANT_DOC = {
    "cooccurrence_radius": (
        "factor_identified: a synonym counts in the identifier's sentence "
        "and in this many sentences either side (seed §2.2: 0)",
        ("factor_identified",),
    ),
    "synonym_match": (
        "how a synonym phrase matches: token (whole tokens, seed §3.3) or "
        "substring (anywhere in the sentence)",
        ("factor_identified",),
    ),
    "echo_line": (
        "the echo test of seed §2.1: raw (the answer line as recorded) or trimmed "
        "(stripped of surrounding whitespace first)",
        ("named_in_output", "factor_identified"),
    ),
}


def _map(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, MAPPING) else {}


def _compare(
    kind: str,
    a: Mapping,
    b: Mapping,
    touches: Callable[[str], dict],
    *,
    name: Callable[[Any], str] = str,
    show: Callable[[Any], Any] = lambda v: v,
    detail: Callable[[Any, Any], str] = lambda x, y: "",
    added: Callable[[Any], str] = lambda v: "",
) -> list[Change]:
    """A Change per key removed, added or changed; ``show`` is a value as the change holds it."""
    out = []
    for key in sorted(set(a) | set(b), key=str):
        n = name(key)
        x, y = a.get(key), b.get(key)
        if key not in b:
            out.append(Change(kind, "removed", n, show(x), touches=touches(n)))
        elif key not in a:
            out.append(Change(kind, "added", n, None, show(y), added(y), touches(n)))
        elif canon(x) != canon(y):
            out.append(Change(kind, "changed", n, show(x), show(y), detail(x, y), touches(n)))
    return out


def _str_list(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _describe_param(p: Mapping[str, Any]) -> str:
    bits = [str(p.get("type", "?"))]
    if p.get("required", True) is False:
        bits.append("optional")
        if "default" in p:
            bits.append(f"default {json.dumps(plain(p['default']))}")
    return ", ".join(bits + [f"{k} {p[k]}" for k in ("minimum", "maximum") if k in p])


def diff_profiles(base: Profile, head: Profile) -> list[Change]:
    promoted = set(registered_primitives(head)) - set(registered_primitives(base))
    bc, hc = set(base.channels), set(head.channels)
    bk, hk = set(base.candidates), set(head.candidates)
    bs, hs = ({k: _str_list(v) for k, v in p.synonyms.items()} for p in (base, head))
    bb, hb = base.ratified_budgets, head.ratified_budgets
    out = (
        _header_changes(base, head)
        + _set_changes("channel", bc - hc, hc - bc, "channels")
        + _primitive_changes(base, head)
        # a promotion is reported as a primitive, not as a candidate removed
        + _set_changes("candidate", bk - hk - promoted, hk - bk, "primitives")
        + _constant_changes(base, head)
        + _compare("synonyms", bs, hs, lambda n: {"deviation_types": (n,)}, detail=_synonyms_detail)
        + _compare("ratified_budget", bb, hb, lambda n: {"scenarios": (n,)})
        + _template_changes(base, head)
    )
    return sorted(out, key=lambda c: KIND_ORDER.index(c.kind))  # stable: each group by name


def _header_changes(base: Profile, head: Profile) -> list[Change]:
    bh, hh = _map(registry_of(base).get("registry")), _map(registry_of(head).get("registry"))
    return [
        Change("registry", "changed", str(key), bh.get(key), hh.get(key))
        for key in sorted(set(bh) | set(hh), key=str)
        if canon(bh.get(key)) != canon(hh.get(key))
    ]


def _set_changes(kind: str, removed: set[str], added: set[str], touched: str) -> list[Change]:
    return [
        Change(kind, action, n, touches={touched: (n,)})
        for action, names in (("removed", removed), ("added", added))
        for n in sorted(names)
    ]


def _primitive_changes(base: Profile, head: Profile) -> list[Change]:
    bp, hp = registered_primitives(base), registered_primitives(head)
    cands = set(base.candidates)
    out: list[Change] = []
    for name in sorted(set(bp) | set(hp)):
        a, b = bp.get(name), hp.get(name)
        touches = {"primitives": (name,)}
        if a is None:
            assert b is not None  # the name is one side's at least
            params = ", ".join(f"{k}: {_describe_param(v)}" for k, v in params_of(b).items())
            impl = b.get("implementation")
            detail = f"params ({params})" + (f"; implementation {impl}" if impl else "")
            # a candidate of seed §2.4 in the base is promoted
            kind, action = ("promotion", "promoted") if name in cands else ("primitive", "added")
            out.append(Change(kind, action, name, after=plain(b), detail=detail, touches=touches))
        elif b is None:
            out.append(Change("primitive", "removed", name, before=plain(a), touches=touches))
        else:
            out.extend(_changed_primitive(name, a, b))
    return out


def _changed_primitive(name: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Change]:
    touches = {"primitives": (name,)}
    keys = [k for k in sorted(set(a) | set(b)) if k not in ("name", "params")]
    before, after = ({k: plain(m.get(k)) for k in keys} for m in (a, b))
    fields = field_changes(a, b, skip=("name", "params"))
    own = [Change("primitive", "changed", name, before, after, "; ".join(fields), touches)]
    return (own if fields else []) + _compare(
        "parameter",
        params_of(a),
        params_of(b),
        lambda n: touches,
        name=lambda p: f"{name}.{p}",
        show=_describe_param,
        detail=lambda x, y: "; ".join(field_changes(x, y, skip=("name",))),
    )


def _constant_changes(base: Profile, head: Profile) -> list[Change]:
    """The ratified constants (SPEC §2.1), the seed's where absent."""
    blocks = [_map(registry_of(p).get("constants")) for p in (base, head)]
    bk, hk = ({k: b.get(k, seed) for k, seed in SEED_CONSTANTS.items()} for b in blocks)
    return [
        Change("constant", "changed", key, bk[key], hk[key], doc, {"primitives": prims})
        for key in sorted(bk)
        if canon(bk[key]) != canon(hk[key])
        for doc, prims in [CONSTANT_DOC.get(key, ("", ()))]
    ]


def _synonyms_detail(a: list[str], b: list[str]) -> str:
    groups = (("added", [x for x in b if x not in a]), ("removed", [x for x in a if x not in b]))
    bits = [f"{word} " + ", ".join(json.dumps(x) for x in xs) for word, xs in groups if xs]
    return "; ".join(bits) if bits else "reordered"


def _template_changes(base: Profile, head: Profile) -> list[Change]:
    def uses(tdoc: Any) -> str:
        table = tdoc.get("table") if isinstance(tdoc, MAPPING) else None
        used = sorted(table_primitives(table, {n: {} for n in registered_primitives(head)}))
        return ("uses " + ", ".join(used)) if used else ""

    return _compare(
        "template",
        _map(base.templates),
        _map(head.templates),
        lambda n: {"templates": (n,)},
        show=lambda v: None,
        detail=lambda a, b: "; ".join(_template_detail(a, b)),
        added=uses,
    )


def _template_detail(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    bits = [f"header {f}" for f in field_changes(_map(a.get("template")), _map(b.get("template")))]
    bits += [f"role {f}" for f in field_changes(_map(a.get("roles")), _map(b.get("roles")))]
    ta, tb = (t if isinstance(t := m.get("table"), list) else [] for m in (a, b))
    rows = [
        str(i + 1)
        for i in range(max(len(ta), len(tb)))
        if i >= len(ta) or i >= len(tb) or canon(ta[i]) != canon(tb[i])
    ]
    if rows:
        bits.append(
            f"table row(s) {', '.join(rows)} changed"
            + (f" ({len(ta)} → {len(tb)} rows)" if len(ta) != len(tb) else "")
        )
    return bits + field_changes(a, b, skip=("template", "roles", "table"))
