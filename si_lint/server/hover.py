"""Hover: the rule a suppression comment names, and what the node under the cursor
refers to (a role's template entry, a primitive's registry entry, a deviation, a
template, synonyms, a behavior's definition, a scenario). Markdown text, or None."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .. import model
from ..catalogue import rules
from . import lookup
from .spot import Spot, node_at

_SUPPRESS = re.compile(r"#\s*si-lint:\s*(?:disable-file|disable)\s*=\s*")
_CODE = re.compile(r"[A-Za-z0-9_]+")


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n```"


def suppression_code_at(line_text: str, char0: int) -> str | None:
    """The code under the cursor in a ``si-lint: disable=`` comment."""
    m = _SUPPRESS.search(line_text)
    if not m:
        return None
    prev = m.end()
    for c in _CODE.finditer(line_text, m.end()):
        if line_text[prev : c.start()].strip(" \t,") != "":
            break  # past the list of codes
        if c.start() <= char0 <= c.end():
            return c.group(0)
        prev = c.end()
    return None


def rule_markdown(code: str) -> str | None:
    rule = rules().get(code)
    if rule is None:
        return None
    parts = [f"**{rule.code}** `{rule.name}` ({rule.severity})", "", rule.summary]
    if rule.rationale:
        parts += ["", rule.rationale]
    if rule.fix:
        parts += ["", f"*Fix:* {rule.fix}"]
    if rule.seed:
        parts += ["", f"*Seed:* {rule.seed}"]
    return "\n".join(parts)


# --------------------------------------------------------------------------------------
# one function per thing a node can name: (state, abspath, spot) -> markdown or None


def _role(state, abspath: str, spot: Spot) -> str | None:
    hit = lookup.bound_role(state.profile, spot)
    if hit is None:
        return None
    role, template, entry = hit
    return f"**role** `{role}` of template `{template}`\n\n" + _json_block(entry)


def _primitive(state, abspath: str, spot: Spot) -> str | None:
    name = lookup.called_primitive(state.profile, spot)
    if name is None:
        return None
    return f"**primitive** `{name}` (registry)\n\n" + _json_block(state.profile.primitives[name])


def _deviation(state, abspath: str, spot: Spot) -> str | None:
    ref = spot.names("ref")
    if ref is None:
        return None
    dev = lookup.deviation_of(spot.data, ref)
    if dev is None:
        return f"`{ref}`: no deviation of this scenario has that id"
    return f"**deviation** `{ref}` (`injection.deviations[{dev[0]}]`)\n\n" + _json_block(dev[1])


def _template(state, abspath: str, spot: Spot) -> str | None:
    if spot.on != "value" or spot.path != ("scoring", model.TEMPLATE_KEY):
        return None
    name = spot.value
    tdata = model.find_template(state.profile, name)
    if tdata is None:
        return None
    head = found if isinstance(found := tdata.get("template"), dict) else {}
    roles = model.template_roles(tdata)
    return (
        f"**template** `{name}` {head.get('title', '')}\n\n{head.get('bands', '')}\n\n"
        f"roles: {', '.join(f'`{r}`' for r in roles)}"
    )


def _synonyms(state, abspath: str, spot: Spot) -> str | None:
    value = spot.names("deviation_type")
    syn = state.profile.synonyms.get(value) if value is not None else None
    if syn is None:
        return None
    return f"**synonyms** of `{value}` (registry)\n\n" + _json_block(syn)


def _behavior(state, abspath: str, spot: Spot) -> str | None:
    name = spot.names("behavior")
    b = lookup.behavior(state, abspath, name) if name is not None else None
    if b is None:
        return None
    return f"**behavior** `{name}` (behavior-definitions.md)\n\n{b[0]}"


def _scenario(state, abspath: str, spot: Spot) -> str | None:
    sid = lookup.named_scenario(spot)
    doc = lookup.scenario_doc(state, sid) if sid is not None else None
    if doc is None:
        return None
    title = doc.data.get("title") or doc.data.get("name") or ""
    return f"**scenario** `{sid}` {title} ({doc.relpath})"


HOVERS: tuple[Callable[[Any, str, Spot], str | None], ...] = (
    _role,
    _primitive,
    _deviation,
    _template,
    _synonyms,
    _behavior,
    _scenario,
)


def hover(state, abspath: str, text: str, line0: int, char0: int) -> str | None:
    lines = text.split("\n")
    if 0 <= line0 < len(lines):
        code = suppression_code_at(lines[line0], char0)
        if code:
            return rule_markdown(code) or f"`{code}`: no such rule"
    spot = node_at(text, line0, char0)
    if spot is None:
        return None
    for answer in HOVERS:
        md = answer(state, abspath, spot)
        if md is not None:
            return md
    return None
