"""Dogfood: si-lint's own built-in primitives pass their own review (SPEC §2.1)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

import si_lint.evaluator.primitives as primitives
import si_lint.evaluator.text as text
from si_lint.checks.primitive_review.source_review import review_source
from si_lint.profile import BUILTIN_PRIMITIVES, builtin_profile


@pytest.mark.parametrize("name", BUILTIN_PRIMITIVES)
def test_builtin_primitive_reviews_clean(name):
    entry = builtin_profile().primitives[name]
    params = [p["name"] for p in entry["params"]]
    source = Path(primitives.__file__).read_text(encoding="utf-8")
    assert review_source(source, name, params) == []


def test_builtin_registry_lists_exactly_the_builtins():
    assert sorted(builtin_profile().primitives) == sorted(BUILTIN_PRIMITIVES)


@pytest.mark.parametrize("module", [primitives, text])
def test_every_function_the_builtins_rely_on_is_deterministic(module):
    """The built-ins' helpers live partly in `evaluator.text` (another module, so not
    followed by SI503's own-module rule): review each of its functions as well, for
    everything except the primitive signature."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    names = [s.name.value for s in cst.parse_module(source).body if isinstance(s, cst.FunctionDef)]
    assert names, "no functions found"
    for name in names:
        findings = [f for f in review_source(source, name, []) if f.code != "SI502"]
        assert findings == [], name
