"""The EIO rules, as pure generators of :class:`~si_lint.findings.Diag` over plain data.

Locations (SPEC §8): a duplicate → the second occurrence (the first as a related
location); a bad list member → the item; a bad value → the value; a missing key → the
mapping that lacks it; a probe → the criterion's ``controls`` key.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from si_lint.eio import evaluator, model, refs
from si_lint.eio.module_rules import module_diags
from si_lint.findings import Diag, Related, did_you_mean

__all__ = ["corpus_diags", "fixture_diags", "module_diags"]


def corpus_diags(index: refs.Index) -> Iterator[Diag]:
    """EIO102, EIO103, EIO112, EIO113, EIO115, EIO117 over every module of ``index``."""
    for m in sorted(index.modules, key=lambda m: m.relpath):
        yield from _imports(index, m)
        yield from _references(index, m)
        yield from _probe(index, m)
    for cyc in refs.cycles(index):
        file, document, path = cyc.edges[0]
        ring = " → ".join(cyc.nodes + (cyc.nodes[0],))
        what, on = (
            ("concept parents", "value") if cyc.kind == "concept" else ("module imports", "key")
        )
        yield Diag(
            "EIO113",
            path,
            f"cycle in {what}: {ring}",
            on=on,
            file=file,
            document=document,
            related=tuple(
                Related(f, p, "part of the cycle", on=on, document=d) for f, d, p in cyc.edges[1:]
            ),
            help="break the cycle: a concept hierarchy and an import graph are acyclic",
        )


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
                **_at(m),
                related=tuple(
                    Related(
                        o.relpath,
                        ("eio", "version"),
                        f"`{imp.module}` {o.version}",
                        on="value",
                        document=o.document,
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
                **_at(m),
                help="add the module to the corpus so its references resolve",
            )


def _at(m: refs.Module) -> dict:
    return {"file": m.relpath, "document": m.document}


def _references(index: refs.Index, m: refs.Module) -> Iterator[Diag]:
    scope = index.scope(m)
    crit_ids = {c["id"] for _, c in model.criteria(m.data) if isinstance(c.get("id"), str)}
    absent = [
        imp.module
        for other in (m, *index.closure(m))
        for imp in index.imports_of(other)
        if imp.target is None
    ]
    for ref in refs.references(m.data):
        names = f"`{ref.what}` names `{ref.target}`"
        if ref.namespace == "criterion" and ref.target not in crit_ids:
            code, message = "EIO102", f"{names}, which is no criterion of this module"
            hint = did_you_mean(ref.target, crit_ids)
            hint = hint or "name a criterion of the module's `context_criteria`"
        elif ref.namespace == "criterion":
            continue
        elif ref.target not in scope and absent:
            code = "EIO117"
            message = f"{names}, not found in the corpus; it may be defined by "
            message += ", ".join(f"`{i}`" for i in dict.fromkeys(absent))
            message += ", which the corpus lacks"
            hint = "add the imported modules to the corpus to check it"
        elif ref.target not in scope:
            code = "EIO102"
            message = f"{names}, which is defined neither by this module nor by any module "
            message += "it imports"
            hint = did_you_mean(ref.target, scope)
            hint = hint or "define the concept, import the module that defines it, or fix the id"
        elif ref.what == "evaluates" and refs.artifact_descent(ref.target, scope) is False:
            code = "EIO112"
            message = f"{names}, which is not `{model.ARTIFACT_ROOT}` nor a descendant of it: "
            message += "a criterion evaluates context artifacts only"
            hint = f"name an artifact concept (a descendant of {model.ARTIFACT_ROOT})"
        else:
            continue
        yield Diag(code, ref.path, message, on=ref.on, **_at(m), help=hint)


def _probe(index: refs.Index, m: refs.Module) -> Iterator[Diag]:
    bad: dict[int, list[tuple[str, float]]] = {}
    for i, kind, score in evaluator.blank_probe(m.data, index.import_parents(m)):
        if score > 0:
            bad.setdefault(i, []).append((kind, score))
    for i, hits in sorted(bad.items()):
        crit = m.data["context_criteria"][i]  # blank_probe scored it: the module has it
        cid = crit.get("id") if isinstance(crit.get("id"), str) else f"context_criteria[{i}]"
        path = ("context_criteria", i) + (("controls",) if "controls" in crit else ())
        shown = ", ".join(f"{k} {s!r}" for k, s in hits)
        yield Diag(
            "EIO115",
            path,
            f"probe: a blank artifact scores above 0 on checklist criterion `{cid}` "
            f"({shown}); a blank artifact must satisfy none of its controls",
            **_at(m),
            help="remove the terms that a blank text contains (empty or whitespace)",
        )


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
