"""The EIO rules, as pure generators of :class:`~si_lint.findings.Diag` over plain data.

``module_diags`` holds the rules that need only one module (EIO101, EIO104–EIO111, EIO114,
EIO116); ``corpus_diags`` the ones that need every EIO module of the corpus (EIO102,
EIO103, EIO112, EIO113, EIO115, EIO117) and ``fixture_diags`` the EIO fixture dry run
(EIO401). The check modules in ``si_lint/checks/eio.py`` only register them.

Locations (SPEC §8): a duplicate → the second occurrence (the first as a related
location); a bad list member → the item; a bad value → the value; a missing key → the
mapping that lacks it; a probe → the criterion's ``controls`` key.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from si_lint.eio import evaluator, model, refs
from si_lint.findings import Diag, Related
from si_lint.fix import delete_key, replace_item

MODULE_CODES = (
    "EIO101",
    "EIO104",
    "EIO105",
    "EIO106",
    "EIO107",
    "EIO108",
    "EIO109",
    "EIO110",
    "EIO111",
    "EIO114",
    "EIO116",
)
CORPUS_CODES = ("EIO102", "EIO103", "EIO112", "EIO113", "EIO115", "EIO117")
FIXTURE_CODES = ("EIO401",)

_SECTION_NOUN = {
    "concepts": "concept",
    "relations": "relation",
    "context_criteria": "criterion",
    "profiles": "profile",
}


def _nonempty_list(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0


# ----------------------------------------------------------------------------------------
# one module


def module_diags(data: Any) -> Iterator[Diag]:
    yield from _duplicate_ids(data)
    yield from _versions(data)
    for i, crit in model.criteria(data):
        yield from _criterion(i, crit)
    yield from _profiles(data)


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
    # the engine resolves a Related by file; "" is replaced by the checks with the document
    return Related("", path, message, on="value")


def _versions(data: Any) -> Iterator[Diag]:
    def bad(path: tuple, value: Any, what: str) -> Diag:
        return Diag(
            "EIO116",
            path,
            f"{what} {value!r} is not a semantic version (MAJOR.MINOR.PATCH)",
            on="value",
            help="write the version as MAJOR.MINOR.PATCH, e.g. 0.2.2",
        )

    v = model.header(data).get("version")
    if isinstance(v, str) and not model.is_semver(v):
        yield bad(("eio", "version"), v, "module version")
    for i, imp in model.items(data, "imports"):
        v = imp.get("version")
        if isinstance(v, str) and not model.is_semver(v):
            yield bad(("imports", i, "version"), v, "imported version")
    for i, crit in model.criteria(data):
        v = crit.get("version")
        if isinstance(v, str) and not model.is_semver(v):
            yield bad(("context_criteria", i, "version"), v, "criterion version")


def _criterion(i: int, crit: Any) -> Iterator[Diag]:
    here = ("context_criteria", i)
    cid = crit.get("id") if isinstance(crit.get("id"), str) else f"context_criteria[{i}]"
    scoring = crit.get("scoring")
    has_controls = "controls" in crit
    controls = crit.get("controls")

    if scoring == "checklist":
        if not has_controls or controls is None:
            yield Diag(
                "EIO104",
                here,
                f"checklist criterion `{cid}` has no controls",
                help="list the controls whose presence the checklist counts",
            )
        elif isinstance(controls, list) and not controls:
            yield Diag(
                "EIO104",
                here + ("controls",),
                f"checklist criterion `{cid}` has an empty `controls` list",
                help="list the controls whose presence the checklist counts",
            )
    elif scoring == "non_scoring":
        reason = crit.get("non_scoring_reason")
        if "non_scoring_reason" not in crit or reason is None:
            yield Diag(
                "EIO108",
                here,
                f"non_scoring criterion `{cid}` has no `non_scoring_reason`",
                help="say why the criterion cannot carry a number",
            )
        elif isinstance(reason, str) and not reason.strip():
            yield Diag(
                "EIO108",
                here + ("non_scoring_reason",),
                f"non_scoring criterion `{cid}` has a blank `non_scoring_reason`",
                on="value",
                help="say why the criterion cannot carry a number",
            )
        if _nonempty_list(controls):
            yield Diag(
                "EIO108",
                here + ("controls",),
                f"non_scoring criterion `{cid}` carries controls: it yields findings, "
                "never a value",
                help="remove the controls, or make it a checklist",
            )
    elif scoring == "assessor":
        if _nonempty_list(controls):
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
        ctl = c.get("id") if isinstance(c.get("id"), str) else f"controls[{j}]"
        if isinstance(c.get("id"), str):
            if c["id"] in seen_ids:
                yield Diag(
                    "EIO114",
                    cpath + ("id",),
                    f"duplicate control id `{c['id']}` (also controls[{seen_ids[c['id']]}])",
                    on="value",
                    related=(
                        _rel_here(here + ("controls", seen_ids[c["id"]], "id"), "first used here"),
                    ),
                    help="give each control of a criterion its own id",
                )
            else:
                seen_ids[c["id"]] = j
        terms = c.get("requires_any")
        if "requires_any" not in c or terms is None:
            yield Diag(
                "EIO105",
                cpath,
                f"control `{ctl}` has no `requires_any` terms",
                help="list the terms whose presence satisfies the control",
            )
            continue
        if isinstance(terms, list) and not terms:
            yield Diag(
                "EIO105",
                cpath + ("requires_any",),
                f"control `{ctl}` has an empty `requires_any` list",
                help="list the terms whose presence satisfies the control",
            )
            continue
        if not isinstance(terms, list):
            continue
        seen_terms: dict[str, int] = {}
        for k, t in enumerate(terms):
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
                    fix=replace_item(tpath, t.casefold()),
                )
            if t in seen_terms:
                yield Diag(
                    "EIO114",
                    tpath,
                    f"duplicate term {t!r} in control `{ctl}` (also requires_any[{seen_terms[t]}])",
                    related=(
                        _rel_here(cpath + ("requires_any", seen_terms[t]), "first listed here"),
                    ),
                    help="list each term once",
                    fix=delete_key(tpath),
                )
            else:
                seen_terms[t] = k


def _profiles(data: Any) -> Iterator[Diag]:
    by_id = {}
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


# ----------------------------------------------------------------------------------------
# the corpus


def corpus_diags(index: refs.Index) -> Iterator[Diag]:
    """EIO102, EIO103, EIO112, EIO113, EIO115, EIO117 over every module of ``index``."""
    for m in sorted(index.modules, key=lambda m: m.relpath):
        yield from _imports(index, m)
        yield from _references(index, m)
        yield from _probe(index, m)
    for cyc in refs.concept_cycles(index) + refs.import_cycles(index):
        yield _cycle(cyc)


def _imports(index: refs.Index, m: refs.Module) -> Iterator[Diag]:
    for imp in index.imports_of(m):
        if imp.target is not None:
            continue
        if imp.others:
            have = ", ".join(f"{o.version} ({o.relpath})" for o in imp.others)
            yield Diag(
                "EIO103",
                ("imports", imp.index, "version"),
                f"imports `{imp.module}` {imp.version}, but the corpus has it at version {have}",
                on="value",
                severity="error",
                file=m.relpath,
                document=m.document,
                related=tuple(
                    _related_value(
                        o.relpath, ("eio", "version"), f"`{imp.module}` {o.version}", o.document
                    )
                    for o in imp.others
                ),
                help="import the version the corpus holds, or add that version",
            )
        else:
            yield Diag(
                "EIO103",
                ("imports", imp.index, "module"),
                f"imported module `{imp.module}` is not in the corpus; references "
                "into it cannot be checked",
                on="value",
                file=m.relpath,
                document=m.document,
                help="add the module to the corpus so its references resolve",
            )


def _related_value(file: str, path: tuple, message: str, document: int | None = None) -> Related:
    return Related(file, path, message, on="value", document=document)


def _references(index: refs.Index, m: refs.Module) -> Iterator[Diag]:
    scope = index.scope(m)
    crit_ids = refs.criterion_ids(m.data)
    absent = [imp.module for imp in _all_imports(index, m) if imp.target is None]
    for ref in refs.references(m.data):
        if ref.namespace == "criterion":
            if ref.target not in crit_ids:
                yield Diag(
                    "EIO102",
                    ref.path,
                    f"`{ref.what}` names `{ref.target}`, which is no criterion of this module",
                    on=ref.on,
                    file=m.relpath,
                    document=m.document,
                    help="name a criterion of the module's `context_criteria`",
                )
            continue
        if ref.target not in scope.concepts:
            if absent:
                yield Diag(
                    "EIO117",
                    ref.path,
                    f"`{ref.what}` names `{ref.target}`, not found in the corpus; it "
                    f"may be defined by {_names(absent)}, which the corpus lacks",
                    on=ref.on,
                    file=m.relpath,
                    document=m.document,
                    help="add the imported modules to the corpus to check it",
                )
            else:
                yield Diag(
                    "EIO102",
                    ref.path,
                    f"`{ref.what}` names `{ref.target}`, which is defined neither by "
                    "this module nor by any module it imports",
                    on=ref.on,
                    file=m.relpath,
                    document=m.document,
                    help="define the concept, import the module that defines it, or fix the id",
                )
            continue
        if ref.what == "evaluates" and refs.artifact_descent(ref.target, scope.parents) is False:
            yield Diag(
                "EIO112",
                ref.path,
                f"`evaluates` names `{ref.target}`, which is not "
                f"`{model.ARTIFACT_ROOT}` nor a descendant of it: a criterion "
                "evaluates context artifacts only",
                on=ref.on,
                file=m.relpath,
                document=m.document,
                help=f"name an artifact concept (a descendant of {model.ARTIFACT_ROOT})",
            )


def _all_imports(index: refs.Index, m: refs.Module) -> list[refs.Import]:
    out = list(index.imports_of(m))
    for other in index.closure(m)[0]:
        out.extend(index.imports_of(other))
    return out


def _names(ids: list[str]) -> str:
    uniq = list(dict.fromkeys(ids))
    return ", ".join(f"`{i}`" for i in uniq)


def _probe(index: refs.Index, m: refs.Module) -> Iterator[Diag]:
    bad: dict[int, list[tuple[str, float]]] = {}
    for i, kind, score in evaluator.blank_probe(m.data, index.import_parents(m)):
        if score > 0:
            bad.setdefault(i, []).append((kind, score))
    crits = m.data.get("context_criteria") if isinstance(m.data, dict) else None
    for i, hits in sorted(bad.items()):
        crit = crits[i]
        cid = crit.get("id") if isinstance(crit.get("id"), str) else f"context_criteria[{i}]"
        path = ("context_criteria", i) + (("controls",) if "controls" in crit else ())
        shown = ", ".join(f"{k} {s!r}" for k, s in hits)
        yield Diag(
            "EIO115",
            path,
            f"probe: a blank artifact scores above 0 on checklist criterion `{cid}` "
            f"({shown}); a blank artifact must satisfy none of its controls",
            file=m.relpath,
            document=m.document,
            help="remove the terms that a blank text contains (empty or whitespace)",
        )


def _cycle(cyc: refs.Cycle) -> Diag:
    file, document, path = cyc.edges[0]
    ring = " → ".join(cyc.nodes + (cyc.nodes[0],))
    what = "concept parents" if cyc.kind == "concept" else "module imports"
    return Diag(
        "EIO113",
        path,
        f"cycle in {what}: {ring}",
        on="value" if cyc.kind == "concept" else "key",
        file=file,
        document=document,
        related=tuple(
            Related(
                f,
                p,
                "part of the cycle",
                on="value" if cyc.kind == "concept" else "key",
                document=d,
            )
            for f, d, p in cyc.edges[1:]
        ),
        help="break the cycle: a concept hierarchy and an import graph are acyclic",
    )


# ----------------------------------------------------------------------------------------
# EIO fixtures


def fixture_diags(
    relpath: str, data: Any, index: refs.Index, document: int | None = None
) -> Iterator[Diag]:
    """EIO401 for one EIO input with ``expect`` (nothing for one without)."""
    if not isinstance(data, dict) or "expect" not in data:
        return
    mid = data.get("module")
    if not isinstance(mid, str):
        return  # the schema reports it (SI003)
    mods = index.by_id.get(mid)
    if not mods:
        yield Diag(
            "EIO401",
            ("module",),
            f"module `{mid}` is not in the corpus: the expectations cannot be checked",
            on="value",
            file=relpath,
            document=document,
            help="add the module to the corpus, or fix the module id",
        )
        return
    mod = mods[0]
    result = evaluator.evaluate_input(mod.data, data, index.import_parents(mod))
    related = (
        Related(mod.relpath, ("eio", "id"), f"module `{mid}`", on="value", document=mod.document),
    )
    for path, message in evaluator.compare_expect(result, data.get("expect")):
        yield Diag(
            "EIO401",
            path,
            message,
            on="value" if len(path) > 1 else "key",
            file=relpath,
            document=document,
            related=related,
            help="fix the expectation if the module changed on purpose; otherwise "
            "the module or the input is wrong",
        )


def with_file(diags: Iterable[Diag], relpath: str) -> Iterator[Diag]:
    """Fill the file of related locations written as ``""`` (same-document relations)."""
    from dataclasses import replace

    for d in diags:
        if any(r.file == "" for r in d.related):
            d = replace(
                d, related=tuple(replace(r, file=relpath) if r.file == "" else r for r in d.related)
            )
        yield d
