"""Static review of one primitive implementation (SPEC §2.1, SI501–SI506), with the module's
own helpers it reaches: a pure function of the source text.

libcst's native parser can overflow the C stack on pathological nesting (a segfault, not a
RecursionError), so it only ever sees modules within the bounds below (SI501 "nested too
deeply"), and only once CPython's own parser has read them (SI501 "does not parse")."""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Sequence

import libcst as cst

from .body import BodyVisitor
from .parsed import ParsedModule, StaticFinding, all_params
from .taint import Taint

#: bounds no real implementation comes near; past them libcst's native parser (and even
#: CPython's, under a raised recursion limit) can overflow the C stack: a segfault
MAX_SOURCE_CHARS = 1_000_000
MAX_BRACKET_DEPTH = 100
MAX_OPERATORS_PER_LINE = 1_000
MAX_AST_DEPTH = 200

TOO_DEEP = "implementation module is nested too deeply to be reviewed"


def _too_deep_textually(source: str) -> bool:
    """Bracket depth and operator chains by tokenising (iterative, so it cannot overflow)."""
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


def _too_deep_ast(tree: ast.AST) -> bool:
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > MAX_AST_DEPTH:
            return True
        stack.extend((child, d + 1) for child in ast.iter_child_nodes(node))
    return False


def precheck(source: str) -> StaticFinding | None:
    """Bounds first, then CPython's own parser: the SI501 finding that stops the review,
    or None when libcst may read the module."""
    too_deep = StaticFinding("SI501", 1, 1, TOO_DEEP)
    if len(source) > MAX_SOURCE_CHARS or _too_deep_textually(source):
        return too_deep
    try:
        if _too_deep_ast(ast.parse(source)):
            return too_deep
    except (RecursionError, MemoryError):
        return too_deep
    except SyntaxError as e:
        message = f"implementation module does not parse: {e.msg}"
        return StaticFinding("SI501", max(e.lineno or 1, 1), max(e.offset or 1, 1), message)
    except ValueError as e:  # e.g. a NUL byte
        return StaticFinding("SI501", 1, 1, f"implementation module does not parse: {e}")
    return None


def review_source(
    source: str, func_name: str, registry_params: Sequence[str]
) -> list[StaticFinding]:
    """The findings sorted by (line, col, code); never raises."""
    try:
        bad = precheck(source)
        if bad is not None:
            return [bad]
        try:
            mod = ParsedModule(source)
        except cst.ParserSyntaxError as e:
            message = f"implementation module does not parse: {e.message}"
            return [StaticFinding("SI501", max(e.raw_line, 1), e.raw_column + 1, message)]
        except RecursionError:
            raise
        except Exception as e:  # pragma: no cover - libcst internals
            return [StaticFinding("SI501", 1, 1, f"implementation module cannot be read: {e}")]
        func = mod.functions.get(func_name)
        if func is None:
            message = f"no module-level function `{func_name}` in the implementation"
            return [StaticFinding("SI501", 1, 1, message)]
        taint = Taint(mod, func.name.value)  # SI504 follows the parameters into helpers
        taint.block(func.body, {x.name.value for x in all_params(func.params)})
        findings = (
            signature_findings(mod, func, registry_params)
            + _body_findings(mod, func)
            + taint.findings
        )
    except RecursionError:
        return [StaticFinding("SI501", 1, 1, TOO_DEEP)]
    return sorted(set(findings), key=lambda f: (f.line, f.col, f.code, f.message))


def _body_findings(mod: ParsedModule, func: cst.FunctionDef) -> list[StaticFinding]:
    findings: list[StaticFinding] = []
    seen: set[int] = set()
    work: list[tuple[cst.FunctionDef, str]] = [(func, "")]
    while work:
        fn, where = work.pop(0)
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        v = BodyVisitor(mod, where)
        for dec in fn.decorators:
            dec.visit(v)
        fn.params.visit(v)
        fn.body.visit(v)
        findings.extend(v.findings)
        for h in v.helpers:
            if id(h) not in seen:
                work.append((h, f" (in helper `{h.name.value}`, reached from `{func.name.value}`)"))
    return findings


def signature_findings(
    mod: ParsedModule, func: cst.FunctionDef, registry_params: Sequence[str]
) -> list[StaticFinding]:
    p = func.params
    problems: list[str] = []
    positional = list(p.posonly_params) + list(p.params)
    if [x.name.value for x in positional] != ["evidence"]:
        got = ", ".join(x.name.value for x in positional) or "none"
        problems.append(f"exactly one positional parameter `evidence` is required (got {got})")
    for stars, arg in (("*", p.star_arg), ("**", p.star_kwarg)):
        if isinstance(arg, cst.Param):
            problems.append(f"`{stars}{arg.name.value}` is not allowed")
    have = {x.name.value for x in p.kwonly_params}
    want = set(registry_params)
    missing, extra = sorted(want - have), sorted(have - want)
    if missing:
        problems.append("missing keyword-only " + ", ".join(f"`{m}`" for m in missing))
    if extra:
        problems.append(
            "keyword-only parameter(s) not in the registry: " + ", ".join(f"`{m}`" for m in extra)
        )
    if not problems:
        return []
    message = (
        f"`{func.name.value}` parameters differ from the registry's "
        f"(`evidence, *, {', '.join(sorted(want))}`): " + "; ".join(problems)
    )
    return [StaticFinding("SI502", *mod.pos(func.name), message)]
