"""Layers only point down (issue 12): tests that fail on an import cycle between si-lint's
modules (lazy imports inside functions included), on an import that points up a layer of
``LAYERS`` (ARCHITECTURE.md's list), on a module in no layer, and on an import of another
module's private name."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PKG = Path(__file__).resolve().parents[1] / "si_lint"

#: cycles that exist today and are someone's open work (issue 12); a new one fails
KNOWN_CYCLES: set[frozenset] = set()


def _module(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> nx.DiGraph:
    """Module → modules it imports (at the top or inside a function), si_lint only."""
    modules = {_module(p): p for p in PKG.rglob("*.py")}
    g = nx.DiGraph()
    for mod, path in modules.items():
        g.add_node(mod)
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    head = ".".join(base + ([node.module] if node.module else []))
                else:
                    head = node.module or ""
                names = [head] + [f"{head}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if name in modules and name != mod:
                    g.add_edge(mod, name)
    return g


def _under(mod: str, prefix: str) -> bool:
    return mod == prefix or mod.startswith(prefix + ".")


def test_no_import_cycles():
    g = import_graph()
    # a package importing its own submodules (``from .x import y`` in __init__) is no cycle
    h = nx.DiGraph((u, v) for u, v in g.edges if not _under(u, v) and not _under(v, u))
    cycles = {frozenset(c) for c in nx.simple_cycles(h)}
    assert cycles - KNOWN_CYCLES == set()


def test_the_checks_and_the_pipeline_meet_in_the_registry():
    g = import_graph()
    assert not any(_under(v, "si_lint.pipeline") for v in g.successors("si_lint.checks.base"))
    assert not any(
        _under(v, "si_lint.checks")
        for v in nx.descendants(g, "si_lint.registry")
        if v != "si_lint.checks"
    )


def private_imports() -> list[tuple[str, str, str]]:
    """``(importer, module, name)`` for every ``from M import _name`` across si_lint's
    modules (a name with a leading underscore is its module's own business)."""
    out = []
    for path in sorted(PKG.rglob("*.py")):
        mod = _module(path)
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                head = ".".join(base + ([node.module] if node.module else []))
            else:
                head = node.module or ""
            if not _under(head, "si_lint") or head == mod:
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__"):
                    out.append((mod, head, name))
    return out


def test_no_module_imports_another_modules_private_name():
    assert private_imports() == []


#: the layers of ARCHITECTURE.md, from the bottom: a module may import its own layer and
#: the ones below it, never one above
LAYERS = [
    [
        "si_lint",
        "si_lint.findings",
        "si_lint.mapping",
        "si_lint.errors",
        "si_lint.limits",
        "si_lint.fsutil",
        "si_lint.source",
        "si_lint.registry",
    ],
    ["si_lint.loader", "si_lint.root", "si_lint.config", "si_lint.catalogue", "si_lint.schemas"],
    [
        "si_lint.discovery",
        "si_lint.roots",
        "si_lint.cache",
        "si_lint.codec",
        "si_lint.fix",
        "si_lint.corpus",
        "si_lint.model",
        "si_lint.profile",
        "si_lint.profile_docs",
        "si_lint.graph",
        "si_lint.evaluator",
        "si_lint.eio",
        "si_lint.progress",
    ],
    ["si_lint.checks"],
    ["si_lint.pipeline"],
    ["si_lint.report", "si_lint.baseline", "si_lint.review", "si_lint.commands", "si_lint.server"],
    ["si_lint.cli", "si_lint.api"],
]

#: the one reference up: ``si_lint.__getattr__`` hands out the API's names, importing
#: ``si_lint.api`` when one is first asked for (never at ``import si_lint``)
LAZY_FACADE = {("si_lint", "si_lint.api")}


def _layer(mod: str) -> int | None:
    """The layer of ``mod``: that of the longest prefix listed (``si_lint`` alone is the
    package's ``__init__``, the version)."""
    best = None
    for i, names in enumerate(LAYERS):
        for name in names:
            if (mod == name or (name != "si_lint" and _under(mod, name))) and (
                best is None or len(name) > best[1]
            ):
                best = (i, len(name))
    return None if best is None else best[0]


def test_every_module_has_a_layer_and_imports_only_down():
    g = import_graph()
    unplaced = sorted(m for m in g.nodes if _layer(m) is None)
    assert unplaced == [], "add these modules to LAYERS (and to ARCHITECTURE.md)"
    up = sorted((u, v) for u, v in g.edges if _layer(v) > _layer(u) and (u, v) not in LAZY_FACADE)
    assert up == []
