"""Completion: the template's roles and ``archetype_template`` under ``scoring:``, the
profile's templates after ``archetype_template:``, its behaviors after ``behavior:``. The
buffer may not parse while it is typed: where the cursor is comes from the indentation."""

from __future__ import annotations

import re

from lsprotocol import types as T

from .. import mapping, model
from . import lookup

_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([^\s#:][^:#]*?)\s*:(?:\s|$)")
#: the cursor after ``key: partial-value``
_AFTER_VALUE = re.compile(r"^(\s*)(?:-\s+)?(?:\{\s*)?([A-Za-z_]*)\s*:\s*['\"]?([^'\"\s]*)$")
#: the cursor on a partial key
_ON_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_]*)$")
_TEMPLATE_LINE = re.compile(rf"^\s+{model.TEMPLATE_KEY}\s*:\s*['\"]?([^'\"#\s]+)")


VALUE, PROPERTY = T.CompletionItemKind.Value, T.CompletionItemKind.Property


def _item(label: str, detail: str, kind=VALUE, insert: str | None = None) -> T.CompletionItem:
    return T.CompletionItem(label, detail=detail or None, kind=kind, insert_text=insert or label)


def _parents(lines: list[str], line0: int, indent: int) -> list[str]:
    """The chain of mapping keys that encloses a line indented by ``indent``."""
    chain: list[str] = []
    for src in reversed(lines[:line0]):
        if not src.strip() or src.lstrip().startswith("#"):
            continue
        ind = len(src) - len(src.lstrip(" "))
        if ind >= indent:
            continue
        indent = ind  # the enclosing line's: its parent is indented less
        if m := _KEY_LINE.match(src):
            chain.append(m.group(2).strip("'\""))
            if ind == 0:
                break
    return list(reversed(chain))


def _buffer_template(lines: list[str]) -> str | None:
    in_scoring = False
    for src in lines:
        if re.match(r"^scoring\s*:", src):
            in_scoring = True
            continue
        if in_scoring and src[:1].strip() and not src.lstrip().startswith("#"):
            in_scoring = False
        if in_scoring and (m := _TEMPLATE_LINE.match(src)):
            return m.group(1)
    return None


def _scoring_keys(profile, lines: list[str], indent: str, typed: str) -> list[T.CompletionItem]:
    """The roles of the buffer's template not bound yet, and ``archetype_template``."""
    template = _buffer_template(lines)
    roles = model.template_roles(model.find_template(profile, template))
    present = {
        mm.group(2).strip()
        for src in lines
        if (mm := _KEY_LINE.match(src)) and len(mm.group(1)) == len(indent)
    }
    out: list[T.CompletionItem] = []
    for role, spec in roles.items():
        if role in present and role != typed:
            continue
        rtype = spec.get("type") if isinstance(spec, dict) else ""
        out.append(_item(str(role), f"{template} role ({rtype})", PROPERTY, f"{role}: "))
    key = model.TEMPLATE_KEY
    if key not in present:
        out.append(_item(key, "the Layer-2 template this scenario binds", PROPERTY, f"{key}: "))
    return out


_DOC_START = re.compile(r"^(---|\.\.\.)(\s|$)")


def completion(state, abspath: str, text: str, line0: int, char0: int) -> list[T.CompletionItem]:
    lines = text.split("\n")
    if not 0 <= line0 < len(lines):
        return []
    # the lines of the YAML document the cursor's line is in, and its line among them
    starts = [i for i, src in enumerate(lines) if _DOC_START.match(src)]
    first = max((i + 1 for i in starts if i < line0), default=0)
    last = min((i for i in starts if i > line0), default=len(lines))
    lines, line0 = lines[first:last], line0 - first
    before = lines[line0][:char0]
    m = _AFTER_VALUE.match(before)
    if m:
        key = m.group(2)
        chain = _parents(lines, line0, len(m.group(1)))
        if key == model.TEMPLATE_KEY and chain == ["scoring"]:
            templates = sorted((state.run.profile.templates or {}).items())
            heads = [(n, mapping.lookup(t, "template", dict, {})) for n, t in templates]
            return [_item(n, str(head.get("title", ""))) for n, head in heads]
        if key == "behavior":
            names = sorted(lookup.profile_behaviors(state, abspath).items())
            return [_item(k, v.title or "behavior-definitions.md") for k, v in names]
        return []
    m = _ON_KEY.match(before)
    if not m or _parents(lines, line0, len(m.group(1))) != ["scoring"]:
        return []
    return _scoring_keys(state.run.profile, lines, m.group(1), m.group(2))
