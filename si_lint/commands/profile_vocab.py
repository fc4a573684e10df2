"""What ``si-lint profile`` lists: a profile's registry and templates, read with positions,
and the names its OASIS profile documents define. Both are hostile input: a file that
resolves outside the profile directory is not read (as ``check`` does not read it), a value
of the wrong shape is left out or shown as its type, never a crash."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..discovery import inside, relpath_of
from ..fsutil import read_regular, resolves_inside
from ..limits import MAX_BYTES
from ..loader import load_bytes
from ..mapping import MAPPING, lookup
from ..profile_docs import (
    CAPABILITY_CATEGORIES,
    MAX_DOC_BYTES,
    SAFETY_CATEGORIES,
    headings,
    parse_archetypes,
    read_profile_dir,
    slug,
)

#: the sections, in the order they are printed (the positional SECTION filter's names):
#: the registry's and its templates', then those the profile documents define
DOC_SECTIONS = ("behaviors", "stimuli", "categories", "subcategories", "archetypes")
SECTIONS = ("templates", "primitives", "channels", "deviation-types", "budgets") + DOC_SECTIONS
#: how the shipped profile's files are named: their path inside the package
SHIPPED_DIR = "si_lint/profile_data"


@dataclass
class Entry:
    """One defined name: ``detail`` is its text rendering, ``fields`` its JSON fields,
    ``children`` a template's roles or a primitive's parameters."""

    name: str
    detail: str
    file: str
    line: int
    fields: dict = field(default_factory=dict)
    children: list[Entry] = field(default_factory=list)


@dataclass
class Source:
    shown: str
    data: Any
    pos: Any

    def line(self, path: tuple, value: bool = False) -> int:
        return (self.pos.value(path) if value else self.pos.key(path))[0]


def read_source(directory: Path, rel: str, shown_dir: str) -> Source | None:
    """``rel`` in the profile ``directory`` with positions, or None when it is absent,
    unreadable, or resolves outside the directory (SPEC §9 "Trust boundaries")."""
    path = directory / rel
    if os.path.lexists(path) and not resolves_inside(path, directory):
        return None
    raw, _why = read_regular(path, MAX_BYTES)
    if raw is None:
        return None
    loaded = load_bytes(raw)
    return Source(f"{shown_dir}/{rel}", loaded.data, loaded.pos)


def template_entries(directory: Path, shown_dir: str) -> list[Entry]:
    """The band templates of ``templates/*.yaml`` in name order, the first of an id only
    (as :func:`si_lint.profile.load_profile` reads them), each with its roles."""
    tdir = directory / "templates"
    if not tdir.is_dir() or not resolves_inside(tdir, directory):
        return []
    try:
        names = sorted(p.name for p in tdir.iterdir())
    except OSError:
        return []
    out: dict[str, Entry] = {}
    for name in filter(lambda n: n.endswith((".yaml", ".yml", ".json")), names):
        src = read_source(directory, f"templates/{name}", shown_dir)
        head: Any = src.data.get("template") if src and isinstance(src.data, MAPPING) else None
        tid = head.get("id") if isinstance(head, MAPPING) else None
        if src is None or not isinstance(tid, str) or tid in out:
            continue
        title = lookup(head, "title", str)
        where = src.line(("template", "id"), value=True)
        roles = [_role(src, *r) for r in lookup(src.data, "roles", MAPPING, {}).items()]
        fields = {"title": plain(title)}
        out[tid] = Entry(tid, shown(title or ""), src.shown, where, fields, roles)
    return list(out.values())


def plain(value: Any) -> Any:
    """``value`` when it is JSON data of a plain kind (a string, a boolean, a finite
    number, a list of those), else its text (:func:`shown`)."""
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, int):
        return value if -(2**53) < value < 2**53 else shown(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else shown(value)
    if isinstance(value, list) and all(isinstance(v, (str, bool, int)) for v in value):
        return [plain(v) for v in value]
    return shown(value)


def one_line(text: str) -> str:
    """``text`` on one line, without control characters (a profile is hostile input:
    nothing it holds may move the terminal's cursor or colour its output)."""
    return " ".join("".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in text).split())


def shown(value: Any) -> str:
    """A short, never-failing text of a value: YAML spelling for plain ones."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value) if -(10**30) < value < 10**30 else "a huge integer"
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, float):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, bool, int)) for v in value):
        return ", ".join(shown(v) for v in value)
    return f"a {type(value).__name__}"


def _role(src: Source, name: str, spec: Any) -> Entry:
    spec = spec if isinstance(spec, MAPPING) else {}
    parts, fields = [], {}
    for key in sorted(spec, key=lambda k: (k != "type", k != "allowed", str(k))):
        if isinstance(key, str):
            fields[key] = plain(spec[key])
            text = shown(spec[key])
            parts.append(text if key == "type" else f"{key}: {text}")
    return Entry(name, ", ".join(parts), src.shown, src.line(("roles", name)), fields)


def primitive_entries(src: Source) -> list[Entry]:
    out: dict[str, Entry] = {}
    for i, p in enumerate(lookup(src.data, "primitives", list, ())):
        name = p.get("name") if isinstance(p, MAPPING) else None
        if not isinstance(name, str) or name in out:
            continue
        desc, question = lookup(p, "description", str), lookup(p, "question", str)
        where = src.line(("primitives", i, "name"), value=True)
        fields = {"description": desc, "question": question}
        params = [
            _param(src, ("primitives", i, "params", j), par)
            for j, par in enumerate(lookup(p, "params", list, ()))
            if isinstance(par, MAPPING) and isinstance(par.get("name"), str)
        ]
        out[name] = Entry(name, shown(desc or question or ""), src.shown, where, fields, params)
    return list(out.values())


def _param(src: Source, path: tuple, par: Any) -> Entry:
    required = par.get("required", True)
    fields = {"type": plain(par.get("type")), "required": plain(required)}
    parts = [shown(par.get("type")), "required" if required is True else "optional"]
    for key in ("default", "minimum"):
        if key in par:
            fields[key] = plain(par[key])
            parts.append(f"{key}: {shown(par[key])}")
    return Entry(par["name"], ", ".join(parts), src.shown, src.line(path), fields)


def channel_entries(src: Source) -> list[Entry]:
    return [
        Entry(c, "", src.shown, src.line(("channels", i)))
        for i, c in enumerate(lookup(src.data, "channels", list, ()))
        if isinstance(c, str)
    ]


def deviation_type_entries(src: Source) -> list[Entry]:
    """The deviation types that have a synonym list (what SI108 accepts)."""
    out = []
    for dtype, lst in lookup(src.data, "synonyms", MAPPING, {}).items():
        words = [s for s in lst if isinstance(s, str) and s] if isinstance(lst, list) else []
        if isinstance(dtype, str) and words:
            where = src.line(("synonyms", dtype))
            out.append(Entry(dtype, ", ".join(words), src.shown, where, {"synonyms": words}))
    return out


def budget_entries(src: Source) -> list[Entry]:
    return [
        Entry(sid, shown(n), src.shown, src.line(("ratified_budgets", sid)), {"budget": plain(n)})
        for sid, n in lookup(src.data, "ratified_budgets", MAPPING, {}).items()
        if isinstance(sid, str)
    ]


def doc_entries(pdir: str, cwd: Path, root: Path) -> dict[str, list[Entry] | None]:
    """The sections the documents of the profile directory ``pdir`` define (None: the
    document that defines a section is absent)."""
    shown_as = relpath_of(pdir, cwd) or "."
    guard = str(root) if inside(pdir, str(root)) else pdir
    docs = read_profile_dir(pdir, shown_as, guard)

    def names(found, detail, fields) -> list[Entry] | None:
        if found is None:
            return None
        return [Entry(n.name, detail(n), n.file, n.line, fields(n)) for n in found.values()]

    return {
        "behaviors": names(docs.behaviors, lambda n: "", lambda n: {}),
        "stimuli": names(docs.stimuli, lambda n: n.title, lambda n: {"title": n.title}),
        "categories": category_entries(pdir, shown_as, guard),
        "subcategories": names(
            docs.subcategories,
            lambda n: "parents: " + (", ".join(n.parents) or "none"),
            lambda n: {"parents": list(n.parents)},
        ),
        "archetypes": names(
            docs.archetypes,
            lambda n: f"{n.title} (category: {n.category or 'none'})",
            lambda n: {"title": n.title, "category": n.category or None},
        ),
    }


def category_entries(pdir: str, shown_as: str, guard: str) -> list[Entry] | None:
    """The categories of ``capability-categories.md`` and ``safety-categories.md``: the
    sections (``## 1. Diagnostic Accuracy``) that hold archetype headings, by the slug a
    scenario's ``category`` is compared on (SI614). None when neither document is there."""
    out: dict[str, Entry] = {}
    found = False
    for kind, name in (("capability", CAPABILITY_CATEGORIES), ("safety", SAFETY_CATEGORIES)):
        path = os.path.join(pdir, name)
        if not inside(os.path.realpath(path), os.path.realpath(guard)):
            continue
        raw, _why = read_regular(path, MAX_DOC_BYTES)
        if raw is None:
            continue
        found = True
        text = raw[:MAX_DOC_BYTES].decode("utf-8", "replace")
        file = name if shown_as == "." else f"{shown_as}/{name}"
        used = {a.category for a in parse_archetypes(text, file).values()}
        for line, _col, level, heading in headings(text):
            title = re.sub(r"^[0-9.]+\s*", "", heading)  # without its number
            key = slug(title)
            if level <= 2 and key in used and key not in out:
                out[key] = Entry(key, title, file, line, {"title": title, "kind": kind})
    return list(out.values()) if found else None


def vocabulary(
    directory: Path, shown_dir: str, cwd: Path, root: Path, pdir: str | None
) -> tuple[dict, dict[str, list[Entry] | None]]:
    """The registry's ``registry: {profile, version}`` and every section (None: the
    documents that define it are absent)."""
    registry = read_source(directory, "registry.yaml", shown_dir)
    if registry is None or not isinstance(registry.data, MAPPING):
        registry = None
    head = lookup(registry.data, "registry") if registry is not None else None
    header = {k: lookup(head, k, str) for k in ("profile", "version")}
    out: dict[str, list[Entry] | None] = {"templates": template_entries(directory, shown_dir)}
    for section, entries in (
        ("primitives", primitive_entries),
        ("channels", channel_entries),
        ("deviation-types", deviation_type_entries),
        ("budgets", budget_entries),
    ):
        out[section] = entries(registry) if registry is not None else []
    out.update(doc_entries(pdir, cwd, root) if pdir is not None else dict.fromkeys(DOC_SECTIONS))
    return header, out
