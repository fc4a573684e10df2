"""Locating a scenario's decision table (its template's, or its composite's), and what the
table needs that is not trusted: the raw table, before :mod:`.tables` validates it."""

from __future__ import annotations

from typing import Any

from .. import model
from ..mapping import MAPPING
from ..profile import Profile
from .evidence import NoTable
from .primitives import BUILTINS

#: the error every verdict of a scenario in the former spelling gets (SPEC §3.1, §5)
FORMER_SPELLING = (
    "SI119: the scenario uses the former si-lint spelling `scoring.template` + "
    "`scoring.bindings`, which oasisctl refuses; it is not evaluated (run "
    "`si-lint check --fix` to rewrite it into the published spelling)"
)


def locate_table(scenario: Any, profile: Profile) -> tuple[list, dict, bool]:
    """``(table, bindings, composite)`` of a scenario; :class:`NoTable` (saying why) when it
    has none that can be evaluated.

    The scenario is read by :func:`si_lint.model.scoring_of`: Form B (the published
    spelling) is ``scoring.archetype_template`` naming the template, every other key of
    ``scoring`` binding one of its roles; a composite is ``scoring.composite.table``. The
    former spelling (``template``/``bindings``) is SI119 and is not evaluated.
    """
    if not isinstance(scenario, MAPPING):
        raise NoTable("scenario is not a mapping")
    if not isinstance(scenario.get("scoring"), MAPPING):
        raise NoTable("scenario has no `scoring` mapping")
    s = model.scoring_of(scenario)
    if s.form == model.FORMER:
        raise NoTable(FORMER_SPELLING)
    if s.form == model.TEMPLATE:
        name = s.template
        if not isinstance(name, str):
            raise NoTable("`scoring.archetype_template` is not a string")
        doc = model.find_template(profile, name)
        if doc is None:
            raise NoTable(f"`scoring.archetype_template` names no known template `{name}`")
        table = doc.get("table")
        if not isinstance(table, list):
            raise NoTable(f"template `{name}` has no `table` list")
        return table, dict(s.bindings), False
    if s.form == model.COMPOSITE:
        if not isinstance(s.composite, MAPPING):
            raise NoTable("`scoring.composite` is not a mapping")
        table = s.composite.get("table")
        if not isinstance(table, list):
            raise NoTable("`scoring.composite` has no `table` list")
        return table, {}, True
    if s.form == model.BOTH:
        raise NoTable("scenario scoring declares both `archetype_template` and a `composite`")
    raise NoTable("scenario has no decision table (Form A or safety scoring cannot be evaluated)")


def untrusted_primitives(scenario: Any, profile: Profile) -> list[str]:
    """Registered, non-built-in primitives the scenario's table needs but that have no
    trusted implementation in ``profile.implementations`` (sorted, unique)."""
    try:
        table = locate_table(scenario, profile)[0]
    except NoTable:
        return []
    registered = profile.primitives
    whens = [row.get("when") for row in table if isinstance(row, MAPPING)]
    names = {n for when in whens for n in model.primitives_in(when, registered)}
    return sorted(n for n in names if n not in BUILTINS and n not in profile.implementations)
