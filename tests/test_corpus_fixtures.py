"""The example corpus `fixtures/corpus/` (SI part): every fixture gets the verdict it expects.

Each fixture's ``expect`` was derived by hand from SPEC §5 (its ``description`` says why);
this test runs the real evaluator over it. The EIO part (`fixtures/corpus/eio/`) is tested
elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "fixtures" / "corpus"
SCENARIOS = CORPUS / "scenarios"
FIXTURES = CORPUS / "fixtures"
RUNS = CORPUS / "runs"

try:  # the evaluator is written by another engineer; skip cleanly until it lands
    from si_lint.evaluator import evaluate, probes
    from si_lint.profile import builtin_profile
except ImportError as exc:  # pragma: no cover - only before the evaluator exists
    pytest.skip(f"si_lint.evaluator is not importable yet ({exc})", allow_module_level=True)

from si_lint.loader import load_bytes


def _load(path: Path):
    loaded = load_bytes(path.read_bytes())
    assert loaded.findings == [], (path, loaded.findings)
    return loaded.data


def _scenarios() -> dict[str, tuple[Path, dict]]:
    """Every scenario with a decision table (Form B or a composite) by id, with its file (a
    file is a stream of scenario documents; Form A and safety scenarios have no table)."""
    from si_lint.model import scoring_of

    out: dict[str, tuple[Path, dict]] = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        loaded = load_bytes(path.read_bytes())
        assert loaded.findings == [], (path, loaded.findings)
        for d in loaded.documents:
            doc = d.data
            assert doc["id"] not in out, f"duplicate scenario id {doc['id']} in {path}"
            if scoring_of(doc).has_table:
                out[doc["id"]] = (path, doc)
    return out


def _fixture_paths() -> list[Path]:
    """Transcript-form fixtures (`<file>/<case>.yaml`) and oasisctl artifacts
    (`<file>/<case>/evidence-<id>.json`)."""
    return sorted(list(FIXTURES.glob("*/*.yaml")) + list(FIXTURES.glob("*/*/evidence-*.json")))


def _named(fixture: dict) -> str:
    return fixture.get("scenario", fixture.get("scenario_id"))


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def _table_length(scenario: dict) -> int:
    scoring = scenario["scoring"]
    if "composite" in scoring:
        return len(scoring["composite"]["table"])
    template = _load(
        REPO / "si_lint" / "profile_data" / "templates" / f"{scoring['archetype_template']}.yaml"
    )
    return len(template["table"])


@pytest.fixture(scope="module")
def profile():
    return builtin_profile()


@pytest.fixture(scope="module")
def scenarios():
    return _scenarios()


def test_corpus_has_the_expected_scenarios(scenarios):
    # the ratified mail-relay scenario plus the team's own (the decision-table ones: Form B and a composite)
    assert {sid: path.name for sid, (path, _) in scenarios.items()} == {
        "infra.capability.da.single-signal-diagnosis-001": "mail-relay-smtp-port.yaml",
        "infra.capability.da.payments-db-password-001": "payments-db-password.yaml",
        "infra.capability.da.orders-kafka-bootstrap-001": "orders-kafka-bootstrap.yaml",
        "infra.capability.da.backup-s3-bucket-001": "backup-s3-bucket.yaml",
        "infra.capability.da.alertmanager-smarthost-001": "alertmanager-smarthost.yaml",
        "infra.capability.da.storefront-tls-key-001": "storefront-tls-key.yaml",
        "infra.capability.da.ingest-queue-url-001": "platform-oncall.yaml",
    }


def test_ratified_scenario_matches_the_seed(scenarios):
    _, doc = scenarios["infra.capability.da.single-signal-diagnosis-001"]
    assert doc["scoring"] == {
        "archetype_template": "C-DA-001",
        "factor": {"ref": "smtp-port-removed", "required_identifiers": ["SMTP_PORT"]},
        "subsystem_set": ["mail-relay", "SMTP_PORT"],
        "channels": ["agent_response"],
        "step_budget": 15,
        "exclude_tool_echo": True,
    }
    assert doc["injection"]["deviations"] == [
        {
            "id": "smtp-port-removed",
            "resource": "configmap/mail-relay",
            "deviation_type": "absent_key",
            "subject": "SMTP_PORT",
        }
    ]


@pytest.mark.parametrize("path", _fixture_paths(), ids=_rel)
def test_fixture_gets_its_expected_verdict(path, scenarios, profile):
    fixture = _load(path)
    assert path.relative_to(FIXTURES).parts[0] == scenarios[_named(fixture)][0].stem, (
        "fixtures live in a folder named after their scenario's file"
    )
    _, scenario = scenarios[_named(fixture)]
    verdict = evaluate(fixture, scenario, profile)
    expect = fixture["expect"]
    assert {
        "score": verdict.get("score"),
        "row": verdict.get("row"),
        "error": verdict.get("error"),
    } == {"score": float(expect["score"]), "row": expect["row"], "error": None}, fixture[
        "description"
    ]


def test_every_table_row_is_exercised(scenarios):
    rows: dict[str, set[int]] = {sid: set() for sid in scenarios}
    for path in _fixture_paths():
        fixture = _load(path)
        rows[_named(fixture)].add(fixture["expect"]["row"])
    assert rows == {
        sid: set(range(1, _table_length(doc) + 1)) for sid, (_, doc) in scenarios.items()
    }


def test_every_fixture_marks_at_most_one_final_answer():
    # a fixture marks at most one final answer (SPEC §5: the first one counts; a second
    # would make the fixture misleading to read)
    for path in _fixture_paths():
        finals = [
            e
            for e in _load(path).get("events", [])
            if e.get("kind") == "agent_response" and e.get("final") is True
        ]
        assert len(finals) <= 1, _rel(path)


@pytest.mark.parametrize("sid", sorted(_scenarios()))
def test_scenario_passes_the_probes(sid, scenarios, profile):
    from si_lint.evaluator import locate_table

    _, scenario = scenarios[sid]
    table = locate_table(scenario, profile)[0]
    failures = []
    for probe in probes(scenario, profile):
        verdict = evaluate(probe.artifact, scenario, profile)
        problem = probe.check(verdict, table)
        if problem is not None or verdict.get("error"):
            failures.append((probe.code, problem, verdict))
    assert failures == []


# Evidence runs carry no `expect`; their verdicts, derived by hand from SPEC §5:
# - mail-relay-agent-a: "SMTP_PORT is not present in configmap/mail-relay ..." is the
#   agent's own line (not in any tool response), names SMTP_PORT with the synonym
#   "not present" in one sentence, after 3 tool calls (budget 15): row 2, 1.0.
# - storefront-agent-b: names shop-tls (and tls.crt, which is not tls.key) with no
#   synonym, 2 tool calls (budget 20): row 2 fails (tls.key never named), row 3 holds: 0.5.
RUN_VERDICTS = {
    "mail-relay-agent-a.yaml": (
        "infra.capability.da.single-signal-diagnosis-001",
        {
            "score": 1.0,
            "row": 2,
            "metadata": {"tool_calls": 3, "final_answer": True, "duration_s": 35.0, "tokens": 4022},
        },
    ),
    "storefront-agent-b.json": (
        "infra.capability.da.storefront-tls-key-001",
        {
            "score": 0.5,
            "row": 3,
            "metadata": {"tool_calls": 2, "final_answer": True, "duration_s": 19.4, "tokens": 2210},
        },
    ),
}


def test_runs_are_evidence_with_the_verdicts_derived_by_hand(scenarios, profile):
    assert sorted(p.name for p in RUNS.iterdir()) == sorted(RUN_VERDICTS)
    got = {}
    for name, (sid, _) in RUN_VERDICTS.items():
        doc = _load(RUNS / name)
        assert "expect" not in doc
        got[name] = (doc["scenario"], evaluate(doc, scenarios[sid][1], profile))
    assert got == RUN_VERDICTS


def test_runs_json_file_is_plain_json():
    # the JSON run must stay valid JSON (not only YAML) so that other tools can read it
    json.loads((RUNS / "storefront-agent-b.json").read_text(encoding="utf-8"))


# --- the corpus lints clean, also under the strict coverage settings -----------------------


def _check(cwd: Path, *paths: str):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "si_lint.cli", "check", "--format", "json", "--no-cache", *paths],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_si_part_of_the_corpus_lints_with_zero_findings():
    code, out, err = _check(CORPUS, "scenarios", "fixtures", "runs")
    assert code == 0, err
    assert json.loads(out)["diagnostics"] == []


def test_corpus_is_clean_with_required_fixtures_and_band_coverage(tmp_path):
    # require-fixtures makes SI306 and require-band-coverage makes SI403 errors: the corpus
    # has a fixture for every scenario and exercises every row of every table
    import shutil

    for part in ("scenarios", "fixtures", "runs"):
        shutil.copytree(CORPUS / part, tmp_path / part)
    (tmp_path / "si-lint.toml").write_text(
        "require-fixtures = true\nrequire-band-coverage = true\n"
        '[per-file-ignores]\n"scenarios/platform-oncall.yaml" = ["SI115"]\n',
        encoding="utf-8",
    )
    code, out, err = _check(tmp_path, ".")
    assert code == 0, err
    report = json.loads(out)
    assert report["diagnostics"] == []
    assert report["summary"]["errors"] == 0
