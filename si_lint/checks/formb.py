"""Scenario scoring rules SI101–SI104, SI108, SI115, SI116, SI119–SI121 (SPEC §3.1, seed
§1.3/§1.4/§2/§3) on the form of ``scoring`` (:func:`si_lint.model.scoring_of`); a binding's
roles and a composite's table are :mod:`si_lint.checks.scoring`'s."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from si_lint.checks.base import file_check
from si_lint.checks.form_a import SHOWN, form_a_advice, malformed_form_a
from si_lint.findings import Diag, did_you_mean, type_name
from si_lint.fix import Fix, delete_key, rename_key
from si_lint.model import (
    BINARY,
    BOTH,
    COMPOSITE,
    FORM_A,
    FORMER,
    NONE,
    TEMPLATE,
    TEMPLATE_KEY,
    deviations,
    find_template,
    is_code_key,
    scoring_of,
    template_roles,
)

FORM_B_HELP = (
    "write `scoring: {archetype_template: <id>, <role>: <value>, ...}` or "
    "`scoring: {composite: {reason: ..., table: [...]}}`"
)


def is_complete_form_b(data: Any, profile: Any) -> bool:
    """A scenario whose Form B part is complete: dropping Form A keys leaves a valid scoring."""
    s = scoring_of(data)
    if s.form == COMPOSITE:
        comp = s.composite if isinstance(s.composite, dict) else {}
        table, reason = comp.get("table"), comp.get("reason")
        return (
            isinstance(table, list)
            and bool(table)
            and isinstance(reason, str)
            and bool(reason.strip())
        )
    if s.form != TEMPLATE:
        return False
    tmpl = find_template(profile, s.template)
    if tmpl is None:
        return False
    roles = template_roles(tmpl)
    bound = [k for k in s.bindings if not is_code_key(k)]
    return all(r in s.bindings for r in roles) and all(b in roles for b in bound)


def _short(text: str) -> str:
    """``text`` cut to :data:`SHOWN` characters, its control characters as escapes."""
    text = text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")


def _key_paths(node: Any, key: str, path: tuple = ()) -> Iterator[tuple]:
    """The path of every ``key`` of a mapping in ``node`` (the loader keeps nesting shallow)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield path + (k,)
            yield from _key_paths(v, key, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _key_paths(v, key, path + (i,))


@file_check("SI104", kinds=("scenario",))
def scenario_synonyms(doc: Any, ctx: Any) -> Iterator[Diag]:
    help_ = (
        "synonym lists are a Layer-1 profile asset: remove this and extend the "
        "profile's registry instead"
    )
    for path in _key_paths(doc.data, "synonyms"):
        yield Diag("SI104", path, "scenario declares its own synonyms", help=help_)


@file_check("SI108", kinds=("scenario",))
def deviation_synonyms(doc: Any, ctx: Any) -> Iterator[Diag]:
    synonyms = ctx.profile.synonyms
    for i, dev in deviations(doc.data):
        dtype = dev.get("deviation_type")
        if not isinstance(dtype, str):
            continue
        lst = synonyms.get(dtype)
        if not (isinstance(lst, list) and any(isinstance(s, str) and s for s in lst)):
            known = ", ".join(sorted(k for k in synonyms if isinstance(k, str))) or "none"
            message = (
                f"deviation type `{dtype}` has no synonym list in the profile "
                f"(lists exist for: {known}); factor_identified can never hold"
            )
            help_ = did_you_mean(dtype, (k for k in synonyms if isinstance(k, str))) or (
                "use a deviation type the profile has synonyms for, or extend the "
                "profile's synonym lists; run `si-lint profile deviation-types` to list them"
            )
            path = ("injection", "deviations", i, "deviation_type")
            yield Diag("SI108", path, message, on="value", help=help_)


@file_check("SI101", "SI102", "SI103", "SI115", "SI116", "SI119", "SI120", kinds=("scenario",))
def scoring_form(doc: Any, ctx: Any) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, dict) or "scoring" not in data:
        return  # SI601
    s = scoring_of(data)
    if s.form == BINARY:
        return  # a safety scenario: SI609 reports another scoring
    # SI115/SI116 apply to a capability scenario (or one that does not say; SI601)
    capability = data.get("classification", "capability") == "capability"
    scoring = data["scoring"]
    if not isinstance(scoring, dict) or s.form == NONE:
        if capability and not (isinstance(scoring, dict) and any(map(is_code_key, scoring))):
            what = "" if isinstance(scoring, dict) else f" {type_name(scoring)},"
            message = f"`scoring` is{what} neither Form B nor a composite"
            yield Diag("SI116", ("scoring",), message, help=FORM_B_HELP)
    elif s.form == FORMER:
        yield _former_spelling(scoring)
    elif s.form == FORM_A:
        if capability and (malformed := malformed_form_a(scoring)) is not None:
            yield malformed
        if (
            capability
            and "type" in scoring
            and (scoring["type"] == "weighted" or "rubric" in scoring or "dimensions" in scoring)
        ):
            yield form_a_advice(data, ctx)
    else:
        if s.form == BOTH:
            message = "`scoring` declares both `archetype_template` and a `composite`"
            help_ = "keep one: the template binding or the composite"
            yield Diag("SI116", ("scoring",), message, help=help_)
        yield from _form_a_keys(scoring, is_complete_form_b(data, ctx.profile))


def _form_a_keys(scoring: Mapping[str, Any], complete: bool) -> Iterator[Diag]:
    """SI101–SI103, deleted by the unsafe fix when the rest of the scoring is complete."""
    for key, code in (("type", "SI101"), ("rubric", "SI102"), ("dimensions", "SI103")):
        if key in scoring:
            message = f"Form B scenario declares `scoring.{key}`"
            help_ = f"remove `scoring.{key}`: the template (or composite) fixes the scoring"
            fix = delete_key(("scoring", key)) if complete else None
            yield Diag(code, ("scoring", key), message, help=help_, fix=fix)


def _former_spelling(scoring: Mapping[str, Any]) -> Diag:
    """SI119, with the fix into the published spelling when it is safe (rules/SI119.yaml)."""
    has_t = "template" in scoring
    path = ("scoring", "template") if has_t else ("scoring", "bindings")
    bindings = scoring.get("bindings")
    fix: tuple[Fix, ...] | None = None
    if has_t and TEMPLATE_KEY not in scoring:
        if "bindings" not in scoring:
            fix = (rename_key(("scoring", "template"), TEMPLATE_KEY),)
        elif isinstance(bindings, dict) and not (set(bindings) & (set(scoring) - {"bindings"})):
            fix = (
                rename_key(("scoring", "template"), TEMPLATE_KEY),
                Fix("lift", ("scoring", "bindings")),
            )
    spelled = " + ".join(f"`scoring.{k}`" for k in ("template", "bindings") if k in scoring)
    return Diag(
        "SI119",
        path,
        f"the former si-lint spelling {spelled}: oasisctl refuses the whole file "
        '("neither Form A nor Form B")',
        help="write `archetype_template: <id>` with the roles flat under `scoring` "
        "(`si-lint check --fix` rewrites it)",
        fix=fix,
    )


@file_check("SI121", kinds=("scenario",))
def template_archetype(doc: Any, ctx: Any) -> Iterator[Diag]:
    data = doc.data
    if not isinstance(data, dict) or scoring_of(data).form not in (TEMPLATE, BOTH):
        return
    archetype, name = data.get("archetype"), data["scoring"].get(TEMPLATE_KEY)
    template = find_template(ctx.profile, name)
    if not isinstance(archetype, str) or template is None:
        return  # no archetype (SI601), or no such template (SI112)
    head = template.get("template")
    tid = head.get("id") if isinstance(head, Mapping) else None
    if archetype in (name, tid):
        return
    title = head.get("title") if isinstance(head, Mapping) else None
    what = f" ({_short(title)})" if isinstance(title, str) and title.strip() else ""
    own = find_template(ctx.profile, archetype)
    if own is not None:
        help_ = (
            f"bind `archetype_template: {_short(archetype)}`, the template of the scenario's "
            f"archetype, or correct `archetype` if the scenario is a {_short(name)} one"
        )
    else:
        pname = ctx.profile.name
        profile = f"profile {_short(pname)}" if pname else "the profile"
        help_ = (
            f"correct `archetype` if the scenario is a {_short(name)} one; else {profile} has "
            f"no template for {_short(archetype)} yet: keep Form A (or a composite) until it has"
        )
    message = (
        f"scenario of archetype {_short(archetype)} is bound to template {_short(name)}"
        f"{what}: its table scores another archetype"
    )
    yield Diag("SI121", ("scoring", TEMPLATE_KEY), message, on="value", help=help_)
