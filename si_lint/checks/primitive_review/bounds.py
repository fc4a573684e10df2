"""The bounds a module must keep before libcst reads it (SI501 "nested too deeply"), and
CPython's own parse of it (SI501 "does not parse").

libcst's native parser can overflow the C stack on pathological nesting (a segfault, not a
RecursionError), so it only ever sees modules within these bounds.
"""

from __future__ import annotations

import ast
import io
import tokenize

from .parsed import StaticFinding

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


def precheck(source: str) -> StaticFinding | None:
    """Bounds first, then CPython's own parser: the SI501 finding that stops the review,
    or None when libcst may read the module."""
    if len(source) > MAX_SOURCE_CHARS or _too_deep_textually(source):
        return StaticFinding("SI501", 1, 1, TOO_DEEP)
    try:
        tree = ast.parse(source)
        if _ast_depth(tree) > MAX_AST_DEPTH:
            return StaticFinding("SI501", 1, 1, TOO_DEEP)
    except (RecursionError, MemoryError):
        return StaticFinding("SI501", 1, 1, TOO_DEEP)
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
