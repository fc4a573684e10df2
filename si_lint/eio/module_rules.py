"""The EIO rules that need only one module (EIO101, EIO104–EIO111, EIO114, EIO116). A
related location is in the same document: its file ``""`` until :func:`module_diags`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from si_lint.eio import model
from si_lint.findings import Diag, Related
from si_lint.fix import delete_key, set_value

_SECTION_NOUN = {
    "concepts": "concept",
    "relations": "relation",
    "context_criteria": "criterion",
    "profiles": "profile",
}


def module_diags(data: Any, relpath: str) -> Iterator[Diag]:
    criteria = (d for i, crit in model.criteria(data) for d in _criterion(i, crit))
    for d in chain(_duplicate_ids(data), _versions(data), criteria, _profiles(data)):
        yield d._replace(related=tuple(r._replace(file=relpath) for r in d.related))


def _duplicate_ids(data: Any) -> Iterator[Diag]:
    first: dict[str, tuple[str, int]] = {}
    for section in model.ID_SECTIONS:
        for i, item in model.items(data, section):
            iid = item.get("id")
            if not isinstance(iid, str):
                continue
            if iid in first:
                s0, i0 = first[iid]
                yield Diag(
                    "EIO101",
                    (section, i, "id"),
                    f"duplicate id `{iid}`: already defined by {_SECTION_NOUN[s0]} {s0}[{i0}]",
                    on="value",
                    help="give every concept, relation, criterion and profile of a "
                    "module its own id",
                    related=(_rel_here((s0, i0, "id"), "first defined here"),),
                )
            else:
                first[iid] = (section, i)


def _rel_here(path: tuple, message: str) -> Related:
    return Related("", path, message, on="value")


def _versions(data: Any) -> Iterator[Diag]:
    versions: list[tuple[str, tuple, Any]] = [("module version", ("eio",), model.header(data))]
    versions += [("imported version", ("imports", i), x) for i, x in model.items(data, "imports")]
    versions += [("criterion version", ("context_criteria", i), c) for i, c in model.criteria(data)]
    for what, path, item in versions:
        v = item.get("version")
        if isinstance(v, str) and model.SEMVER_RE.fullmatch(v) is None:
            yield Diag(
                "EIO116",
                path + ("version",),
                f"{what} {v!r} is not a semantic version (MAJOR.MINOR.PATCH)",
                on="value",
                help="write the version as MAJOR.MINOR.PATCH, e.g. 0.2.2",
            )


_NO_CONTROLS = "list the controls whose presence the checklist counts"
_NO_REASON = "say why the criterion cannot carry a number"


def _criterion(i: int, crit: Any) -> Iterator[Diag]:
    here = ("context_criteria", i)
    cid = crit.get("id") if isinstance(crit.get("id"), str) else f"context_criteria[{i}]"
    scoring = crit.get("scoring")
    controls = crit.get("controls")
    if scoring == "checklist" and controls is None:  # absent, or null
        yield Diag(
            "EIO104", here, f"checklist criterion `{cid}` has no controls", help=_NO_CONTROLS
        )
    elif scoring == "checklist" and controls == []:
        message = f"checklist criterion `{cid}` has an empty `controls` list"
        yield Diag("EIO104", here + ("controls",), message, help=_NO_CONTROLS)
    elif scoring == "non_scoring":
        reason = crit.get("non_scoring_reason")
        if reason is None:  # absent, or null
            message = f"non_scoring criterion `{cid}` has no `non_scoring_reason`"
            yield Diag("EIO108", here, message, help=_NO_REASON)
        elif isinstance(reason, str) and not reason.strip():
            message = f"non_scoring criterion `{cid}` has a blank `non_scoring_reason`"
            yield Diag(
                "EIO108", here + ("non_scoring_reason",), message, on="value", help=_NO_REASON
            )
        if isinstance(controls, list) and controls:
            yield Diag(
                "EIO108",
                here + ("controls",),
                f"non_scoring criterion `{cid}` carries controls: it yields findings, "
                "never a value",
                help="remove the controls, or make it a checklist",
            )
    elif scoring == "assessor" and isinstance(controls, list) and controls:
        yield Diag(
            "EIO111",
            here + ("controls",),
            f"assessor criterion `{cid}` carries controls: its number would come "
            "from an assessor while controls say it is a checklist",
            help="make it `scoring: checklist`, or remove the controls",
        )
    if isinstance(controls, list):
        yield from _controls(here, controls)


def _controls(here: tuple, controls: list) -> Iterator[Diag]:
    seen_ids: dict[str, int] = {}
    for j, c in enumerate(controls):
        if not isinstance(c, dict):
            continue
        cpath = here + ("controls", j)
        cid = c.get("id")
        ctl = cid if isinstance(cid, str) else f"controls[{j}]"
        if isinstance(cid, str):
            if cid in seen_ids:
                yield Diag(
                    "EIO114",
                    cpath + ("id",),
                    f"duplicate control id `{cid}` (also controls[{seen_ids[cid]}])",
                    on="value",
                    related=(
                        _rel_here(here + ("controls", seen_ids[cid], "id"), "first used here"),
                    ),
                    help="give each control of a criterion its own id",
                )
            else:
                seen_ids[cid] = j
        yield from _requires_any(cpath, ctl, c)


def _requires_any(cpath: tuple, ctl: str, control: dict) -> Iterator[Diag]:
    terms = control.get("requires_any")
    no_terms = "list the terms whose presence satisfies the control"
    if terms is None:  # absent, or null
        message = f"control `{ctl}` has no `requires_any` terms"
        yield Diag("EIO105", cpath, message, help=no_terms)
    elif terms == []:
        message = f"control `{ctl}` has an empty `requires_any` list"
        yield Diag("EIO105", cpath + ("requires_any",), message, help=no_terms)
    seen_terms: dict[str, int] = {}
    for k, t in enumerate(terms if isinstance(terms, list) else ()):
        if not isinstance(t, str):
            continue
        tpath = cpath + ("requires_any", k)
        if t == "" or t.isspace():
            yield Diag(
                "EIO107",
                tpath,
                f"term {t!r} of control `{ctl}` is empty or whitespace only: "
                "a blank artifact would satisfy it",
                help="remove the term (a term may keep inner and trailing spaces "
                'around words, like "never ")',
            )
        elif t != t.casefold():
            yield Diag(
                "EIO106",
                tpath,
                f"term {t!r} of control `{ctl}` is not casefolded, so it can never "
                f"match the casefolded searched text",
                help=f"write it casefolded: {t.casefold()!r}",
                fix=set_value(tpath, t.casefold()),
            )
        if t in seen_terms:
            yield Diag(
                "EIO114",
                tpath,
                f"duplicate term {t!r} in control `{ctl}` (also requires_any[{seen_terms[t]}])",
                related=(_rel_here(cpath + ("requires_any", seen_terms[t]), "first listed here"),),
                help="list each term once",
                fix=delete_key(tpath),
            )
        else:
            seen_terms[t] = k


def _profiles(data: Any) -> Iterator[Diag]:
    by_id: dict[str, tuple[int, Any]] = {}
    for i, c in model.criteria(data):
        if isinstance(c.get("id"), str):
            by_id.setdefault(c["id"], (i, c))
    listed: set[str] = set()
    for p, prof in model.profiles(data):
        pid = prof.get("id") if isinstance(prof.get("id"), str) else f"profiles[{p}]"
        for k, cid in model.str_list(prof.get("scoring_criteria")):
            listed.add(cid)
            hit = by_id.get(cid)
            if hit and hit[1].get("scoring") == "non_scoring":
                yield Diag(
                    "EIO109",
                    ("profiles", p, "scoring_criteria", k),
                    f"non_scoring criterion `{cid}` is listed in the scoring criteria "
                    f"of profile `{pid}`: it can never carry a number",
                    help="move it to `findings_only`",
                )
        for k, cid in model.str_list(prof.get("findings_only")):
            listed.add(cid)
            hit = by_id.get(cid)
            if hit and hit[1].get("scoring") in ("checklist", "assessor"):
                yield Diag(
                    "EIO110",
                    ("profiles", p, "findings_only", k),
                    f"`findings_only` of profile `{pid}` names `{cid}`, a "
                    f"{hit[1].get('scoring')} criterion: its score would never reach "
                    "the axis",
                    help="move it to `scoring_criteria`",
                )
    for cid, (i, c) in by_id.items():
        if c.get("scoring") in ("checklist", "assessor") and cid not in listed:
            yield Diag(
                "EIO110",
                ("context_criteria", i),
                f"{c.get('scoring')} criterion `{cid}` is missing from every profile: "
                "its score reaches no axis",
                help="list it in a profile's `scoring_criteria`",
            )
