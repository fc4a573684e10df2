"""Hostile fuzzing (issue 11): the loader, the evaluator, the EIO evaluator and every report
format over arbitrary bytes, lone surrogates, control characters, huge numbers and deep
structures — no exception, no exit status outside 0/1/2, no "internal error", every report
valid UTF-8. Derandomized (conftest's "ci" profile) unless SI_LINT_FUZZ_EXAMPLES sets the
number of examples: bench/fuzz_hostile.sh runs a longer, random campaign."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from conftest import REPO, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("SI_LINT_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
FORMATS = ("text", "json", "sarif", "junit", "github")

KEYS = [
    "id",
    "classification",
    "scoring",
    "template",
    "bindings",
    "table",
    "when",
    "score",
    "events",
    "kind",
    "text",
    "expect",
    "scenario",
    "final_answer",
    "actions",
    "eio",
    "context_artifacts",
    "primitives",
    "params",
    "n",
    "row",
    "channels",
    "name",
    "\u202e",
    "a\x1bb",
]

# hostile scalars, written as YAML text (double-quoted escapes reach the loader as code points)
huge = (
    st.integers(min_value=4000, max_value=4600).map(lambda n: "9" * n)
    | st.integers(min_value=3000, max_value=4000).map(lambda n: "0x" + "f" * n)
    | st.sampled_from(["1e309", "-1e309", ".nan", ".inf", "0x" + "f" * 300, str(2**1100), "-0"])
)
escapes = st.lists(
    st.sampled_from(
        [
            "\\ud800",
            "\\udfff",
            "\\udc80",
            "\\ud83d\\ude00",
            "\\e",
            "\\0",
            "\\a",
            "\\u202e",
            "\\x9b",
            "\\x1b]0;t\\x07",
            "é",
            "x",
        ]
    ),
    min_size=1,
    max_size=6,
).map(lambda parts: '"' + "".join(parts) + '"')
plain = st.sampled_from(["x", "C-DA-001", "agent_response", "else", "true", "~", "-", "''"])
scalar = huge | escapes | plain | st.integers(-5, 30).map(str)


def _node(depth: int):
    if depth <= 0:
        return scalar
    inner = _node(depth - 1)
    return st.one_of(
        scalar,
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4).map(
            lambda d: "{" + ", ".join(f'"{k}": {v}' for k, v in d.items()) + "}"
        ),
    )


documents = st.dictionaries(st.sampled_from(KEYS), _node(3), min_size=1, max_size=6).map(
    lambda d: "".join(f'"{k}": {v}\n' for k, v in d.items())
)
deep = st.integers(min_value=50, max_value=200).map(lambda n: "[" * n + "]" * n)
texts = documents | deep


def _strings(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


@FUZZ
@given(st.one_of(texts.map(str.encode), st.binary(max_size=300)))
def test_loader_never_raises_and_returns_encodable_strings(raw):
    from si_lint.loader import load_bytes

    loaded = load_bytes(raw)
    for d in loaded.findings:
        assert d.line >= 1 and d.col >= 1
    for doc in loaded.documents:
        for s in _strings(doc.data):
            s.encode("utf-8")  # no lone surrogate survives the loader


SCENARIO = REPO / "fixtures" / "corpus" / "scenarios" / "mail-relay-smtp-port.yaml"
MODULE = REPO / "fixtures" / "corpus" / "eio" / "eio.context.criteria.yaml"


@FUZZ
@given(documents)
def test_evaluators_never_raise_on_hostile_artifacts(text):
    from si_lint.eio.evaluator import evaluate_input
    from si_lint.evaluator import evaluate
    from si_lint.loader import load_bytes
    from si_lint.profile import builtin_profile

    data = [d.data for d in load_bytes(text.encode()).documents]
    artifact = data[0] if data else None
    scenario = load_bytes(SCENARIO.read_bytes()).documents[0].data
    module = load_bytes(MODULE.read_bytes()).documents[0].data
    verdict = evaluate(artifact, scenario, builtin_profile())
    json.dumps(verdict, ensure_ascii=False).encode("utf-8")
    evaluate_input(module, artifact)
    evaluate(scenario, artifact, builtin_profile())  # a hostile scenario too


@settings(FUZZ, max_examples=max(5, EXAMPLES // 2))
@given(texts, st.sampled_from(FORMATS))
def test_every_report_format_over_hostile_documents(text, fmt):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "si-lint.toml").write_text("")
        (root / "doc.yaml").write_text(text, encoding="utf-8")
        shutil.copy(SCENARIO, root / "s.yaml")
        code, out, err = run_cli(["check", "--no-cache", "--format", fmt], root)
        assert code in (0, 1, 2), (code, out, err)
        assert "internal error" not in out + err
        out.encode("utf-8")
        if fmt == "json":
            assert [d for d in json.loads(out)["diagnostics"] if d["code"] == "SI000"] == []
        for args in (["eval", "s.yaml", "doc.yaml"], ["eio", str(MODULE), "doc.yaml"]):
            code, out, err = run_cli(args + ["--format", "json" if fmt == "json" else "text"], root)
            assert code in (0, 1, 2), (args, code, out, err)
            assert "internal error" not in out + err
            out.encode("utf-8")
