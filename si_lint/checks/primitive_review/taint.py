"""SI504: a small flow-sensitive taint walk over the primitive's statements (a ``re``
pattern built from a parameter without ``re.escape``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import libcst as cst

from .names import MUTATORS, RE_ESCAPE, RE_FUNCS
from .parsed import ParsedModule, StaticFinding, all_params, base_name, target_names


class Taint:
    """SI504 over a block of statements: ``t`` is the set of local names derived from a
    parameter; module-level helpers called with such a value are followed."""

    def __init__(self, mod: ParsedModule, primitive: str):
        self.mod = mod
        self.primitive = primitive
        self.where = ""  # " (in helper `h`, reached from `p`)" while inside a helper
        self.findings: list[StaticFinding] = []
        self.visited: set[tuple[int, frozenset[str]]] = set()

    def follow(self, call: cst.Call, t: frozenset[str]) -> None:
        """A module-level helper called with a value derived from a parameter: review the
        helper with the matching parameters tainted (once per helper and taint set)."""
        helper = self.mod.helper_of(call.func) if isinstance(call.func, cst.Name) else None
        if helper is None:
            return
        p = helper.params
        positional = [x.name.value for x in list(p.posonly_params) + list(p.params)]
        names = {x.name.value for x in all_params(p)}
        tainted: set[str] = set()
        for i, a in enumerate(call.args):
            if a.star or not self.expr(a.value, t):
                continue
            if a.keyword is not None and a.keyword.value in names:
                tainted.add(a.keyword.value)
            elif a.keyword is None and i < len(positional):
                tainted.add(positional[i])
        if not tainted:
            return
        key = (id(helper), frozenset(tainted))
        if key in self.visited or len(self.visited) > 200:
            return
        self.visited.add(key)
        saved = self.where
        self.where = f" (in helper `{helper.name.value}`, reached from `{self.primitive}`)"
        try:
            self.block(helper.body, set(tainted))
        finally:
            self.where = saved

    # expressions ---------------------------------------------------------------------
    def expr(self, node: cst.CSTNode, t: frozenset[str]) -> bool:
        if isinstance(node, cst.Name):
            return node.value in t
        if isinstance(node, (cst.Attribute, cst.Arg, cst.NamedExpr)):
            return self.expr(node.value, t)
        if isinstance(node, (cst.Lambda, cst.BaseNumber, cst.SimpleString)):
            return False
        if isinstance(node, cst.Call):
            q = self.mod.qnames(node.func)
            if q & RE_ESCAPE:
                return False
            if (
                "builtins.map" in q
                and node.args
                and self.mod.qnames(node.args[0].value) & RE_ESCAPE
            ):
                return False
            return self.expr(node.func, t) or any(self.expr(a, t) for a in node.args)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            local = set(t)
            comp: cst.CompFor | None = node.for_in
            while comp is not None:
                names = target_names(comp.target)
                if self.expr(comp.iter, frozenset(local)):
                    local.update(names)
                else:
                    local.difference_update(names)
                comp = comp.inner_for_in
            lt = frozenset(local)
            if isinstance(node, cst.DictComp):
                return self.expr(node.key, lt) or self.expr(node.value, lt)
            return self.expr(node.elt, lt)
        return any(self.expr(c, t) for c in node.children)

    # re calls inside an expression ----------------------------------------------------
    def check(self, node: cst.CSTNode, t: frozenset[str]) -> None:
        # the calls in `node`, not in the functions and classes it defines
        for call in _nodes_in(node, cst.Call, (cst.FunctionDef, cst.ClassDef)):
            q = self.mod.qnames(call.func)
            hit = sorted(q & RE_FUNCS)
            if not hit:
                self.follow(call, t)
                continue
            pattern = None
            for i, a in enumerate(call.args):
                if a.keyword is not None and a.keyword.value == "pattern":
                    pattern = a.value
                    break
                if a.keyword is None and a.star == "" and i == 0:
                    pattern = a.value
            if pattern is not None and self.expr(pattern, t):
                message = (
                    f"`{hit[0]}` pattern is built from a parameter without `re.escape`: "
                    "a value containing regex metacharacters changes what matches" + self.where
                )
                self.findings.append(StaticFinding("SI504", *self.mod.pos(call), message))

    # statements ------------------------------------------------------------------------
    def assign(self, target: cst.BaseExpression, tainted: bool, t: set[str]) -> None:
        if isinstance(target, cst.Name):
            if tainted:
                t.add(target.value)
            else:
                t.discard(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self.assign(el.value, tainted, t)
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, tainted, t)
        elif isinstance(target, (cst.Subscript, cst.Attribute)) and tainted:
            base = base_name(target)
            if base is not None:
                t.add(base.value)

    def small(self, node: cst.BaseSmallStatement, t: set[str]) -> None:
        ft = frozenset(t)
        self.check(node, ft)
        for ne in _nodes_in(node, cst.NamedExpr, ()):
            self.assign(ne.target, self.expr(ne.value, ft), t)
        if isinstance(node, cst.Assign):
            v = self.expr(node.value, ft)
            for tg in node.targets:
                self.assign(tg.target, v, t)
        elif isinstance(node, cst.AnnAssign) and node.value is not None:
            self.assign(node.target, self.expr(node.value, ft), t)
        elif isinstance(node, cst.AugAssign):
            v = self.expr(node.value, ft) or self.expr(node.target, ft)
            self.assign(node.target, v, t)
        elif isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            f = node.value.func
            if (
                isinstance(f, cst.Attribute)
                and f.attr.value in MUTATORS
                and any(self.expr(a, ft) for a in node.value.args)
            ):
                base = base_name(f.value)
                if base is not None:
                    t.add(base.value)

    def block(self, body: cst.CSTNode | None, t: set[str]) -> set[str]:
        if body is None:
            return t
        if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            stmts: Sequence[cst.CSTNode] = body.body
        elif isinstance(body, (cst.Else, cst.Finally)):
            return self.block(body.body, t)
        else:
            stmts = [body]
        for s in stmts:
            t = self.stmt(s, t)
        return t

    def stmt(self, s: cst.CSTNode, t: set[str]) -> set[str]:
        if isinstance(s, (cst.SimpleStatementLine, cst.BaseSmallStatement)):
            for small in s.body if isinstance(s, cst.SimpleStatementLine) else [s]:
                self.small(small, t)
            return t
        if isinstance(s, cst.If):
            self.check(s.test, frozenset(t))
            a = self.block(s.body, set(t))
            b = self.block(s.orelse, set(t)) if s.orelse is not None else set(t)
            return a | b
        if isinstance(s, cst.For):
            self.check(s.iter, frozenset(t))
            it = self.expr(s.iter, frozenset(t))
            acc = set(t)
            for _ in range(2):
                st = set(acc)
                self.assign(s.target, it, st)
                acc |= self.block(s.body, st)
            acc = self.block(s.orelse, acc)
            return acc | t
        if isinstance(s, cst.While):
            self.check(s.test, frozenset(t))
            acc = set(t)
            for _ in range(2):
                acc |= self.block(s.body, set(acc))
            return self.block(s.orelse, acc)
        if isinstance(s, (cst.Try, cst.TryStar)):
            acc = self.block(s.body, set(t))
            for h in s.handlers:
                acc |= self.block(h.body, set(acc))
            acc = self.block(s.orelse, acc)
            return self.block(s.finalbody, acc)
        if isinstance(s, cst.With):
            for item in s.items:
                self.check(item.item, frozenset(t))
                if item.asname is not None:
                    self.assign(item.asname.name, self.expr(item.item, frozenset(t)), t)
            return self.block(s.body, t)
        if isinstance(s, cst.FunctionDef):
            inner = set(t) - {p.name.value for p in all_params(s.params)}
            self.block(s.body, inner)
            return t
        if isinstance(s, cst.ClassDef):
            self.block(s.body, set(t))
            return t
        if isinstance(s, cst.Match):
            self.check(s.subject, frozenset(t))
            acc = set(t)
            for case in s.cases:
                acc |= self.block(case.body, set(t))
            return acc
        # anything else: check the expressions it holds
        self.check(s, frozenset(t))
        return t


def _nodes_in(node: cst.CSTNode, kind: type, skip: tuple) -> Iterator[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            yield n
        if not (isinstance(n, skip) and n is not node):
            stack.extend(reversed(n.children))
