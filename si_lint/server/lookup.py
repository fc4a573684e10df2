"""Hover and go to definition: what the node under the cursor names (read through
:mod:`si_lint.model` and the state's profile), and the rule a suppression comment names.
Hover is Markdown; a definition is ``(abspath, line0, char0)``."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import model
from ..catalogue import rules
from ..loader import load_bytes
from ..mapping import MAPPING, lookup
from ..profile_docs import headings
from ..source import token_end

Target = tuple[str, int, int]

_SUPPRESS = re.compile(r"#\s*si-lint:\s*(?:disable-file|disable)\s*=\s*")
_CODE = re.compile(r"[A-Za-z0-9_]+")


@dataclass
class Named:
    markdown: str
    target: Callable[[], Target | None] = lambda: None


def suppression_code_at(line_text: str, char0: int) -> str | None:
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
    for label, text in (("", rule.rationale), ("*Fix:* ", rule.fix), ("*Seed:* ", rule.seed)):
        if text:
            parts += ["", label + text]
    return "\n".join(parts)


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n```"


@dataclass
class Spot:
    path: tuple  # document path of the node under the cursor
    on: str  # "key" | "value"
    data: Any  # the data of the buffer's document the cursor is in (plain)
    index: int = 0  # that document's index in the file

    @property
    def value(self) -> Any:
        return value_at(self.data, self.path)

    def names(self, key: str) -> str | None:
        value = self.value if self.on == "value" and self.path[-1:] == (key,) else None
        return value if isinstance(value, str) else None


def value_at(data: Any, path: tuple) -> Any:
    node = data
    for p in path:
        if isinstance(node, MAPPING) and p in node:
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return None
    return node


def node_at(text: str, line0: int, char0: int) -> Spot | None:
    loaded = load_bytes(text.encode("utf-8"))
    if loaded.failed:
        return None
    lines = text.split("\n")
    if not 0 <= line0 < len(lines):
        return None
    src = lines[line0]
    line, col = line0 + 1, char0 + 1
    best = None
    for doc in loaded.documents:
        for on, table in (("key", doc.pos.k), ("value", doc.pos.v)):
            for path, (l, c) in table.items():
                if l != line or c > col or not path:
                    continue
                # the rightmost start wins; at one start the deeper node (a block
                # mapping's value starts where its first key does), then the value
                rank = (c, len(path), on == "value")
                if best is None or rank > best[0]:
                    best = (rank, path, on, doc)
    if best is None:
        return None
    (c, _depth, _on), path, on, doc = best
    end = token_end(src, c)
    if col >= end and not (col == end and char0 > 0):
        return None
    if on == "value" and isinstance(value_at(doc.data, path), (dict, list)):
        return None  # a flow collection's bracket: nothing to say
    return Spot(path, on, doc.data, doc.index)


def _load(path: Path) -> Any:
    try:
        return load_bytes(path.read_bytes()).data
    except OSError:
        return None


def _position(
    abspath: str, path: tuple, on: str, text: str | None = None, index: int | None = None
) -> Target:
    """In a file's document ``index`` (None: its first), else the file's start."""
    if text is None:
        try:
            text = Path(abspath).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return abspath, 0, 0
    docs = load_bytes(text.encode("utf-8")).documents
    doc = next((d for d in docs if d.index == index), docs[0] if docs else None)
    if doc is None:
        return abspath, 0, 0
    line, col = doc.pos.value(path) if on == "value" else doc.pos.key(path)
    return abspath, line - 1, col - 1


def _in_template(state, tid: str, path: tuple, on: str) -> Target | None:
    root = state.run.profile.root
    for file in sorted(Path(root).glob("templates/*")) if root is not None else ():
        if lookup(lookup(_load(file), "template"), "id") == tid:
            return _position(str(file), path, on)
    return None


def _in_registry(state, name: str) -> Target | None:
    if state.run.profile.root is None:
        return None
    reg = Path(state.run.profile.root) / "registry.yaml"
    for i, p in enumerate(lookup(_load(reg), "primitives", list, ())):
        if lookup(p, "name") == name:
            return _position(str(reg), ("primitives", i, "name"), "value")
    return None


# one function per thing a node can name: (state, abspath, text, spot) -> Named or None


def _role(state, abspath: str, text: str, spot: Spot) -> Named | None:
    path = spot.path
    if spot.on != "key" or len(path) != 2 or path[0] != "scoring":
        return None
    s = model.scoring_of(spot.data)
    if s.form != model.TEMPLATE or path[1] not in s.bindings:
        return None
    roles = model.template_roles(model.find_template(state.run.profile, s.template))
    if path[1] not in roles:
        return None
    role, template = path[1], s.template
    return Named(
        f"**role** `{role}` of template `{template}`\n\n" + _json_block(roles[role]),
        lambda: _in_template(state, template, ("roles", role), "key"),
    )


def _primitive(state, abspath: str, text: str, spot: Spot) -> Named | None:
    path, prims = spot.path, state.run.profile.primitives
    if spot.on != "key" or "when" not in path:
        return None
    base = path[: path.index("when") + 1]
    call = next(
        (c for c in model.predicate_calls(value_at(spot.data, base), base) if c.path == path), None
    )
    if call is None or call.name not in prims:
        return None
    name = call.name
    return Named(
        f"**primitive** `{name}` (registry)\n\n" + _json_block(prims[name]),
        lambda: _in_registry(state, name),
    )


def _deviation(state, abspath: str, text: str, spot: Spot) -> Named | None:
    ref = spot.names("ref")
    if ref is None:
        return None
    first = next(((i, d) for i, d in model.deviations(spot.data) if d.get("id") == ref), None)
    if first is None:
        return Named(f"`{ref}`: no deviation of this scenario has that id")
    i, d = first
    return Named(
        f"**deviation** `{ref}` (`injection.deviations[{i}]`)\n\n" + _json_block(d),
        lambda: _position(abspath, ("injection", "deviations", i, "id"), "value", text, spot.index),
    )


def _template(state, abspath: str, text: str, spot: Spot) -> Named | None:
    if spot.on != "value" or spot.path != ("scoring", model.TEMPLATE_KEY):
        return None
    name = spot.value
    tdata = model.find_template(state.run.profile, name)
    if tdata is None:
        return None
    head = lookup(tdata, "template", dict, {})
    roles = ", ".join(f"`{r}`" for r in model.template_roles(tdata))
    return Named(
        f"**template** `{name}` {head.get('title', '')}\n\n{head.get('bands', '')}\n\n"
        f"roles: {roles}",
        lambda: _in_template(state, name, ("template", "id"), "value"),
    )


def _synonyms(state, abspath: str, text: str, spot: Spot) -> Named | None:
    value = spot.names("deviation_type")
    syn = state.run.profile.synonyms.get(value) if value is not None else None
    if syn is None:
        return None
    return Named(f"**synonyms** of `{value}` (registry)\n\n" + _json_block(syn))


def _behavior(state, abspath: str, text: str, spot: Spot) -> Named | None:
    name = spot.names("behavior")
    n = profile_behaviors(state, abspath).get(name) if name is not None else None
    if n is None:
        return None
    file = state.selection.absolute(n.file)
    return Named(
        f"**behavior** `{name}` (behavior-definitions.md)\n\n{markdown_section(file, n.line)}",
        lambda: (file, n.line - 1, max(n.col - 1, 0)),
    )


def _scenario(state, abspath: str, text: str, spot: Spot) -> Named | None:
    sid, key_path = model.evidence_scenario(spot.data)
    if spot.on != "value" or spot.path != key_path or not isinstance(sid, str):
        return None
    doc = next((d for d in state.documents() if d.scenario_id() == sid), None)
    if doc is None:
        return None
    title = doc.data.get("title") or doc.data.get("name") or ""
    return Named(
        f"**scenario** `{sid}` {title} ({doc.relpath})",
        lambda: _position(doc.abspath, ("id",), "value", state.text_of(doc.abspath), doc.index),
    )


THINGS = (_role, _primitive, _deviation, _template, _synonyms, _behavior, _scenario)


def named(state, abspath: str, text: str, line0: int, char0: int) -> Named | None:
    spot = node_at(text, line0, char0)
    if spot is None:
        return None
    return next((n for thing in THINGS if (n := thing(state, abspath, text, spot))), None)


def hover(state, abspath: str, text: str, line0: int, char0: int) -> str | None:
    lines = text.split("\n")
    code = suppression_code_at(lines[line0], char0) if 0 <= line0 < len(lines) else None
    if code:
        return rule_markdown(code) or f"`{code}`: no such rule"
    n = named(state, abspath, text, line0, char0)
    return n.markdown if n is not None else None


def definition(state, abspath: str, text: str, line0: int, char0: int) -> Target | None:
    n = named(state, abspath, text, line0, char0)
    return n.target() if n is not None else None


def profile_behaviors(state, abspath: str) -> dict:
    """The behaviors the OASIS profile documents of the file's directory define, as
    ``check`` reads them."""
    pdir = state.profile_dirs.get(os.path.dirname(abspath))
    docs = state.run.profile_docs.get(pdir) if pdir is not None else None
    return (docs.behaviors if docs is not None else None) or {}


def markdown_section(path: str, line: int) -> str:
    """The Markdown section that starts at the heading on ``line`` (1-based): up to the
    next heading of the same or a higher level, at most 60 lines."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    found = list(headings(text))
    level = next((lv for n, _c, lv, _t in found if n == line), 0)
    end = next((n - 1 for n, _c, lv, _t in found if n > line and lv <= level), None)
    out = text.splitlines()[line - 1 : end]
    return "\n".join(out[:60] + ["…"] * (len(out) >= 60)).strip()
