"""Hover, go-to-definition, completion and code actions, as plain functions of a
:class:`~si_lint.server.state.CorpusState` and a buffer (no LSP types here).

Positions in and out are 0-based (line, character) in code points; ``lsp.py`` converts
them to the client's encoding. A *target* is what a request points at:
``(abspath, line0, char0)`` for a definition, markdown text for a hover.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..loader import load_bytes

_SUPPRESS = re.compile(r"#\s*si-lint:\s*(?:disable-file|disable)\s*=\s*")
_CODE = re.compile(r"[A-Za-z0-9_]+")


# --------------------------------------------------------------------------------------
# what is under the cursor


@dataclass
class Spot:
    path: tuple  # document path of the node under the cursor
    on: str  # "key" | "value"
    data: Any  # the data of the buffer's document the cursor is in (plain)
    index: int = 0  # that document's index in the file


def _token_end(src: str, col: int) -> int:
    from ..report.sarif import token_end

    return token_end(src, col)


def node_at(text: str, line0: int, char0: int) -> Spot | None:
    """The key or scalar value under the cursor, from the buffer as it is (None when the
    buffer does not load, or the cursor is on no key or scalar)."""
    loaded = load_bytes(text.encode("utf-8"))
    if loaded.failed:
        return None
    lines = text.split("\n")
    if not 0 <= line0 < len(lines):
        return None
    src = lines[line0]
    line, col = line0 + 1, char0 + 1
    best = None
    for doc in _documents(loaded):
        for on, table in (("key", doc.pos.k), ("value", doc.pos.v)):
            for path, (l, c) in table.items():
                if l != line or c > col or not path:
                    continue
                if (
                    best is None
                    or c > best[0]
                    or (c == best[0] and on == "value" and best[2] == "key")
                ):
                    best = (c, path, on, doc)
    if best is None:
        return None
    c, path, on, doc = best
    if col >= _token_end(src, c) and not (col == _token_end(src, c) and char0 > 0):
        return None
    value = _get(doc.data, path)
    if on == "value" and isinstance(value, (dict, list)):
        return None  # a flow collection's bracket: nothing to say
    return Spot(path, on, doc.data, getattr(doc, "index", 0))


def _documents(loaded) -> list:
    """The loaded documents of a file (one per YAML document of a stream)."""
    docs = getattr(loaded, "documents", None)
    return list(docs) if docs is not None else [loaded]


def _get(data: Any, path: tuple) -> Any:
    node = data
    for p in path:
        if isinstance(node, Mapping) and p in node:
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return None
    return node


def _template_of(data: Any) -> str | None:
    scoring = data.get("scoring") if isinstance(data, Mapping) else None
    if not isinstance(scoring, Mapping):
        return None
    for key in ("archetype_template", "template"):
        if isinstance(scoring.get(key), str):
            return scoring[key]
    return None


def _role_path(path: tuple) -> str | None:
    """The role a key binds: ``scoring.<role>`` (published shape) or
    ``scoring.bindings.<role>`` (the former spelling)."""
    if len(path) == 2 and path[0] == "scoring" and isinstance(path[1], str):
        return path[1]
    if len(path) == 3 and path[:2] == ("scoring", "bindings") and isinstance(path[2], str):
        return path[2]
    return None


def _in_predicate(path: tuple) -> bool:
    return "when" in path


def _yaml_block(value: Any) -> str:
    import json

    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n```"


# --------------------------------------------------------------------------------------
# hover


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
    from ..catalogue import rules

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


def hover(state, abspath: str, text: str, line0: int, char0: int) -> str | None:
    lines = text.split("\n")
    if 0 <= line0 < len(lines):
        code = suppression_code_at(lines[line0], char0)
        if code:
            return rule_markdown(code) or f"`{code}`: no such rule"
    spot = node_at(text, line0, char0)
    if spot is None:
        return None
    profile = state.profile
    path, data = spot.path, spot.data
    value = _get(data, path)
    role = _role_path(path) if spot.on == "key" else None
    template = _template_of(data)
    if role is not None and template is not None:
        tdata = (profile.templates or {}).get(template)
        roles = tdata.get("roles") if isinstance(tdata, Mapping) else None
        if isinstance(roles, Mapping) and role in roles:
            return f"**role** `{role}` of template `{template}`\n\n" + _yaml_block(roles[role])
    if spot.on == "key" and _in_predicate(path) and isinstance(path[-1], str):
        prim = profile.primitives.get(path[-1])
        if prim is not None:
            return f"**primitive** `{path[-1]}` (registry)\n\n" + _yaml_block(prim)
    if spot.on == "value" and path and path[-1] == "ref" and isinstance(value, str):
        dev = _deviation(data, value)
        if dev is not None:
            return f"**deviation** `{value}` (`injection.deviations[{dev[0]}]`)\n\n" + _yaml_block(
                dev[1]
            )
        return f"`{value}`: no deviation of this scenario has that id"
    if (
        spot.on == "value"
        and path
        and path[-1] in ("archetype_template", "template")
        and isinstance(value, str)
    ):
        tdata = (profile.templates or {}).get(value)
        if isinstance(tdata, Mapping):
            head = tdata.get("template") if isinstance(tdata.get("template"), Mapping) else {}
            roles = tdata.get("roles") if isinstance(tdata.get("roles"), Mapping) else {}
            return (
                f"**template** `{value}` {head.get('title', '')}\n\n{head.get('bands', '')}\n\n"
                f"roles: {', '.join(f'`{r}`' for r in roles)}"
            )
    if spot.on == "value" and path and path[-1] == "deviation_type" and isinstance(value, str):
        syn = profile.synonyms.get(value)
        if syn is not None:
            return f"**synonyms** of `{value}` (registry)\n\n" + _yaml_block(syn)
    if spot.on == "value" and path and path[-1] == "behavior" and isinstance(value, str):
        b = _behavior(state, abspath, value)
        if b is not None:
            return f"**behavior** `{value}` (behavior-definitions.md)\n\n{b[0]}"
    if spot.on == "value" and path == ("scenario",) and isinstance(value, str):
        doc = _scenario_doc(state, value)
        if doc is not None:
            title = doc.data.get("title") or doc.data.get("name") or ""
            return f"**scenario** `{value}` {title} ({doc.relpath})"
    return None


def _deviation(data: Any, ref: str) -> tuple[int, Any] | None:
    devs = _get(data, ("injection", "deviations"))
    if isinstance(devs, list):
        for i, d in enumerate(devs):
            if isinstance(d, Mapping) and d.get("id") == ref:
                return i, d
    return None


def _scenario_doc(state, sid: str):
    for d in state.documents():
        if d.kind == "scenario" and isinstance(d.data, dict) and d.data.get("id") == sid:
            return d
    return None


def _profile_names(state, abspath: str, kind: str) -> dict:
    """The names (``behaviors``, ``stimuli``, …) the OASIS profile documents of the file's
    directory define (si_lint.profile_docs, read by the state as ``check`` reads them)."""
    import os

    pdir = getattr(state, "profile_dirs", {}).get(os.path.dirname(abspath))
    docs = getattr(state, "profile_docs", {}).get(pdir) if pdir is not None else None
    names = getattr(docs, kind, None) if docs is not None else None
    return names if isinstance(names, dict) else {}


def _markdown_section(path: str, line: int) -> str:
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


def _behavior(state, abspath: str, name: str) -> tuple[str, tuple | None] | None:
    """(the definition's text, its location) of a behavior of the file's profile."""
    import os

    n = _profile_names(state, abspath, "behaviors").get(name)
    if n is None:
        return None
    file = os.path.normpath(os.path.join(str(state.cwd), n.file))
    return _markdown_section(file, n.line), (file, n.line - 1, max(n.col - 1, 0))


def _behaviors(state, abspath: str) -> list[tuple[str, str]]:
    names = _profile_names(state, abspath, "behaviors")
    return [
        (k, getattr(v, "title", "") or "behavior-definitions.md") for k, v in sorted(names.items())
    ]


# --------------------------------------------------------------------------------------
# go to definition


def _profile_file(state, what: str, name: str) -> tuple[str, tuple, str] | None:
    """(file, document path, on) where the profile defines a template, role or primitive."""
    root = getattr(state.profile, "root", None)
    if root is None:
        return None
    root = Path(root)
    if what == "primitive":
        reg = root / "registry.yaml"
        data = _load(reg)
        prims = data.get("primitives") if isinstance(data, Mapping) else None
        if isinstance(prims, list):
            for i, p in enumerate(prims):
                if isinstance(p, Mapping) and p.get("name") == name:
                    return str(reg), ("primitives", i, "name"), "value"
        return None
    tid, _, role = name.partition("/")
    tdir = root / "templates"
    if not tdir.is_dir():
        return None
    for path in sorted(tdir.iterdir()):
        data = _load(path)
        head = data.get("template") if isinstance(data, Mapping) else None
        if isinstance(head, Mapping) and head.get("id") == tid:
            if what == "role":
                return str(path), ("roles", role), "key"
            return str(path), ("template", "id"), "value"
    return None


def _load(path: Path) -> Any:
    try:
        return load_bytes(path.read_bytes()).data
    except OSError:
        return None


def _position(
    abspath: str, path: tuple, on: str, text: str | None = None, index: int | None = None
) -> tuple[str, int, int]:
    if text is None:
        try:
            text = Path(abspath).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return abspath, 0, 0
    docs = _documents(load_bytes(text.encode("utf-8")))
    doc = next((d for d in docs if getattr(d, "index", 0) == index), docs[0] if docs else None)
    if doc is None:
        return abspath, 0, 0
    line, col = doc.pos.value(path) if on == "value" else doc.pos.key(path)
    return abspath, line - 1, col - 1


def definition(
    state, abspath: str, text: str, line0: int, char0: int
) -> tuple[str, int, int] | None:
    spot = node_at(text, line0, char0)
    if spot is None:
        return None
    path, data = spot.path, spot.data
    value = _get(data, path)
    template = _template_of(data)
    role = _role_path(path) if spot.on == "key" else None
    if role is not None and template is not None:
        hit = _profile_file(state, "role", f"{template}/{role}")
        if hit:
            return _position(hit[0], hit[1], hit[2])
    if (
        spot.on == "key"
        and _in_predicate(path)
        and isinstance(path[-1], str)
        and path[-1] in state.profile.primitives
    ):
        hit = _profile_file(state, "primitive", path[-1])
        if hit:
            return _position(hit[0], hit[1], hit[2])
    if spot.on == "value" and isinstance(value, str) and path:
        if path[-1] == "ref":
            dev = _deviation(data, value)
            if dev is not None:
                return _position(
                    abspath, ("injection", "deviations", dev[0], "id"), "value", text, spot.index
                )
        if path[-1] in ("archetype_template", "template"):
            hit = _profile_file(state, "template", value)
            if hit:
                return _position(hit[0], hit[1], hit[2])
        if path == ("scenario",):
            doc = _scenario_doc(state, value)
            if doc is not None:
                return _position(
                    doc.abspath,
                    ("id",),
                    "value",
                    state.text_of(doc.abspath),
                    getattr(doc, "index", None),
                )
        if path[-1] == "behavior":
            b = _behavior(state, abspath, value)
            if b is not None and b[1] is not None:
                return b[1]
    return None


# --------------------------------------------------------------------------------------
# completion

_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([^\s#:][^:#]*?)\s*:(?:\s|$)")


def _parents(lines: list[str], line0: int, indent: int) -> list[str]:
    """The chain of mapping keys that encloses a line indented by ``indent`` (from the
    indentation alone: the buffer may not parse while it is typed)."""
    chain: list[str] = []
    want = indent
    for i in range(line0 - 1, -1, -1):
        src = lines[i]
        if not src.strip() or src.lstrip().startswith("#"):
            continue
        m = _KEY_LINE.match(src)
        ind = len(src) - len(src.lstrip(" "))
        if ind < want and m:
            chain.append(m.group(2).strip("'\""))
            want = ind
            if ind == 0:
                break
        elif ind < want:
            want = ind
    return list(reversed(chain))


def _buffer_template(lines: list[str]) -> str | None:
    in_scoring = False
    for src in lines:
        if re.match(r"^scoring\s*:", src):
            in_scoring = True
            continue
        if in_scoring and src[:1].strip() and not src.lstrip().startswith("#"):
            in_scoring = False
        if in_scoring:
            m = re.match(r"^\s+(?:archetype_template|template)\s*:\s*['\"]?([^'\"#\s]+)", src)
            if m:
                return m.group(1)
    return None


@dataclass
class Item:
    label: str
    detail: str
    kind: str  # "property" | "value"
    insert: str | None = None


def completion(state, abspath: str, text: str, line0: int, char0: int) -> list[Item]:
    lines = text.split("\n")
    if not 0 <= line0 < len(lines):
        return []
    before = lines[line0][:char0]
    profile = state.profile
    m = re.match(r"^(\s*)(?:-\s+)?(?:\{\s*)?([A-Za-z_]*)\s*:\s*['\"]?([^'\"\s]*)$", before)
    if m:
        key = m.group(2)
        chain = _parents(lines, line0, len(m.group(1)))
        if key in ("archetype_template", "template") and chain == ["scoring"]:
            return [
                Item(
                    t,
                    str((v.get("template") or {}).get("title", ""))
                    if isinstance(v, Mapping)
                    else "",
                    "value",
                )
                for t, v in sorted((profile.templates or {}).items())
            ]
        if key == "behavior":
            return [Item(name, desc, "value") for name, desc in _behaviors(state, abspath)]
        return []
    m = re.match(r"^(\s*)(?:-\s+)?([A-Za-z_]*)$", before)
    if not m:
        return []
    chain = _parents(lines, line0, len(m.group(1)))
    if chain not in (["scoring"], ["scoring", "bindings"]):
        return []
    template = _buffer_template(lines)
    out: list[Item] = []
    tdata = (profile.templates or {}).get(template) if template else None
    roles = tdata.get("roles") if isinstance(tdata, Mapping) else None
    present = {
        mm.group(2).strip()
        for src in lines
        if (mm := _KEY_LINE.match(src)) and len(mm.group(1)) == len(m.group(1))
    }
    if isinstance(roles, Mapping):
        for role, spec in roles.items():
            if role in present and role != m.group(2):
                continue
            rtype = spec.get("type") if isinstance(spec, Mapping) else ""
            out.append(Item(str(role), f"{template} role ({rtype})", "property", f"{role}: "))
    if chain == ["scoring"] and "archetype_template" not in present:
        out.append(
            Item(
                "archetype_template",
                "the Layer-2 template this scenario binds",
                "property",
                "archetype_template: ",
            )
        )
    return out


# --------------------------------------------------------------------------------------
# code actions


@dataclass
class Action:
    title: str
    kind: str  # "quickfix" | "source.fixAll"
    new_text: str  # the whole buffer after the action
    codes: tuple[str, ...]
    preferred: bool = False


def is_safe(finding) -> bool:
    """Whether ``--fix`` applies this finding's fix by itself (the rest need
    ``--unsafe-fixes``): ``si_lint.fix``'s own classification when it has one."""
    from .. import fix as fixmod

    probe = getattr(fixmod, "is_safe", None)
    if callable(probe):
        try:
            return bool(probe(finding))
        except Exception:
            pass
    safe = getattr(fixmod, "SAFE_FIX_CODES", None)
    if safe is not None:
        return finding.code in safe
    return True  # a --fix without the distinction applies every fix


def _fixed(text: str, findings: list, relpath: str) -> str | None:
    """The text after the fixes of ``findings`` -- what ``--fix`` writes for them (each
    applied to the document of its file it is about)."""
    from .. import fix as fixmod

    json_file = relpath.endswith(".json")
    try:
        stream = getattr(fixmod, "fix_stream", None)
        if stream is not None:
            by_doc: dict = {}
            for f in findings:
                by_doc.setdefault(getattr(f, "document", None), []).extend(fixmod.fixes_of(f.fix))
            new, applied = stream(text, by_doc, json_file=json_file)
        else:
            new, applied = fixmod.fix_text(
                text, [x for f in findings for x in fixmod.fixes_of(f.fix)], json_file=json_file
            )
    except Exception:
        return None
    return new if applied and new != text else None


def code_actions(state, abspath: str, text: str, first0: int, last0: int) -> list[Action]:
    """Fixes and "disable CODE for this line" for the findings on lines first0..last0."""
    from ..fix import fixes_of

    findings = state.findings_of(abspath)
    rel = state.files[abspath].relpath if abspath in state.files else abspath
    out: list[Action] = []
    seen_disable: set[tuple[str, int]] = set()
    for f in findings:
        if not first0 <= f.line - 1 <= last0:
            continue
        fixes = fixes_of(f.fix)
        if fixes:
            new = _fixed(text, [f], rel)
            if new is not None:
                safe = is_safe(f)
                label = f.help or f.message
                out.append(
                    Action(
                        f"Fix {f.code}: {label}" + ("" if safe else " (unsafe fix)"),
                        "quickfix",
                        new,
                        (f.code,),
                        preferred=safe,
                    )
                )
        if f.code not in ("SI000",) and (f.code, f.line) not in seen_disable:
            seen_disable.add((f.code, f.line))
            new = disable_text(text, f.code, f.line)
            if new is not None:
                out.append(Action(f"Disable {f.code} for this line", "quickfix", new, (f.code,)))
    every = [f for f in findings if fixes_of(f.fix) and is_safe(f)]
    if every:
        new = _fixed(text, every, rel)
        if new is not None:
            out.append(
                Action(
                    "Fix all safe si-lint fixes",
                    "source.fixAll",
                    new,
                    tuple(sorted({f.code for f in every})),
                )
            )
    return out


def disable_text(text: str, code: str, line: int) -> str | None:
    """The buffer with a suppression of ``code`` for ``line`` (1-based): appended to the
    line's own ``si-lint: disable=`` comment, or a new comment at its end, or — when the
    end of the line is inside a scalar — a comment line above it. The result must load to
    the same data and hold a suppression that covers the line, or nothing is offered."""
    from ..pipeline.perfile import scan_suppressions

    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    if not 1 <= line <= len(lines):
        return None
    before = load_bytes(text.encode("utf-8"))
    src = lines[line - 1]
    candidates = []
    m = re.search(r"(#\s*si-lint:\s*disable\s*=\s*[A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)", src)
    if m:
        candidates.append(
            lines[: line - 1] + [src[: m.end()] + "," + code + src[m.end() :]] + lines[line:]
        )
    else:
        candidates.append(
            lines[: line - 1] + [src.rstrip() + f"  # si-lint: disable={code}"] + lines[line:]
        )
    indent = src[: len(src) - len(src.lstrip(" -"))].replace("-", " ")
    candidates.append(
        lines[: line - 1] + [f"{indent}# si-lint: disable={code}", src] + lines[line:]
    )
    for cand in candidates:
        new = nl.join(cand)
        after = load_bytes(new.encode("utf-8"))
        if after.failed or [d.data for d in _documents(after)] != [
            d.data for d in _documents(before)
        ]:
            continue
        target = line + (1 if len(cand) > len(lines) else 0)
        for sl, _c, kind, codes in scan_suppressions(after.text or "", after.quiet_spans):
            if code in codes and (
                (kind == "line" and sl == target) or (kind == "above" and sl + 1 == target)
            ):
                return new
    return None
