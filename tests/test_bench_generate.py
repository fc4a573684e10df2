"""bench/generate.py: deterministic output, and a generated corpus that is correct."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GENERATE = REPO / "bench" / "generate.py"


def _module():
    spec = importlib.util.spec_from_file_location("bench_generate", GENERATE)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look the module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _run(out: Path, *args: str, hashseed: str = "0") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run(
        [sys.executable, str(GENERATE), str(out), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_two_runs_give_byte_identical_trees(tmp_path):
    # separate processes with different hash seeds: nothing may depend on set/dict order
    a, b = tmp_path / "a", tmp_path / "b"
    ra = _run(a, "--files", "120", "--seed", "7", hashseed="1")
    rb = _run(b, "--files", "120", "--seed", "7", hashseed="4242")
    assert (ra.returncode, rb.returncode) == (0, 0), (ra.stderr, rb.stderr)
    ta, tb = _tree(a), _tree(b)
    assert ta == tb
    assert len(ta) == 120  # --files is exact


def test_in_process_generation_matches_the_script(tmp_path):
    _run(tmp_path / "script", "--files", "60", "--seed", "x")
    _module().generate(tmp_path / "lib", 60, "x")
    assert _tree(tmp_path / "script") == _tree(tmp_path / "lib")


def test_another_seed_gives_another_corpus(tmp_path):
    gen = _module()
    gen.generate(tmp_path / "a", 40, "1")
    gen.generate(tmp_path / "b", 40, "2")
    assert _tree(tmp_path / "a") != _tree(tmp_path / "b")


@pytest.mark.parametrize("files", [14, 37, 200, 401])
def test_the_file_count_is_exact(tmp_path, files):
    written = _module().generate(tmp_path, files, "n")
    assert len(written) == len(set(written)) == files
    assert sorted(written) == sorted(p for p in tmp_path.rglob("*") if p.is_file())


def test_too_few_files_is_a_usage_error(tmp_path):
    assert _run(tmp_path / "out", "--files", "13").returncode == 2


def test_refuses_a_non_empty_output_without_force(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("precious\n")
    first = _run(out, "--files", "20")
    assert first.returncode == 2
    assert (out / "keep.txt").read_text() == "precious\n"
    forced = _run(out, "--files", "20", "--force")
    assert forced.returncode == 0
    assert not (out / "keep.txt").exists()


def _streams(root: Path):
    """(relative path, document index, data) of every document of the generated corpus."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.suffix == ".yaml":
            for i, doc in enumerate(yaml.load_all(p.read_text("utf-8"))):
                yield rel, i, doc
        elif p.suffix == ".json":
            yield rel, 0, json.loads(p.read_text("utf-8"))


def test_the_published_shape(tmp_path):
    gen = _module()
    gen.generate(tmp_path, 400, "shape")
    assert (tmp_path / "si-lint.toml").read_text() == gen.CONFIG
    seen = set()
    ids = set()
    companions = set()
    for rel, _i, doc in _streams(tmp_path):
        if rel.startswith("scenarios/"):
            sc = doc["scoring"]
            ids.add(doc["id"])
            assert set(doc) >= {
                "id",
                "name",
                "classification",
                "category",
                "archetype",
                "tier",
                "description",
                "scoring",
                "observability_requirements",
            }
            if doc["classification"] == "safety":
                assert sc == {
                    "type": "binary",
                    "safety_tolerance": 0,
                    "pass_condition": "all_assertions_met",
                }
                assert len(doc["intent"]) >= 20
                companions.add(doc["quality"]["companion_scenario"])
                seen.add("safety")
                continue
            assert rel.split("/")[-1].startswith("capability-")
            if sc.get("type") == "weighted":
                assert set(sc) == {"type", "rubric", "dimensions"}
                seen.add("form-a")
                continue
            inj = doc["injection"]
            assert set(inj) == {"baseline", "deviations", "symptom", "counterfactual"}
            (dev,) = inj["deviations"]
            assert set(dev) == {"id", "resource", "deviation_type", "subject"}
            assert dev["deviation_type"] == "absent_key"
            (base,) = inj["baseline"]
            assert base["resource"] == dev["resource"] and dev["subject"] in base["data"]
            state = {e["resource"]: e for e in doc["preconditions"]["environment"]["state"]}
            assert dev["subject"] not in state[dev["resource"]]["data"]  # the injected state
            assert set(inj["symptom"]) == {"resource", "condition"}
            if "composite" in sc:
                assert set(sc) == {"composite"} and sc["composite"]["reason"]
                seen.add("composite")
            else:
                assert sc == {
                    "archetype_template": "C-DA-001",
                    "step_budget": sc["step_budget"],
                    "channels": ["agent_response"],
                    "factor": {"ref": dev["id"], "required_identifiers": [dev["subject"]]},
                    "subsystem_set": [dev["resource"].split("/", 1)[1], dev["subject"]],
                    "exclude_tool_echo": True,
                }
                assert 5 <= sc["step_budget"] <= 10
                seen.add("form-b")
        elif rel.endswith(".json"):
            assert rel.split("/")[-1] == f"evidence-{doc['scenario_id']}.json"
            assert list(doc)[:7] == [
                "scenario_id",
                "final_answer",
                "reasoning_trace",
                "actions",
                "observations",
                "observed_model",
                "vacuous_assertions",
            ]
            assert set(doc["expect"]) == {"score", "row"}
            seen.add("artifact")
        elif rel.startswith("fixtures/"):
            assert set(doc) == {"scenario", "description", "expect", "events", "metadata"}
            seen.add("transcript")
    assert seen == {"safety", "form-a", "form-b", "composite", "artifact", "transcript"}
    assert companions <= ids


def test_scenario_files_are_multi_document_streams(tmp_path):
    _module().generate(tmp_path, 300, "docs")
    counts = []
    for p in sorted((tmp_path / "scenarios").rglob("*.yaml")):
        text = p.read_text()
        assert text.startswith("# ") and "\n\n---\n" in text
        counts.append(text.count("\n---\n"))
    assert set(counts) == {3, 4, 5}


def test_synonym_guard_uses_whole_tokens():
    gen = _module()
    assert gen._has_synonym("the key is Missing.") is True
    assert gen._has_synonym("the value looks unsettled") is False
    assert gen._has_synonym("MISSING_KEY_HANDLER") is False
    assert gen._has_synonym("it doesn't exist") is True


try:
    from si_lint.evaluator import evaluate
    from si_lint.profile import builtin_profile

    HAVE_EVALUATOR = True
except ImportError:  # pragma: no cover
    HAVE_EVALUATOR = False


def _verdict(fx, scenario, profile):
    """The evaluator's verdict; an artifact is given as the transcript SPEC §4.1's projection
    makes of it while the evaluator does not read artifacts itself."""
    got = evaluate(fx, scenario, profile)
    if got.get("score") is not None:
        return got
    if "scenario_id" in fx:
        events = [
            {
                "kind": "tool_call",
                "tool": a["tool"],
                "args": a["arguments"],
                "response": a["result"],
            }
            for a in fx["actions"]
        ]
        events.append({"kind": "reasoning", "text": fx["reasoning_trace"]})
        if fx["final_answer"]:
            events.append({"kind": "agent_response", "text": fx["final_answer"], "final": True})
        fx = {"scenario": fx["scenario_id"], "events": events, "expect": fx["expect"]}
    return evaluate(fx, scenario, profile)


@pytest.mark.skipif(not HAVE_EVALUATOR, reason="si_lint.evaluator is not importable yet")
def test_every_generated_expect_is_the_evaluators_verdict(tmp_path):
    # every row of both table shapes, every answer variant, both evidence forms
    _module().generate(tmp_path, 700, "cov")
    scenarios, fixtures = {}, []
    for rel, _i, doc in _streams(tmp_path):
        if rel.startswith("scenarios/"):
            scenarios[doc["id"]] = doc
        elif rel.startswith("fixtures/"):
            fixtures.append((rel, doc))
    profile = builtin_profile()
    wrong, cases, rows = [], set(), {}
    for rel, fx in fixtures:
        sid = fx.get("scenario") or fx.get("scenario_id")
        verdict = _verdict(fx, scenarios[sid], profile)
        if (verdict.get("score"), verdict.get("row")) != (
            fx["expect"]["score"],
            fx["expect"]["row"],
        ):
            wrong.append((rel, fx["expect"], verdict))
        case = fx["description"].split(":")[0]
        if rel.endswith(".yaml"):
            assert rel.split("/")[-1].rsplit("-", 1)[0] == case
        cases.add(("json" if rel.endswith(".json") else "yaml", case))
        rows.setdefault(sid, set()).add(fx["expect"]["row"])
    assert wrong == []
    every = [
        "correct",
        "correct-lowercase",
        "echo-then-own-words",
        "over-budget",
        "no-final-answer",
        "partial-names-key",
        "partial-names-resource",
        "partial-separate-sentences",
        "wrong",
        "echo-only",
        "deployment-band",
    ]
    assert sorted(cases) == sorted([(f, c) for f in ("json", "yaml") for c in every])
    tables = {
        sid: doc for sid, doc in scenarios.items() if sid in rows or "type" not in doc["scoring"]
    }
    assert rows == {
        sid: set(range(1, 6 if "composite" in doc["scoring"] else 5)) for sid, doc in tables.items()
    }


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "si_lint.cli", "check", "--format", "json", "--no-cache", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def _speaks_the_published_shape() -> bool:
    """Whether this checkout reads streams, the published scenario shape and artifacts."""
    try:
        from si_lint.corpus import classify
        from si_lint.schemas import load_schema
    except ImportError:  # pragma: no cover
        return False
    scoring = load_schema("scenario").get("properties", {}).get("scoring", {})
    return classify(
        {"scenario_id": "x", "final_answer": "", "expect": {}}
    ) == "fixture" and "archetype_template" in json.dumps(scoring)


@pytest.mark.skipif(
    not _speaks_the_published_shape(),
    reason="si-lint does not read the published shape yet (issue 10)",
)
def test_generated_corpus_lints_clean(tmp_path):
    _module().generate(tmp_path, 150, "lint")
    proc = _lint(tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    assert report["summary"]["errors"] == report["summary"]["warnings"] == 0
    assert report["summary"]["infos"] == 0


# --- bench/run.py: every goal row is printed; options si-lint lacks are n/a, never a crash

FAKE_SI_LINT = """
import sys
if sys.argv[1:] == ["check", "--help"]:
    print("Usage: si-lint check [OPTIONS] [PATHS]...\\n  --format [text|json]")
    sys.exit(0)
if sys.argv[1] == "eval":
    print('{"results": []}')
    sys.exit(0)
print('{"version": 1, "diagnostics": [], "summary": {"files": 14, "errors": 0, "warnings": 0, "infos": 0}}')
"""


def test_runner_prints_every_goal_row_and_reports_missing_options(tmp_path):
    fake = tmp_path / "fake_si_lint.py"
    fake.write_text(FAKE_SI_LINT)
    published = tmp_path / "published"
    published.mkdir()
    (published / "s.yaml").write_text("id: s\n")
    args = [
        sys.executable,
        str(REPO / "bench" / "run.py"),
        "--files",
        "14",
        "--no-big",
        "--eval-artifacts",
        "8",
        "--quick",
        "--si-lint",
        f"{sys.executable} {fake}",
        "--yamllint",
        f"{sys.executable} -c pass",
        "--server-edits",
        "0",
        "--published",
        str(published),
    ]
    proc = subprocess.run([*args, "--format", "json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    goals = {g["key"]: g for g in report["goals"]}
    assert list(goals) == [
        "cold_ratio",
        "warm",
        "staged",
        "changed",
        "server",
        "published",
        "jobs_overhead",
    ]
    # no cache options: the cached rows are not measured; no --jobs: nor its overhead
    for key in ("warm", "staged", "changed", "server", "jobs_overhead"):
        assert (goals[key]["measured"], goals[key]["met"]) == (None, None), key
    for key in ("cold_ratio", "published"):
        assert goals[key]["measured"] is not None, key
    refs = {r["key"]: r["measured"] for r in report["references"]}
    assert [k for k, v in refs.items() if v is not None] == ["cold_floor", "eval_rate", "eval_rss"]
    assert report["corpus"]["small"]["files"] == 14
    assert report["si_lint"]["options"] == {
        "check": True,
        "no_cache": False,
        "cache_dir": False,
        "jobs": False,
    }
    assert report["notes"] == [
        "1 round(s) only (--quick/--repeats): medians of fewer than 3",
        "si-lint has no --no-cache/--cache-dir: cache runs not measured",
        "--server-edits 0: the server row is not measured",
        "--no-big: the 40,000-file rows are not measured",
    ]
    cold = report["measurements"]["si-lint check --no-cache (cold, si-lint's default --jobs)"]
    assert cold["summary"] == {"files": 14, "errors": 0, "warnings": 0, "infos": 0}
    md = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    for g in report["goals"]:
        assert f"| {g['figure']} |" in md
    assert (
        "| server didChange -> publishDiagnostics, median | n/a | <= 300 ms | not measured |" in md
    )
    assert "- reference: 40,000 files cold, --jobs 2, wall: n/a" in md
