"""The EIO checklist evaluator (SPEC §6), a pure function of (module, input): no I/O, no
clock, no global state, an error value (never an exception) on bad input.
:func:`evaluate_input` gives SPEC §7's ``eio --format json`` result without its ``input``
(the caller adds it), or ``{"error": "..."}`` when the input cannot be evaluated.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from si_lint.eio import model
from si_lint.limits import to_float

from ..mapping import MAPPING
from ..model import is_number, is_str_list

SCORED = "SCORED"
NOT_APPLICABLE = "NOT_APPLICABLE"
FINDINGS = "FINDINGS"
ERROR = "ERROR"

#: texts a "blank artifact" may carry in the EIO115 probe (all of them blank to a reader)
BLANK_TEXTS = ("", " ", "\n", "\t", "\r\n", " \n\t \n", "\u00a0", "\u2003", "\u3000")
_SHAPE = "{score: x}, NOT_APPLICABLE or FINDINGS"


class InputError(ValueError):
    """The input cannot be evaluated at all."""


def q_axis(scores: list[float]) -> tuple[float | None, str | None]:
    """SPEC §6 pinned arithmetic: ``m = (s / n) * 10`` with ``s`` summed left to right
    (plain float additions, never ``math.fsum``/compensated ``sum``); quantised once to 4
    decimals (half-even) from ``repr(m)``, displayed to 1 decimal (half-even) from that."""
    if not scores:
        return None, None
    s = 0.0
    for x in scores:
        s = s + x
    m = (s / len(scores)) * 10
    q = Decimal(repr(m)).quantize(Decimal("0.0001"), ROUND_HALF_EVEN)
    return float(q), str(q.quantize(Decimal("0.1"), ROUND_HALF_EVEN))


def _artifacts(inp: Mapping[str, Any]) -> list[dict[str, Any]]:
    arts = inp.get("context_artifacts")
    if not isinstance(arts, list):
        raise InputError("`context_artifacts` must be a list of artifacts")
    out = []
    for i, a in enumerate(arts):
        where = f"context_artifacts[{i}]"
        if not isinstance(a, MAPPING):
            raise InputError(f"{where} is not a mapping")
        text = a.get("text")  # absent or null: ""
        art = {"name": a.get("name"), "kind": a.get("kind"), "text": "" if text is None else text}
        for key, value in art.items():
            if not isinstance(value, str):
                raise InputError(f"{where}.{key} must be a string")
        out.append(art)
    return out


def _profile(module: Mapping[str, Any], inp: Mapping[str, Any]) -> Mapping[str, Any] | None:
    wanted = inp.get("profile")
    profs = list(model.profiles(module))
    if wanted is None:
        return profs[0][1] if profs else None
    if not isinstance(wanted, str):
        raise InputError("`profile` must be a string")
    for _, p in profs:
        if p.get("id") == wanted:
            return p
    raise InputError(f"profile `{wanted}` is not defined by module `{model.module_id(module)}`")


def _parents(module: Any, extra_concepts: Mapping[str, Any] | None) -> dict[str, str | None]:
    extra = {
        cid: parent if isinstance(parent, str) else None
        for cid, parent in (extra_concepts or {}).items()
        if isinstance(cid, str)
    }
    return {**extra, **model.concept_parents(module)}  # the module's own concepts win


def searched(
    evaluates: Any, artifacts: list[dict[str, Any]], parents: Mapping[str, str | None]
) -> list[dict[str, Any]]:
    """The searched artifacts, in order (SPEC §6 pinned): entry by entry in ``evaluates``
    order, each entry's artifacts by ``name`` in code-point order (ties in input order); an
    artifact taken by an earlier entry is not taken twice."""
    taken: set[int] = set()
    out: list[dict[str, Any]] = []
    for _, entry in model.str_list(evaluates):
        batch = sorted(  # by name, then input position: a stable code-point sort
            (a["name"], i)
            for i, a in enumerate(artifacts)
            if i not in taken and model.covers(entry, a["kind"], parents)
        )
        taken.update(i for _, i in batch)
        out += [artifacts[i] for _, i in batch]
    return out


def _controls(crit: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    controls = crit.get("controls")
    if controls is not None and not isinstance(controls, list):
        raise InputError("`controls` is not a list")
    for j, c in enumerate(controls or ()):
        if not isinstance(c, MAPPING):
            raise InputError(f"controls[{j}] is not a mapping")
        if not is_str_list(c.get("requires_any")):
            raise InputError(f"controls[{j}].requires_any is not a list of strings")
    return controls


def _error(res: dict[str, Any], msg: str) -> dict[str, Any]:
    res["status"], res["score"], res["error"] = ERROR, None, msg
    return res


def _assessor(
    res: dict[str, Any], crit: Mapping[str, Any], ratings: Mapping[str, Any]
) -> dict[str, Any]:
    cid = crit.get("id")
    rating = ratings.get(cid) if isinstance(cid, str) else None
    if rating is None:
        res["status"] = NOT_APPLICABLE
    elif isinstance(rating, bool) or not isinstance(rating, (int, float)):
        return _error(res, f"assessor rating {rating!r} is not a number")
    elif not (0 <= rating <= 10) or (isinstance(rating, float) and math.isnan(rating)):
        return _error(res, f"assessor rating {rating!r} is outside [0, 10]")
    else:
        res["status"] = SCORED
        res["score"] = to_float(rating / 10)
    return res


def evaluate_criterion(
    crit: Mapping[str, Any],
    artifacts: list[dict[str, Any]],
    parents: Mapping[str, str | None],
    ratings: Mapping[str, Any],
) -> dict[str, Any]:
    scoring = crit.get("scoring")
    res: dict[str, Any] = {
        "scoring": scoring,
        "status": None,
        "score": None,
        "controls_present": [],
        "controls_required": 0,
        "searched_text_sha256": None,
    }
    arts = searched(crit.get("evaluates"), artifacts, parents)
    text = "\n".join(a["text"] for a in arts)
    if arts:
        res["searched_text_sha256"] = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    try:
        controls = _controls(crit)
    except InputError as e:
        return _error(res, str(e))
    if controls is not None:
        res["controls_required"] = len(controls)
        folded = text.casefold()
        res["controls_present"] = [
            c["id"] if isinstance(c.get("id"), str) else f"controls[{j}]"
            for j, c in enumerate(controls)
            if arts and any(t in folded for t in c["requires_any"])
        ]

    if scoring not in model.SCORING_METHODS:
        return _error(
            res, f"unknown scoring method {scoring!r} (checklist, assessor or non_scoring)"
        )
    if not arts:
        res["status"] = NOT_APPLICABLE
        return res
    if scoring == "checklist":
        if not controls:
            return _error(res, "checklist criterion has no controls")
        res["status"] = SCORED
        res["score"] = len(res["controls_present"]) / len(controls)
    elif scoring == "assessor":
        return _assessor(res, crit, ratings)
    else:  # non_scoring: observations, never a value
        res["status"] = FINDINGS
        res["findings"] = {"artifacts": [a["name"] for a in arts], "searched_chars": len(text)}
    return res


def evaluate_input(
    module: Any, inp: Any, extra_concepts: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Evaluate one EIO input against ``module``'s criteria (SPEC §6); ``extra_concepts``
    maps the concept ids of its imports to their parents (the module's own win)."""
    mid = model.module_id(module)
    try:
        if mid is None:
            raise InputError("the module is not an EIO module (no `eio.id`)")
        if not isinstance(inp, MAPPING):
            raise InputError("the input is not a mapping")
        if "module" in inp and inp.get("module") != mid:
            raise InputError(f"input is for module {inp.get('module')!r}, not `{mid}`")
        artifacts = _artifacts(inp)
        ratings = {} if inp.get("assessor_ratings") is None else inp["assessor_ratings"]
        if not isinstance(ratings, MAPPING):
            raise InputError("`assessor_ratings` must be a mapping of criterion id to rating")
        profile = _profile(module, inp)
    except InputError as e:
        return {"error": str(e)}
    parents = _parents(module, extra_concepts)

    results: dict[str, dict[str, Any]] = {}
    for _, crit in model.criteria(module):
        cid = crit.get("id")
        if isinstance(cid, str) and cid not in results:  # a duplicate id (EIO101): first wins
            results[cid] = evaluate_criterion(crit, artifacts, parents, ratings)

    listed = model.str_list(profile.get("scoring_criteria")) if profile is not None else ()
    scored = [results[cid] for _, cid in listed if cid in results]
    q, shown = q_axis([r["score"] for r in scored if r["status"] == SCORED])
    return {"criteria": results, "q_axis": q, "q_display": shown}


def compare_expect(result: Mapping[str, Any], expect: Any) -> list[tuple[tuple, str]]:
    """``(path in the input, message)`` of each difference between a result and an EIO
    fixture's ``expect`` (SPEC §6): the listed criteria only, scores exactly as floats."""
    if "error" in result:
        return [(("expect",), f"the input cannot be evaluated: {result['error']}")]
    if not isinstance(expect, MAPPING):
        return [(("expect",), f"`expect` must map criterion ids to {_SHAPE}")]
    found = (_expected(result, key, want) for key, want in expect.items())
    return [problem for problem in found if problem is not None]


def _expected(result: Mapping[str, Any], key: Any, want: Any) -> tuple[tuple, str] | None:
    if key == "q_axis":
        got = result.get("q_axis")
        if (want is None and got is None) or (is_number(want) and got == to_float(want)):
            return None
        return ("expect", "q_axis"), f"Q axis is {got!r}, expected {want!r}"
    r = result.get("criteria", {}).get(key)
    if r is None:
        return ("expect", key), f"module has no criterion `{key}`"
    status = r["status"]
    shown = {SCORED: f"SCORED {r['score']!r}", ERROR: f"an error ({r.get('error')})"}
    got = shown.get(status, status)
    if isinstance(want, MAPPING) and "score" in want:
        ws = want["score"]
        if not is_number(ws):
            return ("expect", key, "score"), f"expected score {ws!r} is not a number"
        if status != SCORED or r["score"] != to_float(ws):
            return ("expect", key, "score"), f"`{key}` is {got}, expected score {to_float(ws)!r}"
        return None
    if want in (NOT_APPLICABLE, FINDINGS):
        return None if status == want else (("expect", key), f"`{key}` is {got}, expected {want}")
    return ("expect", key), f"expectation {want!r} for `{key}` is not {_SHAPE}"


def blank_probe(
    module: Any, concepts: Mapping[str, Any] | None = None
) -> list[tuple[int, str, float]]:
    """EIO115: ``(criterion index, kind, highest score)`` of every checklist criterion on
    the :data:`BLANK_TEXTS` of each kind it evaluates (the seed's invariant: 0)."""
    parents = _parents(module, concepts)
    out: list[tuple[int, str, float]] = []
    for i, crit in model.criteria(module):
        if crit.get("scoring") != "checklist":
            continue
        entries = model.str_list(crit.get("evaluates"))
        kinds = dict.fromkeys(k for _, e in entries for k in model.descendants(e, parents))
        for kind in kinds:
            blanks = [[{"name": "blank", "kind": kind, "text": text}] for text in BLANK_TEXTS]
            results = [evaluate_criterion(crit, blank, parents, {}) for blank in blanks]
            scores = [r["score"] for r in results if r["status"] == SCORED]
            if scores:
                out.append((i, kind, max(scores)))
    return out
