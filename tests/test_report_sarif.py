"""`--format sarif`: schema-valid SARIF 2.1.0 with rule metadata, relative URIs, regions,
related locations and line-independent fingerprints (SPEC §9)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import run_cli, write_files
from si_lint.engine import Options, run
from si_lint.findings import Finding, Location
from si_lint.report import render

REPO = Path(__file__).resolve().parents[1]
SCHEMA = Path(__file__).resolve().parents[2] / "shared/data/sarif-schema-2.1.0.json"

SCENARIO = """\
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: On-call stops receiving alert e-mails
description: no alert e-mail reaches the on-call mailbox
injection:
  deviations:
    - id: smarthost-removed
      deviation_type: absent_key
      resource: secret/alertmanager-main
      subject: smtp_smarthost
scoring:
  archetype_template: C-DA-001
  type: graded
  factor: {ref: smarthost-removed, required_identifiers: [smtp_smarthost]}
  subsystem_set: [alertmanager-main, smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  exclude_tool_echo: false  # keep
"""


def validator():
    if not SCHEMA.is_file():
        pytest.skip(f"SARIF schema not found at {SCHEMA} (expected ../shared/data beside the checkout)")
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema)


def assert_valid(doc: dict) -> None:
    errors = sorted(validator().iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def sarif_of(cwd: Path, *args: str) -> dict:
    code, out, err = run_cli(["check", "--format", "sarif", "--no-cache", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return json.loads(out)


def test_fixture_corpus_sarif_validates():
    doc = sarif_of(REPO / "fixtures")
    assert_valid(doc)
    assert doc["version"] == "2.1.0"
    assert doc["runs"][0]["tool"]["driver"]["name"] == "si-lint"


def test_broken_corpus_results_are_exact_and_valid(tmp_path):
    write_files(tmp_path, {"scenarios/my smarthost.yaml": SCENARIO})
    doc = sarif_of(tmp_path, "--select", "SI101,SI113")
    assert_valid(doc)
    results = doc["runs"][0]["results"]
    got = [
        (
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"],
            r["locations"][0]["physicalLocation"]["region"],
            r["properties"]["jsonPath"],
        )
        for r in results
    ]
    loc = {"uri": "scenarios/my%20smarthost.yaml", "uriBaseId": "%SRCROOT%"}
    assert got == [
        # `type: graded` -- the key `type` spans columns 3..6
        ("SI101", "error", loc, {"startLine": 13, "startColumn": 3, "endLine": 13, "endColumn": 7},
         "scoring.type"),
        # `false  # keep` -- the value, not the comment
        ("SI113", "warning", loc, {"startLine": 18, "startColumn": 22, "endLine": 18, "endColumn": 27},
         "scoring.exclude_tool_echo"),
    ]
    assert results[0]["message"]["text"] == "Form B scenario declares `scoring.type`"
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]


def test_every_catalogue_rule_has_metadata(tmp_path):
    from si_lint.catalogue import rules

    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    doc = sarif_of(tmp_path)
    descriptors = doc["runs"][0]["tool"]["driver"]["rules"]
    catalogue = rules()
    assert [d["id"] for d in descriptors] == list(catalogue)
    level = {"error": "error", "warning": "warning", "info": "note"}
    for d in descriptors:
        rule = catalogue[d["id"]]
        assert " ".join(d["shortDescription"]["text"].split()) == " ".join(rule.summary.split())
        assert " ".join(d["fullDescription"]["text"].split()) == " ".join((rule.rationale or rule.summary).split())
        assert " ".join(d["help"]["text"].split()) == " ".join((rule.fix or rule.summary).split())
        assert "\n" not in d["shortDescription"]["text"]
        assert d["defaultConfiguration"] == {"level": level[rule.severity]}


def _result(tmp_path: Path):
    write_files(tmp_path, {"scenarios/a.yaml": SCENARIO, "scenarios/b.yaml": SCENARIO})
    return run([], Options(use_cache=False), cwd=tmp_path)


def test_related_locations_for_a_cross_file_finding(tmp_path, monkeypatch):
    result = _result(tmp_path)
    dup = Finding(
        path="scenarios/b.yaml", line=1, column=5, code="SI301", severity="error",
        message="duplicate scenario id `infra.capability.da.alertmanager-smarthost-001`",
        doc_path="id",
        related=(Location("scenarios/a.yaml", 1, 5, "first declared here"),),
    )
    result = replace(result, findings=[dup])
    monkeypatch.chdir(tmp_path)
    doc = json.loads(render(result, "sarif"))
    assert_valid(doc)
    (res,) = doc["runs"][0]["results"]
    assert res["relatedLocations"] == [
        {
            "id": 1,
            "message": {"text": "first declared here"},
            "physicalLocation": {
                "artifactLocation": {"uri": "scenarios/a.yaml", "uriBaseId": "%SRCROOT%"},
                # the id value `infra.capability.da.alertmanager-smarthost-001` (46 chars)
                "region": {"startLine": 1, "startColumn": 5, "endLine": 1, "endColumn": 51},
            },
        }
    ]


def test_real_duplicate_id_carries_related_location_when_graph_checks_exist(tmp_path):
    write_files(tmp_path, {"scenarios/a.yaml": SCENARIO, "scenarios/b.yaml": SCENARIO})
    doc = sarif_of(tmp_path)
    assert_valid(doc)
    dups = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "SI301"]
    if not dups:
        pytest.skip("SI301 (duplicate scenario id) is not implemented yet")
    related = dups[0]["relatedLocations"]
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in related] == ["scenarios/a.yaml"]
    assert dups[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "scenarios/b.yaml"


def _prints(doc: dict) -> list[tuple]:
    return [
        (r["ruleId"], r["partialFingerprints"]["siLint/v1"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in doc["runs"][0]["results"]
    ]


def test_fingerprints_survive_lines_inserted_above(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    before = _prints(sarif_of(tmp_path, "--select", "SI101,SI113"))
    shifted = "# a new header comment\n# and another\n\n" + SCENARIO.replace(
        "description:", "owner: mail-team\ndescription:"
    )
    write_files(tmp_path, {"scenarios/s.yaml": shifted})
    after = _prints(sarif_of(tmp_path, "--select", "SI101,SI113"))
    assert [(c, fp) for c, fp, _ in after] == [(c, fp) for c, fp, _ in before]
    assert [line for *_, line in after] == [line + 4 for *_, line in before]
    assert len({fp for _, fp, _ in before}) == len(before)


def test_fingerprint_without_json_path_uses_the_source_line(tmp_path, monkeypatch):
    from si_lint.report.sarif import SourceCache, fingerprints

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("a: 1\nb: [1,\n", encoding="utf-8")
    f1 = Finding("x.yaml", 2, 4, "SI001", "error", "bad")
    a = fingerprints([f1, f1], SourceCache())
    (tmp_path / "x.yaml").write_text("# moved\n\na: 1\nb: [1,\n", encoding="utf-8")
    b = fingerprints([replace(f1, line=4)], SourceCache())
    assert a[0] == b[0]  # same code, file, stripped line `b: [1,`, first occurrence
    assert a[1] != a[0]  # the second occurrence of the same anchor differs


def test_sarif_is_deterministic_and_relative(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code1, out1, _ = run_cli(["check", "--format", "sarif", "--no-cache"], tmp_path)
    code2, out2, _ = run_cli(["check", "--format", "sarif", "--no-cache"], tmp_path)
    assert out1 == out2
    assert str(tmp_path) not in out1


def test_output_file_gets_sarif_and_stdout_stays_empty(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code, out, err = run_cli(["check", "--format", "sarif", "--no-cache", "--select", "SI101,SI113",
                              "--output", "report.sarif"], tmp_path)
    assert (code, out) == (1, "")
    doc = json.loads((tmp_path / "report.sarif").read_text(encoding="utf-8"))
    assert_valid(doc)
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["SI101", "SI113"]
