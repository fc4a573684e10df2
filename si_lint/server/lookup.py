"""What the node under the cursor names, read through the SI document model
(:mod:`si_lint.model`) and the state's profile: a role binding of the scenario's Layer-2
template, a primitive call in a predicate, a deviation, a scenario, a behavior of the OASIS
profile documents."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import model
from .spot import Spot, value_at


def bound_role(profile, spot: Spot) -> tuple[str, str, Any] | None:
    """(role, template, the template's role entry) when the cursor is on the key of a
    Form B role binding (``scoring.<role>``) that the scenario's template defines."""
    path = spot.path
    if spot.on != "key" or len(path) != 2 or path[0] != "scoring":
        return None
    s = model.scoring_of(spot.data)
    if s.form != model.TEMPLATE or path[1] not in s.bindings:
        return None
    roles = model.template_roles(model.find_template(profile, s.template))
    if path[1] not in roles:
        return None
    return path[1], s.template, roles[path[1]]


def called_primitive(profile, spot: Spot) -> str | None:
    """The registered primitive the cursor's key calls in a predicate (a ``when``)."""
    path = spot.path
    if spot.on != "key" or "when" not in path:
        return None
    base = path[: path.index("when") + 1]
    for call in model.predicate_calls(value_at(spot.data, base), base):
        if call.path == path:
            return call.name if call.name in profile.primitives else None
    return None


def deviation_of(data: Any, ref: str) -> tuple[int, Mapping[str, Any]] | None:
    """(index in ``injection.deviations``, deviation) of the deviation with id ``ref``."""
    for i, d in model.deviations(data):
        if d.get("id") == ref:
            return i, d
    return None


def named_scenario(spot: Spot) -> str | None:
    """The scenario id an evidence or fixture names, when the cursor is on it."""
    sid, key_path = model.evidence_scenario(spot.data)
    if spot.on == "value" and spot.path == key_path and isinstance(sid, str):
        return sid
    return None


def scenario_doc(state, sid: str):
    for d in state.documents():
        if d.kind == "scenario" and isinstance(d.data, dict) and d.data.get("id") == sid:
            return d
    return None


# --------------------------------------------------------------------------------------
# the OASIS profile documents (behavior-definitions.md, ...)


def profile_names(state, abspath: str, kind: str) -> dict:
    """The names (``behaviors``, ``stimuli``, …) the OASIS profile documents of the file's
    directory define (si_lint.profile_docs, read by the state as ``check`` reads them)."""
    pdir = state.profile_dirs.get(os.path.dirname(abspath))
    docs = state.profile_docs.get(pdir) if pdir is not None else None
    names = getattr(docs, kind, None) if docs is not None else None
    return names if isinstance(names, dict) else {}


def markdown_section(path: str, line: int) -> str:
    """The Markdown section that starts at the heading on ``line`` (1-based): up to the
    next heading of the same or a higher level, at most 60 lines."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    head = lines[line - 1].lstrip()
    level = len(head) - len(head.lstrip("#"))
    out = [lines[line - 1]]
    fenced = False
    for src in lines[line : line + 200]:
        stripped = src.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        if not fenced and stripped.startswith("#"):
            lv = len(stripped) - len(stripped.lstrip("#"))
            if 0 < lv <= level and stripped[lv : lv + 1] in (" ", ""):
                break
        out.append(src)
        if len(out) >= 60:
            out.append("…")
            break
    return "\n".join(out).strip()


def behavior(state, abspath: str, name: str) -> tuple[str, tuple[str, int, int]] | None:
    """(the definition's text, its location) of a behavior of the file's profile."""
    n = profile_names(state, abspath, "behaviors").get(name)
    if n is None:
        return None
    file = os.path.normpath(os.path.join(str(state.cwd), n.file))
    return markdown_section(file, n.line), (file, n.line - 1, max(n.col - 1, 0))


def behaviors(state, abspath: str) -> list[tuple[str, str]]:
    """(name, title) of every behavior of the file's profile, by name."""
    names = profile_names(state, abspath, "behaviors")
    return [(k, v.title or "behavior-definitions.md") for k, v in sorted(names.items())]
