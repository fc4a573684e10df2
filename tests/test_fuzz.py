"""Fuzzing (hypothesis): generated documents and mutations of the example corpus.

`check` must never raise and never report SI000 (a crashing check), and every finding
carries a location. A short run is the default; set SI_LINT_FUZZ_EXAMPLES for a longer
one (e.g. SI_LINT_FUZZ_EXAMPLES=2000).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from si_lint.pipeline import Options, run

EXAMPLES = int(os.environ.get("SI_LINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

KEYS = [
    "id",
    "archetype",
    "scoring",
    "template",
    "bindings",
    "composite",
    "reason",
    "table",
    "when",
    "score",
    "else",
    "not",
    "all",
    "any",
    "factor",
    "ref",
    "required_identifiers",
    "subsystem_set",
    "channels",
    "step_budget",
    "exclude_tool_echo",
    "injection",
    "deviations",
    "deviation_type",
    "target",
    "type",
    "rubric",
    "dimensions",
    "synonyms",
    "named_in_output",
    "factor_identified",
    "within_step_budget",
    "identifier_set",
    "n",
    "events",
    "kind",
    "text",
    "response",
    "final",
    "tool",
    "args",
    "expect",
    "row",
    "scenario",
    "metadata",
    "eio",
    "version",
    "imports",
    "module",
    "concepts",
    "parent",
    "context_criteria",
    "controls",
    "requires_any",
    "evaluates",
    "profiles",
    "scoring_criteria",
    "findings_only",
    "context_artifacts",
    "name",
    "assessor_ratings",
    "primitives",
    "params",
    "roles",
    "implementation",
    "candidates",
    "ratified_budgets",
]
VALUES = [
    "C-DA-001",
    "agent_response",
    "reasoning_trace",
    "tool_call",
    "absent_key",
    "else",
    "$factor",
    "$channels",
    "$nope",
    "SMTP_PORT",
    "",
    " x ",
    "e\u0301",
    "checklist",
    "assessor",
    "non_scoring",
    "eio.artifact.context",
    "eio.artifact.system-prompt",
    "0.2.2",
    "infra.capability.da.single-signal-diagnosis-001",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(VALUES),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    ),
    max_leaves=30,
)
documents = st.dictionaries(st.sampled_from(KEYS), values, min_size=1, max_size=7)


def lint(root: Path):
    result = run([], Options(use_cache=False, jobs=1), cwd=root)
    for f in result.findings:
        assert f.code != "SI000", (f.message, f.detail)
        assert f.line >= 1 and f.column >= 1 and f.path
    return result


def _fresh(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(doc=documents, fixture=documents)
def test_generated_documents(tmp_path_factory, doc, fixture):
    root = _fresh(tmp_path_factory)
    (root / "s.yaml").write_text(json.dumps(doc, allow_nan=True))
    fx = dict(fixture)
    fx.setdefault("events", [])
    fx["scenario"] = doc.get("id") if isinstance(doc.get("id"), str) else "x"
    (root / "f.yaml").write_text(json.dumps(fx, allow_nan=True))
    lint(root)


CORPUS = REPO / "fixtures" / "corpus"
CORPUS_FILES = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.yaml"))


def _mutate(text: str, data) -> str:
    lines = text.split("\n")
    op = data.draw(
        st.sampled_from(["delete", "duplicate", "replace", "indent", "truncate", "swap"])
    )
    i = data.draw(st.integers(0, max(len(lines) - 1, 0)))
    if op == "delete" and lines:
        del lines[i]
    elif op == "duplicate" and lines:
        lines.insert(i, lines[i])
    elif op == "replace" and lines and ":" in lines[i]:
        head = lines[i].split(":", 1)[0]
        lines[i] = (
            head
            + ": "
            + data.draw(
                st.sampled_from(
                    [
                        "",
                        "[]",
                        "{}",
                        "1",
                        "-1",
                        "true",
                        "x",
                        "[x, 1]",
                        "{a: b}",
                        "'  '",
                        "!!str 1",
                        "*nope",
                    ]
                )
            )
        )
    elif op == "indent" and lines:
        lines[i] = "  " + lines[i]
    elif op == "truncate":
        return text[: data.draw(st.integers(0, len(text)))]
    elif op == "swap" and len(lines) > 1:
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@pytest.mark.skipif(not CORPUS_FILES, reason="example corpus missing")
@FUZZ
@given(data=st.data())
def test_mutated_example_corpus(tmp_path_factory, data):
    root = _fresh(tmp_path_factory)
    shutil.copytree(CORPUS, root / "corpus")
    for _ in range(data.draw(st.integers(1, 3))):
        rel = data.draw(st.sampled_from(CORPUS_FILES))
        path = root / "corpus" / rel
        path.write_text(_mutate(path.read_text(), data))
    lint(root / "corpus")


# ---- eval and eio on generated inputs: exit 0, 1 or 2, never a traceback ----------------

from conftest import run_cli

SCENARIO = CORPUS / "scenarios" / "mail-relay-smtp-port.yaml"
EIO_MODULE = CORPUS / "eio" / "eio.context.criteria.yaml"

events = st.lists(
    st.dictionaries(
        st.sampled_from(["kind", "text", "response", "final", "tool", "args"]),
        st.one_of(
            st.sampled_from(["tool_call", "agent_response", "reasoning", "other"]),
            st.text(max_size=40),
            st.booleans(),
            st.none(),
            st.integers(),
            values,
        ),
        max_size=5,
    ),
    max_size=6,
)


@FUZZ
@given(evs=events, extra=st.dictionaries(st.sampled_from(KEYS), values, max_size=3))
def test_eval_on_generated_evidence(tmp_path_factory, evs, extra):
    root = _fresh(tmp_path_factory)
    artifact = {**extra, "events": evs}
    (root / "e.json").write_text(json.dumps(artifact, allow_nan=True))
    (root / "e.jsonl").write_text(json.dumps(artifact, allow_nan=True) + "\n\n{not json\n")
    code, out, err = run_cli(["eval", str(SCENARIO), "e.json", "e.jsonl", "--format", "json"], root)
    assert code in (0, 1), (code, out, err)
    assert [r["evidence"] for r in json.loads(out)] == [
        "e.json",
        "e.jsonl:1",
        "e.jsonl:3",
    ]  # N is the line number


@FUZZ
@given(doc=documents)
def test_eval_with_a_generated_scenario(tmp_path_factory, doc):
    root = _fresh(tmp_path_factory)
    (root / "s.json").write_text(json.dumps(doc, allow_nan=True))
    code, out, err = run_cli(
        ["eval", "s.json", str(CORPUS / "runs" / "mail-relay-agent-a.yaml")], root
    )
    assert code in (0, 1, 2), (code, out, err)


artifacts = st.lists(
    st.dictionaries(
        st.sampled_from(["name", "kind", "text"]),
        st.one_of(
            st.sampled_from(
                [
                    "eio.artifact.system-prompt",
                    "eio.artifact.policy",
                    "eio.artifact.tool-schema",
                    "eio.artifact.context",
                    "p.md",
                ]
            ),
            st.text(max_size=60),
            st.none(),
            st.integers(),
        ),
        max_size=3,
    ),
    max_size=4,
)


@FUZZ
@given(
    arts=artifacts,
    extra=st.dictionaries(
        st.sampled_from(["module", "profile", "assessor_ratings", "expect"]), values, max_size=3
    ),
)
def test_eio_on_generated_inputs(tmp_path_factory, arts, extra):
    root = _fresh(tmp_path_factory)
    (root / "in.json").write_text(json.dumps({**extra, "context_artifacts": arts}, allow_nan=True))
    code, out, err = run_cli(["eio", str(EIO_MODULE), "in.json", "--format", "json"], root)
    assert code in (0, 1, 2), (code, out, err)
