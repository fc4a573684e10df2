"""What changed between two profiles (a pure function of two :class:`Profile` objects).

`diff_profiles(base, head)` returns a list of :class:`Change`, in a fixed order
(:data:`KIND_ORDER`): registry header, channels, candidates promoted, primitives, their
parameters, candidates, synonym lists, ratified budgets, matching constants, templates.
Within a group, by name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..checks.primitive_review.profile_review import (
    registered_primitives,
    registry_of,
    table_primitives,
)
from ..mapping import MAPPING
from ..model import params_of
from ..profile import SEED_CONSTANTS, Profile
from .change import KIND_ORDER, Change, canon, field_changes, plain

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
    block = registry_of(p).get("constants")
    out = dict(SEED_CONSTANTS)
    if isinstance(block, MAPPING):
        out.update({k: block[k] for k in SEED_CONSTANTS if k in block})
    return out


def _str_list(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _describe_param(p: Mapping[str, Any]) -> str:
    bits = [str(p.get("type", "?"))]
    if p.get("required", True) is False:
        bits.append("optional")
        if "default" in p:
            bits.append(f"default {json.dumps(plain(p['default']))}")
    for k in ("minimum", "maximum"):
        if k in p:
            bits.append(f"{k} {p[k]}")
    return ", ".join(bits)


def _template_primitives(tdoc: Any, names: set[str]) -> tuple[str, ...]:
    table = tdoc.get("table") if isinstance(tdoc, MAPPING) else None
    return tuple(sorted(table_primitives(table, {n: {} for n in names})))


def _mapping(p: Profile, key: str) -> Mapping[str, Any]:
    v = registry_of(p).get(key)
    return v if isinstance(v, MAPPING) else {}


def diff_profiles(base: Profile, head: Profile) -> list[Change]:
    out = (
        _header_changes(base, head)
        + _channel_changes(base, head)
        + _primitive_changes(base, head)
        + _candidate_changes(base, head)
        + _constant_changes(base, head)
        + _synonym_changes(base, head)
        + _budget_changes(base, head)
        + _template_changes(base, head)
    )
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    # stable: each group is already in name order
    return sorted(out, key=lambda c: order.get(c.kind, len(order)))


def _header_changes(base: Profile, head: Profile) -> list[Change]:
    """The registry header (``registry: {profile, version, ...}``), key by key."""
    bh = registry_of(base).get("registry")
    hh = registry_of(head).get("registry")
    bh = bh if isinstance(bh, MAPPING) else {}
    hh = hh if isinstance(hh, MAPPING) else {}
    return [
        Change("registry", "changed", str(key), bh.get(key), hh.get(key))
        for key in sorted(set(bh) | set(hh), key=str)
        if canon(bh.get(key)) != canon(hh.get(key))
    ]


def _channel_changes(base: Profile, head: Profile) -> list[Change]:
    bc = _str_list(registry_of(base).get("channels"))
    hc = _str_list(registry_of(head).get("channels"))
    removed = [
        Change("channel", "removed", c, touches={"channels": (c,)})
        for c in sorted(set(bc) - set(hc))
    ]
    added = [
        Change("channel", "added", c, touches={"channels": (c,)}) for c in sorted(set(hc) - set(bc))
    ]
    return removed + added


def _candidates(p: Profile) -> set[str]:
    return set(_str_list(registry_of(p).get("candidates")))


def _primitive_changes(base: Profile, head: Profile) -> list[Change]:
    """Primitives added (or promoted from the base's candidates), removed and changed, each
    followed by the changes of its parameters."""
    bp, hp = registered_primitives(base), registered_primitives(head)
    base_cands = _candidates(base)
    out: list[Change] = []
    for name in sorted(set(bp) | set(hp)):
        a, b = bp.get(name), hp.get(name)
        if a is None:
            assert b is not None  # the name is one side's at least
            out.append(_added_primitive(name, b, promoted=name in base_cands))
        elif b is None:
            out.append(
                Change(
                    "primitive", "removed", name, before=plain(a), touches={"primitives": (name,)}
                )
            )
        else:
            out.extend(_changed_primitive(name, a, b))
    return out


def _added_primitive(name: str, b: Mapping[str, Any], promoted: bool) -> Change:
    """A new primitive; ``promoted`` when it was a candidate of seed §2.4 in the base."""
    params = ", ".join(f"{k}: {_describe_param(v)}" for k, v in params_of(b).items())
    impl = b.get("implementation")
    detail = f"params ({params})" + (f"; implementation {impl}" if impl else "")
    kind, action = ("promotion", "promoted") if promoted else ("primitive", "added")
    return Change(
        kind, action, name, after=plain(b), detail=detail, touches={"primitives": (name,)}
    )


def _changed_primitive(name: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Change]:
    """A primitive in both profiles: its own fields, then its parameters."""
    touches = {"primitives": (name,)}
    out: list[Change] = []
    fields = field_changes(a, b, skip=("name", "params"))
    if fields:
        keys = [k for k in sorted(set(a) | set(b)) if k not in ("name", "params")]
        out.append(
            Change(
                "primitive",
                "changed",
                name,
                before={k: plain(a.get(k)) for k in keys},
                after={k: plain(b.get(k)) for k in keys},
                detail="; ".join(fields),
                touches=touches,
            )
        )
    pa, pb = params_of(a), params_of(b)
    for pname in sorted(set(pa) | set(pb)):
        full = f"{name}.{pname}"
        if pname not in pb:
            before = _describe_param(pa[pname])
            out.append(Change("parameter", "removed", full, before=before, touches=touches))
        elif pname not in pa:
            after = _describe_param(pb[pname])
            out.append(Change("parameter", "added", full, after=after, touches=touches))
        elif canon(pa[pname]) != canon(pb[pname]):
            out.append(
                Change(
                    "parameter",
                    "changed",
                    full,
                    before=_describe_param(pa[pname]),
                    after=_describe_param(pb[pname]),
                    detail="; ".join(field_changes(pa[pname], pb[pname], skip=("name",))),
                    touches=touches,
                )
            )
    return out


def _candidate_changes(base: Profile, head: Profile) -> list[Change]:
    """Candidates added and removed, not counting promotions (reported as primitives)."""
    bp, hp = registered_primitives(base), registered_primitives(head)
    base_cands, head_cands = _candidates(base), _candidates(head)
    out = [
        Change("candidate", "removed", c, touches={"primitives": (c,)})
        for c in sorted(base_cands - head_cands)
        if not (c in hp and c not in bp)
    ]
    out += [
        Change("candidate", "added", c, touches={"primitives": (c,)})
        for c in sorted(head_cands - base_cands)
    ]
    return out


def _constant_changes(base: Profile, head: Profile) -> list[Change]:
    """The ratified constants (SPEC §2.1; absent = the seed's value)."""
    bk, hk = _constants(base), _constants(head)
    out = []
    for key in sorted(bk):
        if canon(bk[key]) != canon(hk[key]):
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
    return out


def _synonym_changes(base: Profile, head: Profile) -> list[Change]:
    bs, hs = _mapping(base, "synonyms"), _mapping(head, "synonyms")
    out = []
    for dtype in sorted(set(bs) | set(hs), key=str):
        a, b = _str_list(bs.get(dtype)), _str_list(hs.get(dtype))
        touches = {"deviation_types": (str(dtype),)}
        if dtype not in hs:
            out.append(Change("synonyms", "removed", str(dtype), before=a, touches=touches))
        elif dtype not in bs:
            out.append(Change("synonyms", "added", str(dtype), after=b, touches=touches))
        elif a != b:
            detail = _synonyms_detail(a, b)
            out.append(
                Change(
                    "synonyms",
                    "changed",
                    str(dtype),
                    before=a,
                    after=b,
                    detail=detail,
                    touches=touches,
                )
            )
    return out


def _synonyms_detail(a: list[str], b: list[str]) -> str:
    """``added "x"; removed "y"`` (or ``reordered``) between two synonym lists."""
    added = [x for x in b if x not in a]
    removed = [x for x in a if x not in b]
    bits = []
    if added:
        bits.append("added " + ", ".join(json.dumps(x) for x in added))
    if removed:
        bits.append("removed " + ", ".join(json.dumps(x) for x in removed))
    return "; ".join(bits) if bits else "reordered"


def _budget_changes(base: Profile, head: Profile) -> list[Change]:
    bb, hb = _mapping(base, "ratified_budgets"), _mapping(head, "ratified_budgets")
    out = []
    for sid in sorted(set(bb) | set(hb), key=str):
        touches = {"scenarios": (str(sid),)}
        if sid not in hb:
            out.append(
                Change("ratified_budget", "removed", str(sid), before=bb[sid], touches=touches)
            )
        elif sid not in bb:
            out.append(Change("ratified_budget", "added", str(sid), after=hb[sid], touches=touches))
        elif canon(bb[sid]) != canon(hb[sid]):
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
    return out


def _template_changes(base: Profile, head: Profile) -> list[Change]:
    bt = base.templates if isinstance(base.templates, MAPPING) else {}
    ht = head.templates if isinstance(head.templates, MAPPING) else {}
    head_primitives = set(registered_primitives(head))
    out = []
    for tid in sorted(set(bt) | set(ht), key=str):
        a, b = bt.get(tid), ht.get(tid)
        touches = {"templates": (str(tid),)}
        if b is None:
            out.append(Change("template", "removed", str(tid), touches=touches))
        elif a is None:
            used = _template_primitives(b, head_primitives)
            detail = ("uses " + ", ".join(used)) if used else ""
            out.append(Change("template", "added", str(tid), detail=detail, touches=touches))
        elif canon(a) != canon(b):
            detail = "; ".join(_template_detail(a, b))
            out.append(Change("template", "changed", str(tid), detail=detail, touches=touches))
    return out


def _mapping_at(doc: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    v = doc.get(key)
    return v if isinstance(v, MAPPING) else {}


def _list_at(doc: Mapping[str, Any], key: str) -> list:
    v = doc.get(key)
    return v if isinstance(v, list) else []


def _template_detail(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """What changed in a template: its header, roles, table rows and other keys."""
    header = field_changes(_mapping_at(a, "template"), _mapping_at(b, "template"))
    bits = [f"header {f}" for f in header]
    ar, br = _mapping_at(a, "roles"), _mapping_at(b, "roles")
    for role in sorted(set(ar) | set(br), key=str):
        if role not in br:
            bits.append(f"role {role} removed")
        elif role not in ar:
            bits.append(f"role {role} added")
        elif canon(ar[role]) != canon(br[role]):
            bits.append(f"role {role} changed")
    ta, tb = _list_at(a, "table"), _list_at(b, "table")
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
