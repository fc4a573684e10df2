"""A parsed implementation module (libcst, with the scope and position metadata the
rules need), the finding the rules report, and the syntax helpers they share."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import libcst as cst
from libcst.metadata import (
    Assignment,
    GlobalScope,
    MetadataWrapper,
    PositionProvider,
    QualifiedNameSource,
    ScopeProvider,
)


@dataclass(frozen=True, order=True)
class StaticFinding:
    code: str
    line: int
    col: int
    message: str


class ParsedModule:
    def __init__(self, source: str):
        self.module = cst.parse_module(source)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.scopes = self.wrapper.resolve(ScopeProvider)
        self.positions = self.wrapper.resolve(PositionProvider)
        self.functions = {  # the last definition wins
            stmt.name.value: stmt for stmt in self.module.body if isinstance(stmt, cst.FunctionDef)
        }
        # a later non-def binding of the same name at module level shadows the def
        for stmt in self.module.body:
            for name in _bound_at_module_level(stmt):
                fn = self.functions.get(name)
                if fn is not None and self.pos(stmt)[0] > self.pos(fn)[0]:
                    del self.functions[name]

    def pos(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.positions[node].start
        return p.line, p.column + 1

    def qnames(self, node: cst.CSTNode) -> set[str]:
        """Qualified names of an imported or builtin name (never a local one)."""
        scope = self.scopes.get(node)
        if scope is None:
            return set()
        try:
            names = scope.get_qualified_names_for(node)
        except Exception:  # pragma: no cover - libcst edge cases
            return set()
        return {
            q.name
            for q in names
            if q.source in (QualifiedNameSource.IMPORT, QualifiedNameSource.BUILTIN)
        }

    def _assignments(self, name: cst.Name) -> Any:
        """The assignments of ``name`` in its scope (None when libcst has none to give)."""
        scope = self.scopes.get(name)
        try:
            return None if scope is None else scope[name.value]
        except Exception:  # pragma: no cover
            return None

    def is_module_level(self, name: cst.Name) -> str | None:
        """How `name` (read inside a function) is bound: "global", "import", "builtin",
        or None when it is local to some function (a parameter, a local, a closure)."""
        assignments = self._assignments(name)
        if assignments is None or any(not isinstance(a.scope, GlobalScope) for a in assignments):
            return None
        if not assignments:
            return "builtin" if name.value in _BUILTIN_NAMES else "global"
        kinds = {_KINDS.get(type(a).__name__, "global") for a in assignments}
        return "global" if "global" in kinds else min(kinds)

    def helper_of(self, name: cst.Name) -> cst.FunctionDef | None:
        fn = self.functions.get(name.value)
        assignments = self._assignments(name) if fn is not None else None
        for a in assignments or ():
            if isinstance(a, Assignment) and isinstance(a.scope, GlobalScope) and a.node is fn:
                return fn
        return None


_KINDS = {"ImportAssignment": "import", "BuiltinAssignment": "builtin"}
_BUILTIN_NAMES = set(dir(builtins))


def _bound_at_module_level(stmt: cst.CSTNode) -> list[str]:
    if isinstance(stmt, cst.ClassDef):
        return [stmt.name.value]
    out: list[str] = []
    for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
        if isinstance(small, cst.Assign):
            for t in small.targets:
                out.extend(target_names(t.target))
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            out.extend(target_names(small.target))
        elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(
            small.names, cst.ImportStar
        ):
            for alias in small.names:
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    out.append(alias.asname.name.value)
                elif isinstance(alias.name, cst.Name):
                    out.append(alias.name.value)
    return out


def target_names(target: cst.BaseExpression) -> list[str]:
    return [name.value for name in target_name_nodes(target)]


def target_name_nodes(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for el in target.elements for name in target_name_nodes(el.value)]
    if isinstance(target, cst.StarredElement):
        return target_name_nodes(target.value)
    return []


def base_name(node: cst.BaseExpression) -> cst.Name | None:
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def all_params(params: cst.Parameters) -> list[cst.Param]:
    stars = [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    return [*params.posonly_params, *params.params, *params.kwonly_params, *stars]
