"""No function over 60 lines and no module over 400 lines in si_lint/ (issue 12): code
split by what it is about stays readable. ``python tools/code_size.py`` lists the same."""

from __future__ import annotations

import importlib.util

from conftest import REPO


def _tool():
    spec = importlib.util.spec_from_file_location("code_size", REPO / "tools" / "code_size.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_function_or_module_is_over_the_limits():
    assert _tool().oversized() == []


def test_the_measure_counts_what_it_says(tmp_path):
    tool = _tool()
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    (pkg / "long.py").write_text(f"def f():\n{body}\n", encoding="utf-8")  # 61 lines
    (pkg / "ok.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    (pkg / "big.py").write_text("x = 1\n" * 401, encoding="utf-8")
    assert tool.oversized(pkg) == [
        "pkg/big.py: module of 401 lines (limit 400)",
        "pkg/long.py:1: function f of 61 lines (limit 60)",
    ]
