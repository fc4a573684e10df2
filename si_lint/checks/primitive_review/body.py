"""SI503 (nondeterminism), SI505 (a set loop that can exit) and SI506 (module-level state):
one visitor per function body."""

from __future__ import annotations

from typing import Any

import libcst as cst

from .names import MUTATORS, nondet_category
from .parsed import ParsedModule, StaticFinding, base_name, target_name_nodes


class BodyVisitor(cst.CSTVisitor):
    """SI503, SI505 and SI506 in one function (the primitive or a helper it reaches); the
    module-level helpers it calls are collected in ``helpers``."""

    def __init__(self, mod: ParsedModule, where: str):
        self.mod = mod
        self.where = where  # "" for the primitive, " (in helper `h`, reached from `p`)"
        self.findings: list[StaticFinding] = []
        self.helpers: list[cst.FunctionDef] = []
        self.global_names: set[str] = set()

    def add(self, code: str, node: cst.CSTNode, message: str) -> None:
        line, col = self.mod.pos(node)
        self.findings.append(StaticFinding(code, line, col, message + self.where))

    def state(self, node: cst.CSTNode, what: str) -> None:
        self.add("SI506", node, f"{what}: a primitive must not keep state")

    def _skip(self, node: cst.CSTNode) -> bool:
        return False

    # never look into these
    visit_Annotation = visit_Import = visit_ImportFrom = _skip

    def visit_Global(self, node: cst.Global) -> bool:
        self.global_names.update(item.name.value for item in node.names)
        return False

    # SI503
    def _nondet(self, node: cst.BaseExpression) -> bool:
        base = node
        while isinstance(base, cst.Attribute):
            base = base.value
        if not isinstance(base, cst.Name):
            return False  # `f().attr`: the reference is judged inside, at `f`
        for q in sorted(self.mod.qnames(node)):
            category = nondet_category(q)
            if category is not None:
                why = "a primitive must be a pure function of its arguments"
                self.add("SI503", node, f"`{q}` is nondeterministic ({category}): {why}")
                return True
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if self._nondet(node):
            return False
        # `x.attr`: the attribute name is not a reference of its own
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> bool:
        if self._nondet(node):
            return False
        helper = self.mod.helper_of(node)
        if helper is not None:
            self.helpers.append(helper)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # the keyword is not a reference
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        if node.default is not None:
            node.default.visit(self)
        return False

    # SI506
    def _store(self, target: cst.BaseExpression) -> None:
        for name in target_name_nodes(target):
            if name.value in self.global_names:
                self.state(name, f"assignment to module-level `{name.value}` (declared `global`)")
        targets = [target]
        if isinstance(target, (cst.Tuple, cst.List)):
            targets = [el.value for el in target.elements]
        for t in targets:
            if isinstance(t, cst.StarredElement):
                t = t.value
            if (
                isinstance(t, cst.Subscript)
                and isinstance(t.value, cst.Call)
                and (self.mod.qnames(t.value.func) & {"builtins.globals", "builtins.vars"})
            ):
                self.state(t, "write through `globals()`")
                continue
            if isinstance(t, (cst.Subscript, cst.Attribute)):
                base = base_name(t)
                if base is not None and self.mod.is_module_level(base) in ("global", "import"):
                    self.state(t, f"write to module-level `{base.value}`")

    def _target(self, node: Any) -> None:
        self._store(node.target)

    visit_AssignTarget = visit_AugAssign = visit_Del = visit_NamedExpr = _target

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        if node.value is not None:
            self._store(node.target)
            node.target.visit(self)
            node.value.visit(self)
        return False

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._store(node.asname.name)

    def visit_Call(self, node: cst.Call) -> None:
        f = node.func
        if (
            isinstance(f, cst.Attribute)
            and f.attr.value in MUTATORS
            and isinstance(f.value, cst.Name)
            and self.mod.is_module_level(f.value) == "global"
        ):
            self.state(node, f"`{f.value.value}.{f.attr.value}(...)` mutates module-level state")

    # SI505 (and SI506 for loop targets)
    def visit_For(self, node: cst.For) -> None:
        self._store(node.target)
        if _is_set_expr(self.mod, node.iter) and _can_exit(node):
            self.add(
                "SI505",
                node.iter,
                "the loop iterates a set and can return or break: "
                "the result depends on iteration order (wrap it in "
                "`sorted(...)`)",
            )


def _is_set_expr(mod: ParsedModule, node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.Set, cst.SetComp)) or (
        isinstance(node, cst.Call)
        and bool(mod.qnames(node.func) & {"builtins.set", "builtins.frozenset"})
    )


def _can_exit(loop: cst.For) -> bool:
    """Whether the loop's body holds a ``return``, or a ``break`` of this loop (one in an
    inner loop's ``else`` breaks this one)."""
    stack: list[tuple[cst.CSTNode, bool]] = [(loop.body, False)]
    while stack:
        node, inner = stack.pop()
        if isinstance(node, cst.Return) or (isinstance(node, cst.Break) and not inner):
            return True
        if isinstance(node, (cst.For, cst.While)):
            stack.append((node.body, True))
            if node.orelse is not None:
                stack.append((node.orelse, inner))
        elif not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend((child, inner) for child in node.children)
    return False
