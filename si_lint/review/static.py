"""Static review of a primitive implementation (SPEC §2.1, rules SI501–SI506).

A pure function of the source text: the module is parsed with libcst (never imported) and
the function that implements the primitive is inspected, together with the module's own
helper functions it reaches (for SI503, SI505 and SI506).

- SI501  the function does not exist (or the module does not parse)
- SI502  the keyword-only parameter names differ from the registry's (as sets), or the
         signature is not ``(evidence, *, <params>)``
- SI503  a call or read of something nondeterministic — clock, ``random``, ``uuid``,
         environment, file or network I/O, ``subprocess``, threads — however imported,
         in the primitive or in a module-level helper it reaches
- SI504  a ``re`` function whose pattern is built from a parameter (or a local derived
         from one) without ``re.escape`` on that value
- SI505  a ``for`` loop over a set/frozenset (literal, call or comprehension) whose body
         can ``return`` or ``break``
- SI506  a write to module-level state (at the write, not at the ``global``)

Positions are 1-based lines and columns of the offending node.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import (
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


# --------------------------------------------------------------------------------------
# SI503: what counts as nondeterministic. A qualified name matches an entry when it equals
# it or starts with it followed by a dot. Values are the category shown in the message.
_NONDET: dict[str, str] = {}


def _add(category: str, names: Iterable[str]) -> None:
    for n in names:
        _NONDET[n] = category


_add(
    "the clock",
    [
        "time",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    ],
)
_add("randomness", ["random", "secrets", "os.urandom", "os.getrandom", "numpy.random"])
_add("uuid generation", ["uuid.uuid1", "uuid.uuid4", "uuid.getnode"])
_add(
    "the environment",
    [
        "os.environ",
        "os.environb",
        "os.getenv",
        "os.getenvb",
        "os.putenv",
        "os.unsetenv",
        "os.path.expandvars",
        "os.path.expanduser",
        "sys.argv",
        "os.getcwd",
        "os.getpid",
        "locale",
        "platform",
        "getpass",
        "datetime.datetime.fromtimestamp",
        "datetime.date.fromtimestamp",
    ],
)
_add(
    "file I/O",
    [
        "builtins.open",
        "builtins.input",
        "io.open",
        "io.FileIO",
        "pathlib",
        "os.open",
        "os.read",
        "os.write",
        "os.listdir",
        "os.scandir",
        "os.walk",
        "os.stat",
        "os.lstat",
        "os.remove",
        "os.unlink",
        "os.mkdir",
        "os.makedirs",
        "os.rename",
        "os.replace",
        "os.rmdir",
        "os.path.exists",
        "os.path.lexists",
        "os.path.isfile",
        "os.path.isdir",
        "os.path.islink",
        "os.path.getsize",
        "os.path.getmtime",
        "os.path.getatime",
        "os.path.getctime",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.samefile",
        "shutil",
        "tempfile",
        "glob",
        "fileinput",
        "sys.stdin",
        "sqlite3",
        "shelve",
        "dbm",
    ],
)
_add(
    "a subprocess",
    [
        "subprocess",
        "os.system",
        "os.popen",
        "os.fork",
        "os.spawnl",
        "os.spawnv",
        "os.execv",
        "os.execl",
        "pty",
    ],
)
_add(
    "network I/O",
    [
        "socket",
        "ssl",
        "urllib",
        "http",
        "requests",
        "httpx",
        "aiohttp",
        "ftplib",
        "smtplib",
        "poplib",
        "imaplib",
        "telnetlib",
        "xmlrpc",
    ],
)
_add("threads", ["threading", "_thread", "multiprocessing", "concurrent.futures"])
_add(
    "a dynamic import (its target cannot be reviewed)",
    ["builtins.__import__", "importlib.import_module", "importlib.__import__"],
)
_add("dynamic code (it cannot be reviewed)", ["builtins.eval", "builtins.exec", "builtins.compile"])
_add("the interpreter's hash seed or object addresses", ["builtins.hash", "builtins.id"])

# SI504: `re` functions and the pattern argument
_RE_FUNCS = {
    f"{mod}.{fn}"
    for mod in ("re", "regex")
    for fn in (
        "compile",
        "search",
        "match",
        "fullmatch",
        "findall",
        "finditer",
        "sub",
        "subn",
        "split",
    )
}
_RE_ESCAPE = {"re.escape", "regex.escape"}

# SI506: methods that mutate the object they are called on
_MUTATORS = {
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "popitem",
    "clear",
    "update",
    "setdefault",
    "add",
    "discard",
    "sort",
    "reverse",
    "appendleft",
    "extendleft",
    "__setitem__",
    "__delitem__",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
}


def _match_nondet(qname: str) -> tuple[str, str] | None:
    parts = qname.split(".")
    for i in range(len(parts), 0, -1):
        key = ".".join(parts[:i])
        cat = _NONDET.get(key)
        if cat is not None:
            return key, cat
    return None


# --------------------------------------------------------------------------------------
class _Module:
    """A parsed module with the metadata the rules need."""

    def __init__(self, source: str):
        self.module = cst.parse_module(source)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.scopes = self.wrapper.resolve(ScopeProvider)
        self.positions = self.wrapper.resolve(PositionProvider)
        self.functions: dict[str, cst.FunctionDef] = {}
        for stmt in self.module.body:
            if isinstance(stmt, cst.FunctionDef):
                self.functions[stmt.name.value] = stmt  # the last definition wins
        # a later non-def binding of the same name at module level shadows the def
        for stmt in self.module.body:
            for name in _bound_at_module_level(stmt):
                fn = self.functions.get(name)
                if fn is not None and _line_of(self, stmt) > _line_of(self, fn):
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

    def is_module_level(self, name: cst.Name) -> str | None:
        """How `name` (read inside a function) is bound: "global", "import", "builtin",
        or None when it is local to some function (a parameter, a local, a closure)."""
        scope = self.scopes.get(name)
        if scope is None:
            return None
        try:
            assignments = scope[name.value]
        except Exception:  # pragma: no cover
            return None
        if not assignments:
            return "builtin" if name.value in _BUILTIN_NAMES else "global"
        kinds = set()
        for a in assignments:
            if not isinstance(a.scope, GlobalScope):
                return None
            kinds.add(
                "import"
                if type(a).__name__ == "ImportAssignment"
                else "builtin"
                if type(a).__name__ == "BuiltinAssignment"
                else "global"
            )
        if "global" in kinds:
            return "global"
        return sorted(kinds)[0]

    def helper_of(self, name: cst.Name) -> cst.FunctionDef | None:
        """The module-level function `name` refers to, if any."""
        scope = self.scopes.get(name)
        if scope is None or name.value not in self.functions:
            return None
        try:
            assignments = scope[name.value]
        except Exception:  # pragma: no cover
            return None
        for a in assignments:
            if isinstance(a.scope, GlobalScope) and a.node is self.functions[name.value]:
                return self.functions[name.value]
        return None


_BUILTIN_NAMES = set(
    dir(__builtins__) if not isinstance(__builtins__, dict) else __builtins__.keys()
)


def _line_of(mod: _Module, node: cst.CSTNode) -> int:
    return mod.positions[node].start.line


def _bound_at_module_level(stmt: cst.CSTNode) -> list[str]:
    out: list[str] = []
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    out.extend(_target_names(t.target))
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                out.extend(_target_names(small.target))
            elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(
                small.names, cst.ImportStar
            ):
                for alias in small.names:
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        out.append(alias.asname.name.value)
                    elif isinstance(alias.name, cst.Name):
                        out.append(alias.name.value)
    elif isinstance(stmt, cst.ClassDef):
        out.append(stmt.name.value)
    return out


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in target.elements:
            out.extend(_target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _target_name_nodes(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[cst.Name] = []
        for el in target.elements:
            out.extend(_target_name_nodes(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_name_nodes(target.value)
    return []


def _base_name(node: cst.BaseExpression) -> cst.Name | None:
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node if isinstance(node, cst.Name) else None


# --------------------------------------------------------------------------------------
# SI503 / SI505 / SI506: one visitor per function body
class _BodyVisitor(cst.CSTVisitor):
    def __init__(self, mod: _Module, func: cst.FunctionDef, where: str):
        self.mod = mod
        self.func = func
        self.where = where  # "" for the primitive, " (in helper `h`, reached from `p`)"
        self.findings: list[StaticFinding] = []
        self.helpers: list[cst.FunctionDef] = []
        self.global_names: set[str] = set()
        self.loop_stack: list[cst.CSTNode] = []

    def add(self, code: str, node: cst.CSTNode, message: str) -> None:
        line, col = self.mod.pos(node)
        self.findings.append(StaticFinding(code, line, col, message + self.where))

    # -- never look into these ---------------------------------------------------------
    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Global(self, node: cst.Global) -> bool:
        for item in node.names:
            self.global_names.add(item.name.value)
        return False

    # -- SI503 ---------------------------------------------------------------------------
    def _nondet(self, node: cst.BaseExpression) -> bool:
        if _dotted(node) is None:
            return False  # `f().attr`: the reference is judged inside, at `f`
        for q in sorted(self.mod.qnames(node)):
            hit = _match_nondet(q)
            if hit is not None:
                cat = hit[1]
                self.add(
                    "SI503",
                    node,
                    f"`{q}` is nondeterministic ({cat}): a primitive "
                    "must be a pure function of its arguments",
                )
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

    # -- SI506 ---------------------------------------------------------------------------
    def _store(self, target: cst.BaseExpression) -> None:
        for name in _target_name_nodes(target):
            if name.value in self.global_names:
                self.add(
                    "SI506",
                    name,
                    f"assignment to module-level `{name.value}` (declared "
                    "`global`): a primitive must not keep state",
                )
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
                self.add("SI506", t, "write through `globals()`: a primitive must not keep state")
                continue
            if isinstance(t, (cst.Subscript, cst.Attribute)):
                base = _base_name(t)
                if base is not None and self.mod.is_module_level(base) in ("global", "import"):
                    self.add(
                        "SI506",
                        t,
                        f"write to module-level `{base.value}`: a primitive must not keep state",
                    )

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._store(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._store(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        if node.value is not None:
            self._store(node.target)
            node.target.visit(self)
            node.value.visit(self)
        return False

    def visit_Del(self, node: cst.Del) -> None:
        self._store(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._store(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._store(node.asname.name)

    def visit_Call(self, node: cst.Call) -> None:
        f = node.func
        if (
            isinstance(f, cst.Attribute)
            and f.attr.value in _MUTATORS
            and isinstance(f.value, cst.Name)
        ):
            if self.mod.is_module_level(f.value) == "global":
                self.add(
                    "SI506",
                    node,
                    f"`{f.value.value}.{f.attr.value}(...)` mutates "
                    "module-level state: a primitive must not keep state",
                )

    # -- SI505 (and SI506 for loop targets) ----------------------------------------------
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


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def _is_set_expr(mod: _Module, node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Set, cst.SetComp)):
        return True
    if isinstance(node, cst.Call):
        return bool(mod.qnames(node.func) & {"builtins.set", "builtins.frozenset"})
    return False


class _ExitFinder(cst.CSTVisitor):
    """Does a loop body contain a `return`, or a `break` of this loop?"""

    def __init__(self) -> None:
        self.depth = 0
        self.found = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.found = True

    def visit_Break(self, node: cst.Break) -> None:
        if self.depth == 0:
            self.found = True

    def visit_For(self, node: cst.For) -> bool:
        node.iter.visit(self)
        self.depth += 1
        node.body.visit(self)
        self.depth -= 1
        if node.orelse is not None:
            node.orelse.visit(self)
        return False

    def visit_While(self, node: cst.While) -> bool:
        self.depth += 1
        node.body.visit(self)
        self.depth -= 1
        if node.orelse is not None:
            node.orelse.visit(self)
        return False


def _can_exit(loop: cst.For) -> bool:
    f = _ExitFinder()
    loop.body.visit(f)
    return f.found


# --------------------------------------------------------------------------------------
# SI504: a small flow-sensitive taint walk over the primitive's statements
class _Taint:
    def __init__(self, mod: _Module, params: set[str], primitive: str = ""):
        self.mod = mod
        self.params = params
        self.primitive = primitive
        self.where = ""  # " (in helper `h`, reached from `p`)" while inside a helper
        self.findings: list[StaticFinding] = []
        self.visited: set[tuple[int, frozenset[str]]] = set()

    def follow(self, call: cst.Call, t: frozenset[str]) -> None:
        """A module-level helper called with a value derived from a parameter: review the
        helper with the matching parameters tainted (once per helper and taint set)."""
        if not isinstance(call.func, cst.Name):
            return
        helper = self.mod.helper_of(call.func)
        if helper is None:
            return
        p = helper.params
        positional = [x.name.value for x in list(p.posonly_params) + list(p.params)]
        names = {x.name.value for x in _all_params(p)}
        tainted: set[str] = set()
        for i, a in enumerate(call.args):
            if a.star:
                continue
            if not self.expr(a.value, t):
                continue
            if a.keyword is not None:
                if a.keyword.value in names:
                    tainted.add(a.keyword.value)
            elif i < len(positional):
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
        if isinstance(node, cst.Attribute):
            return self.expr(node.value, t)
        if isinstance(node, (cst.Lambda, cst.BaseNumber, cst.SimpleString)):
            return False
        if isinstance(node, cst.Arg):
            return self.expr(node.value, t)
        if isinstance(node, cst.NamedExpr):
            return self.expr(node.value, t)
        if isinstance(node, cst.Call):
            q = self.mod.qnames(node.func)
            if q & _RE_ESCAPE:
                return False
            if (
                "builtins.map" in q
                and node.args
                and self.mod.qnames(node.args[0].value) & _RE_ESCAPE
            ):
                return False
            return self.expr(node.func, t) or any(self.expr(a, t) for a in node.args)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            local = set(t)
            comp: cst.CompFor | None = node.for_in
            while comp is not None:
                names = _target_names(comp.target)
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
    def check(self, node: cst.CSTNode | None, t: frozenset[str]) -> None:
        if node is None:
            return
        for call in _calls_in(node):
            q = self.mod.qnames(call.func)
            hit = sorted(q & _RE_FUNCS)
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
                line, col = self.mod.pos(call)
                self.findings.append(
                    StaticFinding(
                        "SI504",
                        line,
                        col,
                        f"`{hit[0]}` pattern is built from a parameter without `re.escape`: "
                        "a value containing regex metacharacters changes what matches" + self.where,
                    )
                )

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
            base = _base_name(target)
            if base is not None:
                t.add(base.value)

    def small(self, node: cst.BaseSmallStatement, t: set[str]) -> None:
        ft = frozenset(t)
        self.check(node, ft)
        for ne in _named_exprs_in(node):
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
                and f.attr.value in _MUTATORS
                and any(self.expr(a, ft) for a in node.value.args)
            ):
                base = _base_name(f.value)
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
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                self.small(small, t)
            return t
        if isinstance(s, cst.BaseSmallStatement):
            self.small(s, t)
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
        if isinstance(s, cst.Try) or type(s).__name__ == "TryStar":
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
            inner = set(t) - {p.name.value for p in _all_params(s.params)}
            self.block(s.body, inner)
            return t
        if isinstance(s, cst.ClassDef):
            self.block(s.body, set(t))
            return t
        if type(s).__name__ == "Match":
            self.check(s.subject, frozenset(t))
            acc = set(t)
            for case in s.cases:
                acc |= self.block(case.body, set(t))
            return acc
        # anything else: check the expressions it holds
        self.check(s, frozenset(t))
        return t


def _calls_in(node: cst.CSTNode) -> Iterator[cst.Call]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            yield n
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)) and n is not node:
            continue
        stack.extend(reversed(n.children))


def _named_exprs_in(node: cst.CSTNode) -> Iterator[cst.NamedExpr]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.NamedExpr):
            yield n
        stack.extend(reversed(n.children))


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    out = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out


# --------------------------------------------------------------------------------------
def _signature(
    mod: _Module, func: cst.FunctionDef, registry_params: Sequence[str]
) -> list[StaticFinding]:
    p = func.params
    problems: list[str] = []
    positional = list(p.posonly_params) + list(p.params)
    if [x.name.value for x in positional] != ["evidence"]:
        got = ", ".join(x.name.value for x in positional) or "none"
        problems.append(f"exactly one positional parameter `evidence` is required (got {got})")
    if isinstance(p.star_arg, cst.Param):
        problems.append(f"`*{p.star_arg.name.value}` is not allowed")
    if p.star_kwarg is not None:
        problems.append(f"`**{p.star_kwarg.name.value}` is not allowed")
    have = {x.name.value for x in p.kwonly_params}
    want = {x for x in registry_params}
    missing = sorted(want - have)
    extra = sorted(have - want)
    if missing:
        problems.append("missing keyword-only " + ", ".join(f"`{m}`" for m in missing))
    if extra:
        problems.append(
            "keyword-only parameter(s) not in the registry: " + ", ".join(f"`{m}`" for m in extra)
        )
    if not problems:
        return []
    line, col = mod.pos(func.name)
    expected = ", ".join(sorted(want))
    return [
        StaticFinding(
            "SI502",
            line,
            col,
            f"`{func.name.value}` parameters differ from the registry's "
            f"(`evidence, *, {expected}`): " + "; ".join(problems),
        )
    ]


def review_source(
    source: str, func_name: str, registry_params: Sequence[str]
) -> list[StaticFinding]:
    """Review the implementation `func_name` in `source` against the registry's parameter
    names. Returns the findings sorted by (line, col, code); pure, never raises."""
    try:
        return _review(source, func_name, registry_params)
    except RecursionError:
        return [
            StaticFinding(
                "SI501", 1, 1, "implementation module is nested too deeply to be reviewed"
            )
        ]


#: bounds no real implementation comes near; past them libcst's native parser (and even
#: CPython's, under a raised recursion limit) can overflow the C stack: a segfault
MAX_SOURCE_CHARS = 1_000_000
MAX_BRACKET_DEPTH = 100
MAX_OPERATORS_PER_LINE = 1_000
MAX_AST_DEPTH = 200

_TOO_DEEP = "implementation module is nested too deeply to be reviewed"


def _too_deep_textually(source: str) -> bool:
    """Bracket depth and operator chains by tokenising (iterative, so it cannot overflow)."""
    import io
    import tokenize

    depth = operators = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.OP:
                if tok.string in "([{":
                    depth += 1
                    if depth > MAX_BRACKET_DEPTH:
                        return True
                elif tok.string in ")]}":
                    depth = max(depth - 1, 0)
                else:
                    operators += 1
                    if operators > MAX_OPERATORS_PER_LINE:
                        return True
            elif tok.type in (tokenize.NEWLINE, tokenize.NL):
                operators = 0 if depth == 0 else operators
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False  # not tokenisable: the parsers below report it
    return False


def _ast_depth(tree: ast.AST) -> int:
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > MAX_AST_DEPTH:
            break
        stack.extend((child, d + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _precheck(source: str) -> StaticFinding | None:
    """Bounds first, then CPython's own parser: libcst's native parser can overflow the C
    stack on pathological nesting, so it only ever sees modules within the bounds."""
    if len(source) > MAX_SOURCE_CHARS or _too_deep_textually(source):
        return StaticFinding("SI501", 1, 1, _TOO_DEEP)
    try:
        tree = ast.parse(source)
        if _ast_depth(tree) > MAX_AST_DEPTH:
            return StaticFinding("SI501", 1, 1, _TOO_DEEP)
    except (RecursionError, MemoryError):
        return StaticFinding(
            "SI501", 1, 1, "implementation module is nested too deeply to be reviewed"
        )
    except SyntaxError as e:
        return StaticFinding(
            "SI501",
            max(e.lineno or 1, 1),
            max(e.offset or 1, 1),
            f"implementation module does not parse: {e.msg}",
        )
    except ValueError as e:  # e.g. a NUL byte
        return StaticFinding("SI501", 1, 1, f"implementation module does not parse: {e}")
    return None


def _review(source: str, func_name: str, registry_params: Sequence[str]) -> list[StaticFinding]:
    bad = _precheck(source)
    if bad is not None:
        return [bad]
    try:
        mod = _Module(source)
    except cst.ParserSyntaxError as e:
        return [
            StaticFinding(
                "SI501",
                max(e.raw_line, 1),
                e.raw_column + 1,
                f"implementation module does not parse: {e.message}",
            )
        ]
    except RecursionError:
        raise
    except Exception as e:  # pragma: no cover - libcst internals
        return [StaticFinding("SI501", 1, 1, f"implementation module cannot be read: {e}")]

    func = mod.functions.get(func_name)
    if func is None:
        return [
            StaticFinding(
                "SI501", 1, 1, f"no module-level function `{func_name}` in the implementation"
            )
        ]

    findings: list[StaticFinding] = []
    findings.extend(_signature(mod, func, registry_params))

    # SI503 / SI505 / SI506 over the primitive and the helpers it reaches
    seen: set[int] = set()
    work: list[tuple[cst.FunctionDef, str]] = [(func, "")]
    while work:
        fn, where = work.pop(0)
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        v = _BodyVisitor(mod, fn, where)
        for dec in fn.decorators:
            dec.visit(v)
        fn.params.visit(v)
        fn.body.visit(v)
        findings.extend(v.findings)
        for h in v.helpers:
            if id(h) not in seen:
                work.append((h, f" (in helper `{h.name.value}`, reached from `{func_name}`)"))

    # SI504 in the primitive itself
    params = {x.name.value for x in _all_params(func.params)}
    taint = _Taint(mod, params, func_name)
    taint.block(func.body, set(params))
    findings.extend(taint.findings)

    return sorted(set(findings), key=lambda f: (f.line, f.col, f.code, f.message))
