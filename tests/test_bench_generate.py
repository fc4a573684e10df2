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
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _run(out: Path, *args: str, hashseed: str = "0") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run([sys.executable, str(GENERATE), str(out), *args],
                          capture_output=True, text=True, env=env, check=False)


def test_two_runs_give_byte_identical_trees(tmp_path):
    # separate processes with different hash seeds: nothing may depend on set/dict order
    a, b = tmp_path / "a", tmp_path / "b"
    ra = _run(a, "--scenarios", "12", "--fixtures", "3", "--seed", "7", hashseed="1")
    rb = _run(b, "--scenarios", "12", "--fixtures", "3", "--seed", "7", hashseed="4242")
    assert (ra.returncode, rb.returncode) == (0, 0), (ra.stderr, rb.stderr)
    ta, tb = _tree(a), _tree(b)
    assert ta == tb
    # 12 scenarios and 3 fixtures each, under the documented layout
    assert sorted(p.split("/")[0] for p in ta) == ["fixtures"] * 36 + ["scenarios"] * 12


def test_in_process_generation_matches_the_script(tmp_path):
    _run(tmp_path / "script", "--scenarios", "5", "--fixtures", "2", "--seed", "x")
    _module().generate(tmp_path / "lib", 5, 2, "x")
    assert _tree(tmp_path / "script") == _tree(tmp_path / "lib")


def test_another_seed_gives_another_corpus(tmp_path):
    gen = _module()
    gen.generate(tmp_path / "a", 4, 3, "1")
    gen.generate(tmp_path / "b", 4, 3, "2")
    assert _tree(tmp_path / "a") != _tree(tmp_path / "b")


def test_refuses_a_non_empty_output_without_force(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("precious\n")
    first = _run(out, "--scenarios", "1", "--fixtures", "1")
    assert first.returncode == 2
    assert (out / "keep.txt").read_text() == "precious\n"
    forced = _run(out, "--scenarios", "1", "--fixtures", "1", "--force")
    assert forced.returncode == 0
    assert not (out / "keep.txt").exists()


def test_first_scenario_is_the_documented_shape(tmp_path):
    gen = _module()
    gen.generate(tmp_path, 1, 0, "0")
    (path,) = (tmp_path / "scenarios").rglob("*.yaml")
    from si_lint.loader import load_bytes

    loaded = load_bytes(path.read_bytes())
    assert loaded.findings == []
    doc = loaded.data
    dev = doc["injection"]["deviations"]
    key = dev[0]["subject"]
    resource = dev[0]["resource"]
    assert doc["scoring"] == {
        "archetype_template": "C-DA-001",
        "factor": {"ref": dev[0]["id"], "required_identifiers": [key]},
        "subsystem_set": [resource.split("/", 1)[1], key],
        "channels": ["agent_response"],
        "step_budget": doc["scoring"]["step_budget"],
        "exclude_tool_echo": True,
    }
    assert (len(dev), dev[0]["deviation_type"], doc["archetype"]) == (1, "absent_key", "C-DA-001")
    assert 5 <= doc["scoring"]["step_budget"] <= 10


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


@pytest.mark.skipif(not HAVE_EVALUATOR, reason="si_lint.evaluator is not importable yet")
def test_every_generated_expect_is_the_evaluators_verdict(tmp_path):
    # 40 scenarios x 5 fixtures: every row of both table shapes, every answer variant
    from si_lint.loader import load_bytes

    _module().generate(tmp_path, 40, 5, "cov")
    scenarios = {}
    for p in sorted((tmp_path / "scenarios").rglob("*.yaml")):
        doc = load_bytes(p.read_bytes()).data
        scenarios[doc["id"]] = doc
    profile = builtin_profile()
    wrong, cases, rows = [], set(), {}
    for p in sorted((tmp_path / "fixtures").rglob("*.yaml")):
        fx = load_bytes(p.read_bytes()).data
        verdict = evaluate(fx, scenarios[fx["scenario"]], profile)
        if (verdict.get("score"), verdict.get("row")) != (fx["expect"]["score"], fx["expect"]["row"]):
            wrong.append((p.relative_to(tmp_path).as_posix(), fx["expect"], verdict))
        cases.add(p.stem.rsplit("-", 1)[0] if p.stem[-1].isdigit() else p.stem)
        rows.setdefault(fx["scenario"], set()).add(fx["expect"]["row"])
    assert wrong == []
    assert sorted(cases) == sorted([
        "correct", "correct-lowercase", "echo-then-own-words", "over-budget",
        "no-final-answer", "partial-names-key", "partial-names-resource",
        "partial-separate-sentences", "wrong", "echo-only", "deployment-band"])
    assert rows == {sid: set(range(1, 6 if "composite" in doc["scoring"] else 5))
                    for sid, doc in scenarios.items()}


@pytest.mark.skipif(not HAVE_EVALUATOR, reason="si_lint.evaluator is not importable yet")
def test_generated_corpus_lints_clean(tmp_path):
    _module().generate(tmp_path, 20, 5, "lint")
    proc = subprocess.run([sys.executable, "-m", "si_lint.cli", "check", "--format", "json",
                           "--no-cache", "."], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    assert report["summary"] == {"files": 120, "errors": 0, "warnings": 0, "infos": 0}


# --- bench/run.py: options si-lint lacks are reported as n/a, never a crash -------------

FAKE_SI_LINT = """
import sys
if sys.argv[1:] == ["check", "--help"]:
    print("Usage: si-lint check [OPTIONS] [PATHS]...\\n  --format [text|json]")
    sys.exit(0)
print('{"version": 1, "diagnostics": [], "summary": {"files": 6, "errors": 0, "warnings": 0, "infos": 0}}')
"""


def test_runner_reports_missing_options_as_na(tmp_path):
    fake = tmp_path / "fake_si_lint.py"
    fake.write_text(FAKE_SI_LINT)
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--scenarios", "2", "--fixtures", "2",
         "--jobs", "2", "--format", "json", "--si-lint", f"{sys.executable} {fake}",
         "--yamllint", f"{sys.executable} -c pass"],
        capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    m = report["measurements"]
    assert (m["cold_cache"], m["warm"], m["one_file_changed"]) == (None, None, None)
    assert m["cold_no_cache"]["summary"] == {"files": 6, "errors": 0, "warnings": 0,
                                             "infos": 0}
    assert report["si_lint"]["options"] == {"check": True, "no_cache": False,
                                            "cache_dir": False, "jobs": False,
                                            "format_json": True}
    assert report["notes"] == [
        "si-lint check has no --jobs: --jobs 2 ignored",
        "si-lint check has no --no-cache: cold run may use a cache",
        "si-lint has no cache (no --no-cache option): cache runs n/a",
    ]
    assert [(g["measured"], g["ok"]) for g in report["goals"][1:3]] == [(None, None),
                                                                        (None, None)]
    assert report["corpus"]["files"] == 6
