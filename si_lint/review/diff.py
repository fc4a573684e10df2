"""What changed between two profiles (a pure function of two :class:`Profile` objects).

`diff_profiles(base, head)` returns a list of :class:`Change`, in a fixed order: registry
header, channels, candidates promoted, primitives (and their parameters), candidates,
synonym lists, ratified budgets, templates. Within a group, by name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..profile import Profile

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


def _constants(p: Profile) -> dict:
    """The effective constants (the seed's where absent); raw values when invalid."""
    from ..profile import SEED_CONSTANTS

    block = _reg(p).get("constants")
    out = dict(SEED_CONSTANTS)
    if isinstance(block, Mapping):
        out.update({k: block[k] for k in SEED_CONSTANTS if k in block})
    return out


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
            "before": _plain(self.before),
            "after": _plain(self.after),
            "detail": self.detail,
        }


def _plain(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _canon(v: Any) -> str:
    return json.dumps(_plain(v), sort_keys=True, default=str)


def _str_list(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _params(entry: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    ps = entry.get("params") if isinstance(entry, Mapping) else None
    for p in ps if isinstance(ps, list) else []:
        if isinstance(p, Mapping) and isinstance(p.get("name"), str):
            out.setdefault(p["name"], p)
    return out


def _describe_param(p: Mapping[str, Any]) -> str:
    bits = [str(p.get("type", "?"))]
    if p.get("required", True) is False:
        bits.append("optional")
        if "default" in p:
            bits.append(f"default {json.dumps(_plain(p['default']))}")
    for k in ("minimum", "maximum"):
        if k in p:
            bits.append(f"{k} {p[k]}")
    return ", ".join(bits)


def _field_changes(a: Mapping[str, Any], b: Mapping[str, Any], skip: tuple = ()) -> list[str]:
    out = []
    for key in sorted(set(a) | set(b), key=str):
        if key in skip:
            continue
        if key not in b:
            out.append(f"{key} removed")
        elif key not in a:
            out.append(f"{key} added")
        elif _canon(a[key]) != _canon(b[key]):
            out.append(f"{key} changed")
    return out


def _template_primitives(tdoc: Any, names: set[str]) -> tuple[str, ...]:
    from .implementations import table_primitives

    table = tdoc.get("table") if isinstance(tdoc, Mapping) else None
    return tuple(sorted(table_primitives(table, {n: {} for n in names})))


def _reg(p: Profile) -> Mapping[str, Any]:
    return p.registry if isinstance(p.registry, Mapping) else {}


def _primitives(p: Profile) -> dict[str, Mapping[str, Any]]:
    """Like ``Profile.primitives``, tolerant of any registry shape."""
    out: dict[str, Mapping[str, Any]] = {}
    entries = _reg(p).get("primitives")
    for e in entries if isinstance(entries, list) else []:
        if isinstance(e, Mapping) and isinstance(e.get("name"), str):
            out.setdefault(e["name"], e)
    return out


def _mapping(p: Profile, key: str) -> Mapping[str, Any]:
    v = _reg(p).get(key)
    return v if isinstance(v, Mapping) else {}


def diff_profiles(base: Profile, head: Profile) -> list[Change]:
    out: list[Change] = []

    # -- registry header -----------------------------------------------------------------
    bh = _reg(base).get("registry")
    hh = _reg(head).get("registry")
    bh = bh if isinstance(bh, Mapping) else {}
    hh = hh if isinstance(hh, Mapping) else {}
    for key in sorted(set(bh) | set(hh), key=str):
        if _canon(bh.get(key)) != _canon(hh.get(key)):
            out.append(Change("registry", "changed", str(key), bh.get(key), hh.get(key)))

    # -- channels ------------------------------------------------------------------------
    bc, hc = _str_list(_reg(base).get("channels")), _str_list(_reg(head).get("channels"))
    for c in sorted(set(bc) - set(hc)):
        out.append(Change("channel", "removed", c, touches={"channels": (c,)}))
    for c in sorted(set(hc) - set(bc)):
        out.append(Change("channel", "added", c, touches={"channels": (c,)}))

    # -- primitives ----------------------------------------------------------------------
    bp, hp = _primitives(base), _primitives(head)
    base_cands = set(_str_list(_reg(base).get("candidates")))
    head_cands = set(_str_list(_reg(head).get("candidates")))
    all_names = set(bp) | set(hp)
    for name in sorted(all_names):
        a, b = bp.get(name), hp.get(name)
        touches = {"primitives": (name,)}
        if a is None:
            params = ", ".join(f"{k}: {_describe_param(v)}" for k, v in _params(b).items())
            impl = b.get("implementation")
            detail = f"params ({params})" + (f"; implementation {impl}" if impl else "")
            if name in base_cands:  # a candidate of seed §2.4 promoted into the registry
                out.append(
                    Change(
                        "promotion",
                        "promoted",
                        name,
                        after=_plain(b),
                        detail=detail,
                        touches=touches,
                    )
                )
            else:
                out.append(
                    Change(
                        "primitive", "added", name, after=_plain(b), detail=detail, touches=touches
                    )
                )
            continue
        if b is None:
            out.append(Change("primitive", "removed", name, before=_plain(a), touches=touches))
            continue
        fields = _field_changes(a, b, skip=("name", "params"))
        if fields:
            out.append(
                Change(
                    "primitive",
                    "changed",
                    name,
                    before={
                        k: _plain(a.get(k))
                        for k in sorted(set(a) | set(b))
                        if k not in ("name", "params")
                    },
                    after={
                        k: _plain(b.get(k))
                        for k in sorted(set(a) | set(b))
                        if k not in ("name", "params")
                    },
                    detail="; ".join(fields),
                    touches=touches,
                )
            )
        pa, pb = _params(a), _params(b)
        for pname in sorted(set(pa) | set(pb)):
            full = f"{name}.{pname}"
            if pname not in pb:
                out.append(
                    Change(
                        "parameter",
                        "removed",
                        full,
                        before=_describe_param(pa[pname]),
                        touches=touches,
                    )
                )
            elif pname not in pa:
                out.append(
                    Change(
                        "parameter",
                        "added",
                        full,
                        after=_describe_param(pb[pname]),
                        touches=touches,
                    )
                )
            elif _canon(pa[pname]) != _canon(pb[pname]):
                out.append(
                    Change(
                        "parameter",
                        "changed",
                        full,
                        before=_describe_param(pa[pname]),
                        after=_describe_param(pb[pname]),
                        detail="; ".join(_field_changes(pa[pname], pb[pname], skip=("name",))),
                        touches=touches,
                    )
                )

    # -- candidates (not counting promotions) --------------------------------------------
    for c in sorted(base_cands - head_cands):
        if c in hp and c not in bp:
            continue  # promoted, reported above
        out.append(Change("candidate", "removed", c, touches={"primitives": (c,)}))
    for c in sorted(head_cands - base_cands):
        out.append(Change("candidate", "added", c, touches={"primitives": (c,)}))

    # -- ratified constants (SPEC §2.1; absent = the seed's value) ------------------------
    bk, hk = _constants(base), _constants(head)
    for key in sorted(bk):
        if _canon(bk[key]) != _canon(hk[key]):
            doc, prims = CONSTANT_DOC.get(key, ("", ()))
            out.append(
                Change(
                    "constant",
                    "changed",
                    key,
                    bk[key],
                    hk[key],
                    detail=doc,
                    touches={"primitives": prims},
                )
            )

    # -- synonym lists -------------------------------------------------------------------
    bs, hs = _mapping(base, "synonyms"), _mapping(head, "synonyms")
    for dtype in sorted(set(bs) | set(hs), key=str):
        a, b = _str_list(bs.get(dtype)), _str_list(hs.get(dtype))
        touches = {"deviation_types": (str(dtype),)}
        if dtype not in hs:
            out.append(Change("synonyms", "removed", str(dtype), before=a, touches=touches))
        elif dtype not in bs:
            out.append(Change("synonyms", "added", str(dtype), after=b, touches=touches))
        elif a != b:
            added = [x for x in b if x not in a]
            removed = [x for x in a if x not in b]
            bits = []
            if added:
                bits.append("added " + ", ".join(json.dumps(x) for x in added))
            if removed:
                bits.append("removed " + ", ".join(json.dumps(x) for x in removed))
            if not bits:
                bits.append("reordered")
            out.append(
                Change(
                    "synonyms",
                    "changed",
                    str(dtype),
                    before=a,
                    after=b,
                    detail="; ".join(bits),
                    touches=touches,
                )
            )

    # -- ratified budgets ----------------------------------------------------------------
    bb, hb = _mapping(base, "ratified_budgets"), _mapping(head, "ratified_budgets")
    for sid in sorted(set(bb) | set(hb), key=str):
        touches = {"scenarios": (str(sid),)}
        if sid not in hb:
            out.append(
                Change("ratified_budget", "removed", str(sid), before=bb[sid], touches=touches)
            )
        elif sid not in bb:
            out.append(Change("ratified_budget", "added", str(sid), after=hb[sid], touches=touches))
        elif _canon(bb[sid]) != _canon(hb[sid]):
            out.append(
                Change(
                    "ratified_budget",
                    "changed",
                    str(sid),
                    before=bb[sid],
                    after=hb[sid],
                    touches=touches,
                )
            )

    # -- templates -----------------------------------------------------------------------
    bt = base.templates if isinstance(base.templates, Mapping) else {}
    ht = head.templates if isinstance(head.templates, Mapping) else {}
    for tid in sorted(set(bt) | set(ht), key=str):
        a, b = bt.get(tid), ht.get(tid)
        touches = {"templates": (str(tid),)}
        if b is None:
            out.append(Change("template", "removed", str(tid), touches=touches))
            continue
        if a is None:
            used = _template_primitives(b, set(hp))
            out.append(
                Change(
                    "template",
                    "added",
                    str(tid),
                    detail=("uses " + ", ".join(used)) if used else "",
                    touches=touches,
                )
            )
            continue
        if _canon(a) == _canon(b):
            continue
        bits = []
        ah = a.get("template") if isinstance(a.get("template"), Mapping) else {}
        bh2 = b.get("template") if isinstance(b.get("template"), Mapping) else {}
        for f in _field_changes(ah, bh2):
            bits.append(f"header {f}")
        ar = a.get("roles") if isinstance(a.get("roles"), Mapping) else {}
        br = b.get("roles") if isinstance(b.get("roles"), Mapping) else {}
        for role in sorted(set(ar) | set(br), key=str):
            if role not in br:
                bits.append(f"role {role} removed")
            elif role not in ar:
                bits.append(f"role {role} added")
            elif _canon(ar[role]) != _canon(br[role]):
                bits.append(f"role {role} changed")
        ta = a.get("table") if isinstance(a.get("table"), list) else []
        tb = b.get("table") if isinstance(b.get("table"), list) else []
        rows = [
            str(i + 1)
            for i in range(max(len(ta), len(tb)))
            if i >= len(ta) or i >= len(tb) or _canon(ta[i]) != _canon(tb[i])
        ]
        if rows:
            bits.append(
                f"table row(s) {', '.join(rows)} changed"
                + (f" ({len(ta)} → {len(tb)} rows)" if len(ta) != len(tb) else "")
            )
        for f in _field_changes(a, b, skip=("template", "roles", "table")):
            bits.append(f)
        out.append(Change("template", "changed", str(tid), detail="; ".join(bits), touches=touches))

    order = {k: i for i, k in enumerate(KIND_ORDER)}
    # stable: the groups above are already in name order
    return sorted(out, key=lambda c: order.get(c.kind, len(order)))
