"""The reference graph as a picture to read (``si-lint graph``'s DOT and SVG; docs/graph.md):
files are clusters, isolated nodes hidden unless ``all_nodes`` (or in ``keep``, or with a
finding), the edges of one relation between two nodes merged, findings painted. Sorted."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from .export import path_text

#: DOT shape per node kind
SHAPES = dict(
    pair.split(":")
    for pair in "scenario:box template:component role:ellipse primitive:hexagon synonyms:note "
    "deviation:diamond fixture:folder evidence:folder behavior:cds stimulus:parallelogram "
    "subcategory:tab archetype:house".split()
)
#: nodes that stand for their whole document
DOC_KINDS = ("scenario", "template", "fixture", "evidence")
#: fill colour per severity painted
FILL = {"error": "#f4cccc", "warning": "#fff2cc"}
BUILTIN = "built-in profile"
#: locations listed in a merged edge's tooltip
MAX_WHERE = 10


def dot_id(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _where(d: Mapping[str, Any]) -> str:
    return f"{d['file']}:{d.get('line') or 1}:{d.get('col') or 1}"


def _scope(d: Mapping[str, Any]) -> str | None:
    """The document path a node stands for (a deviation's list item, a role's entry), or
    None for a node that stands for its whole document or for no part of one."""
    kind, path = d.get("kind"), d.get("path")
    if kind in DOC_KINDS or not path:
        return None
    return path_text(path[:-1] if path[-1] in ("id", "name") else path) or None


def _inside(path: str, scope: str) -> bool:
    return path == scope or (path.startswith(scope) and path[len(scope)] in ".[")


def _owner(finding: Mapping[str, Any], candidates: list[tuple[str, Mapping]]) -> str | None:
    """The node a finding is about: the innermost node whose part of the document holds its
    json_path, else the node of the whole document, else the last node before it."""
    at = finding.get("json_path")
    if at:
        scoped = [(len(s), n) for n, d in candidates if (s := _scope(d)) and _inside(at, s)]
        if scoped:
            return max(scoped)[1]
    whole = min((n for n, d in candidates if d.get("kind") in DOC_KINDS), default=None)
    if whole is not None:
        return whole
    pos = (finding.get("line") or 0, finding.get("column") or 0)
    at = [((d.get("line") or 0, d.get("col") or 0), n) for n, d in candidates]
    return max((a for a in at if a[0] <= pos), default=((0, 0), None))[1]


def findings_by_node(graph, findings: Iterable[Mapping[str, Any]]) -> dict[str, list[dict]]:
    """node id -> the errors and warnings (``check --format json``'s diagnostics) on it."""
    by_doc: dict[tuple, list[tuple[str, Mapping]]] = {}  # (file, document) -> nodes
    for n, d in graph.nodes(data=True):
        if d.get("file") and not d.get("missing"):
            by_doc.setdefault((d["file"], d.get("document") or 0), []).append((n, d))
    out: dict[str, list[dict]] = {}
    for f in findings:
        if f.get("severity") not in FILL:
            continue
        owner = _owner(f, by_doc.get((f.get("path"), f.get("document") or 0), []))
        if owner is not None:
            out.setdefault(owner, []).append(dict(f))
    for found in out.values():
        found.sort(key=lambda f: (f.get("line") or 0, f.get("column") or 0, f["code"]))
    return out


def _counted(found: list[dict]) -> str:
    counts = [(sev, sum(1 for f in found if f["severity"] == sev)) for sev in FILL]
    return ", ".join(f"{n} {sev}{'s' if n > 1 else ''}" for sev, n in counts if n)


def _short(nid: str, d: Mapping[str, Any]) -> str:
    """Its kind and the part of its name its file's box does not already say."""
    kind, name = d.get("kind"), d.get("name")
    if d.get("missing") or not isinstance(kind, str) or not isinstance(name, str):
        return nid
    if kind in ("deviation", "role", "fixture", "evidence"):
        name = name.rsplit("/", 1)[-1]
    return f"{kind}: {name}"


def _node_line(nid: str, d: Mapping[str, Any], found: list[dict], indent: str) -> str:
    label = _short(nid, d) + (f"\n{_counted(found)}" if found else "")
    attrs = [f"label={dot_id(label)}", f"shape={SHAPES.get(d.get('kind') or '', 'ellipse')}"]
    if d.get("missing"):
        attrs.append("style=dashed, color=red, fontcolor=red")
    elif found:
        worst = "error" if any(f["severity"] == "error" for f in found) else "warning"
        attrs.append(f'style=filled, fillcolor="{FILL[worst]}"')
    tip = [nid] + ([_where(d)] if d.get("file") else [])
    tip += [
        f"{f.get('line')}:{f.get('column')}: {f['code']} [{f['severity']}] {f['message']}"
        for f in found
    ]
    attrs.append(f"tooltip={dot_id(chr(10).join(tip))}")
    return f"{indent}{dot_id(nid)} [{', '.join(attrs)}];"


def _cluster_of(d: Mapping[str, Any]) -> str | None:
    return None if d.get("missing") else d.get("file") or (BUILTIN if d.get("builtin") else None)


def _merged_edges(graph) -> list[tuple[str, str, str, list[str]]]:
    groups: dict[tuple[str, str, str], list[str]] = {}
    for u, v, d in graph.edges(data=True):
        where = groups.setdefault((u, v, str(d.get("rel", ""))), [])
        where.append(_where(d) if d.get("file") else "")
    return [(u, v, rel, sorted(w)) for (u, v, rel), w in sorted(groups.items())]


def _edge_line(u: str, v: str, rel: str, where: list[str]) -> str:
    label = rel if len(where) == 1 else f"{rel} ×{len(where)}"
    attrs = [f"label={dot_id(label)}"]
    shown = [w for w in where if w]
    if shown:
        more = len(shown) - MAX_WHERE
        tip = "\n".join(shown[:MAX_WHERE]) + (f"\n… {more} more" if more > 0 else "")
        attrs.append(f"tooltip={dot_id(tip)}")
    return f"  {dot_id(u)} -> {dot_id(v)} [{', '.join(attrs)}];"


def to_dot(
    graph,
    *,
    all_nodes: bool = False,
    keep: Collection[str] = (),
    findings: Mapping[str, list[dict]] | None = None,
) -> str:
    findings = findings or {}
    shown = sorted(
        n for n in graph.nodes if all_nodes or n in keep or n in findings or graph.degree(n) > 0
    )
    clusters: dict[str | None, list[str]] = {}
    for n in shown:
        clusters.setdefault(_cluster_of(graph.nodes[n]), []).append(n)
    files = sorted(k for k in clusters if k not in (None, BUILTIN))
    lines = [
        "digraph corpus {",
        "  rankdir=LR;",
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=8];',
    ]
    for i, name in enumerate(files + ([BUILTIN] if BUILTIN in clusters else [])):
        lines += [
            f'  subgraph "cluster_{i}" {{',
            f'    label={dot_id(name)}; style="rounded,dashed"; color=gray50;',
            '    fontname="Helvetica"; fontsize=9;',
            *(_node_line(n, graph.nodes[n], findings.get(n, []), "    ") for n in clusters[name]),
            "  }",
        ]
    lines += [
        _node_line(n, graph.nodes[n], findings.get(n, []), "  ") for n in clusters.get(None, [])
    ]
    visible = set(shown)
    lines += [_edge_line(*e) for e in _merged_edges(graph) if e[0] in visible and e[1] in visible]
    return "\n".join([*lines, "}"]) + "\n"
