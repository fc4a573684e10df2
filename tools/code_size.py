#!/usr/bin/env python3
"""Functions over 60 lines and modules over 400 lines in ``si_lint/`` (issue 12's limits).

    python tools/code_size.py        # lists them; exit 1 when there are any

``tests/test_code_size.py`` runs the same measure. Lines are counted as ruff formats them
(the ``def`` line to the last line of the body; a module's physical lines).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "si_lint"
MAX_FUNCTION = 60
MAX_MODULE = 400


def oversized(pkg: Path = PKG) -> list[str]:
    out = []
    for path in sorted(pkg.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(pkg.parent).as_posix()
        lines = text.count("\n")
        if lines > MAX_MODULE:
            out.append(f"{rel}: module of {lines} lines (limit {MAX_MODULE})")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION:
                    out.append(
                        f"{rel}:{node.lineno}: function {node.name} of {n} lines "
                        f"(limit {MAX_FUNCTION})"
                    )
    return out


if __name__ == "__main__":
    found = oversized()
    print("\n".join(found) if found else "no function or module over the limits")
    sys.exit(1 if found else 0)
