"""`--format sarif`: schema-valid SARIF 2.1.0 with rule metadata, relative URIs, regions,
related locations and line-independent fingerprints (SPEC §9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import report_of, run_cli, write_files

from si_lint.findings import Finding, Location
from si_lint.pipeline import Options, run

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
        pytest.skip(
            f"SARIF schema not found at {SCHEMA} (expected ../shared/data beside the checkout)"
        )
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
        (
            "SI101",
            "error",
            loc,
            {"startLine": 13, "startColumn": 3, "endLine": 13, "endColumn": 7},
            "scoring.type",
        ),
        # `false  # keep` -- the value, not the comment
        (
            "SI113",
            "warning",
            loc,
            {"startLine": 18, "startColumn": 22, "endLine": 18, "endColumn": 27},
            "scoring.exclude_tool_echo",
        ),
    ]
    assert results[0]["message"]["text"] == "Form B scenario declares `scoring.type`"
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]


def test_every_catalogue_rule_has_metadata_within_code_scanning_limits(tmp_path):
    from si_lint import rule_url
    from si_lint.catalogue import rules

    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    doc = sarif_of(tmp_path)
    descriptors = doc["runs"][0]["tool"]["driver"]["rules"]
    catalogue = rules()
    assert [d["id"] for d in descriptors] == list(catalogue)
    level = {"error": "error", "warning": "warning", "info": "note"}
    cut = 0
    for d in descriptors:
        rule = catalogue[d["id"]]
        rationale = " ".join((rule.rationale or rule.summary).split())
        full = d["fullDescription"]["text"]
        assert 0 < len(full) <= 1024, (d["id"], len(full))  # GitHub's documented limit
        if len(rationale) <= 1024:
            assert " ".join(full.split()) == rationale
        else:  # cut at a sentence or word, the whole text stays in help.markdown
            cut += 1
            assert full.endswith("…") and rationale.startswith(" ".join(full.rstrip(" …").split()))
        assert " ".join(d["shortDescription"]["text"].split()) == " ".join(rule.summary.split())
        assert " ".join(d["help"]["text"].split()) == " ".join((rule.fix or rule.summary).split())
        assert rationale in " ".join(d["help"]["markdown"].split())
        assert "\n" not in d["shortDescription"]["text"]
        assert d["defaultConfiguration"] == {"level": level[rule.severity]}
        assert d["helpUri"] == rule_url(d["id"]) and d["helpUri"].endswith(
            f"/docs/rules/{d['id']}.md"
        )
        assert (REPO / "docs" / "rules" / f"{d['id']}.md").is_file(), (
            "helpUri names a generated page"
        )
    assert cut > 0, "the catalogue has rationales over 1,024 characters: the cut is exercised"


def _result(tmp_path: Path):
    write_files(tmp_path, {"scenarios/a.yaml": SCENARIO, "scenarios/b.yaml": SCENARIO})
    return run([], Options(use_cache=False), cwd=tmp_path)


def test_related_locations_for_a_cross_file_finding(tmp_path, monkeypatch):
    result = _result(tmp_path)
    dup = Finding(
        path="scenarios/b.yaml",
        line=1,
        column=5,
        code="SI301",
        severity="error",
        message="duplicate scenario id `infra.capability.da.alertmanager-smarthost-001`",
        doc_path="id",
        related=(Location("scenarios/a.yaml", 1, 5, "first declared here"),),
    )
    result.findings = [dup]
    monkeypatch.chdir(tmp_path)
    doc = json.loads(report_of(result, "sarif"))
    assert_valid(doc)
    (res,) = doc["runs"][0]["results"]
    # the related location is linked from the message (SARIF embedded link `[text](id)`)
    assert res["message"]["text"] == (
        "duplicate scenario id `infra.capability.da.alertmanager-smarthost-001` (see [first declared here](1))"
    )
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
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in related] == [
        "scenarios/a.yaml"
    ]
    assert (
        dups[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "scenarios/b.yaml"
    )


def _prints(doc: dict) -> list[tuple]:
    return [
        (
            r["ruleId"],
            r["partialFingerprints"]["siLint/v1"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
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
    from types import SimpleNamespace

    from si_lint.report.fingerprint import Fingerprinter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("a: 1\nb: [1,\n", encoding="utf-8")
    f1 = Finding("x.yaml", 2, 4, "SI001", "error", "bad")
    bare = SimpleNamespace(corpus=None, config=None)
    a = Fingerprinter(bare).fingerprints([f1, f1])
    (tmp_path / "x.yaml").write_text("# moved\n\na: 1\nb: [1,\n", encoding="utf-8")
    b = Fingerprinter(bare).fingerprints([f1._replace(line=4)])
    assert a[0] == b[0]  # same code, file, stripped line `b: [1,`, first occurrence
    assert a[1] != a[0]  # the second occurrence of the same anchor differs


TWO_ON_ONE_LINE = SCENARIO.replace(
    "channels: [agent_response]", "channels: [agent_response, reasoning_trace, tool_output]"
)


def test_two_findings_on_one_line_have_distinct_fingerprints_and_line_hashes(tmp_path):
    """Code scanning keys alerts on primaryLocationLineHash and computes it from the line when
    it is absent (two findings on one line would merge): si-lint sets it, distinct per result."""
    write_files(tmp_path, {"scenarios/s.yaml": TWO_ON_ONE_LINE})
    doc = sarif_of(tmp_path, "--select", "SI105,SI106")
    assert_valid(doc)
    results = doc["runs"][0]["results"]
    lines = {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results}
    assert len(results) == 2 and len(lines) == 1, results
    prints = [r["partialFingerprints"] for r in results]
    assert all(set(p) == {"siLint/v1", "primaryLocationLineHash"} for p in prints)
    assert len({p["siLint/v1"] for p in prints}) == 2
    assert len({p["primaryLocationLineHash"] for p in prints}) == 2
    for p in prints:
        assert p["primaryLocationLineHash"] == p["siLint/v1"][:16] + ":1"


def test_automation_details_id_is_settable(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    doc = sarif_of(tmp_path, "--automation-id", "si-lint/corpus")
    assert_valid(doc)
    assert doc["runs"][0]["automationDetails"] == {"id": "si-lint/corpus"}
    assert "automationDetails" not in sarif_of(tmp_path)["runs"][0]
    code, out, err = run_cli(["check", "--format", "json", "--automation-id", "x"], tmp_path)
    assert code == 2 and "--automation-id is a SARIF setting" in err


def test_sarif_is_deterministic_and_relative(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code1, out1, _ = run_cli(["check", "--format", "sarif", "--no-cache"], tmp_path)
    code2, out2, _ = run_cli(["check", "--format", "sarif", "--no-cache"], tmp_path)
    assert out1 == out2
    assert str(tmp_path) not in out1


def test_output_file_gets_sarif_and_stdout_stays_empty(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code, out, err = run_cli(
        [
            "check",
            "--format",
            "sarif",
            "--no-cache",
            "--select",
            "SI101,SI113",
            "--output",
            "report.sarif",
        ],
        tmp_path,
    )
    assert (code, out) == (1, "")
    doc = json.loads((tmp_path / "report.sarif").read_text(encoding="utf-8"))
    assert_valid(doc)
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["SI101", "SI113"]


def test_every_rule_has_precision_and_problem_severity():
    from types import SimpleNamespace

    from si_lint.catalogue import rules

    doc = json.loads(report_of(SimpleNamespace(findings=[], files=0), "sarif"))
    assert_valid(doc)
    catalogue = rules()
    problem = {"error": "error", "warning": "warning", "info": "recommendation"}
    got = {
        r["id"]: (r["properties"]["precision"], r["properties"]["problem.severity"])
        for r in doc["runs"][0]["tool"]["driver"]["rules"]
    }
    assert got == {code: ("very-high", problem[rule.severity]) for code, rule in catalogue.items()}


def test_duplicate_key_points_at_the_first_as_a_related_location(tmp_path):
    write_files(tmp_path, {"notes.yaml": "title: t\nlimits: {retries: 3, retries: 5}\n"})
    doc = sarif_of(tmp_path, "--select", "SI002", "notes.yaml")
    assert_valid(doc)
    (res,) = doc["runs"][0]["results"]
    assert res["message"] == {
        "text": "duplicate mapping key 'retries' (first at line 2, column 10) (see [first](1))"
    }
    assert res["relatedLocations"] == [
        {
            "id": 1,
            "message": {"text": "first"},
            "physicalLocation": {
                "artifactLocation": {"uri": "notes.yaml", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 2, "startColumn": 10, "endLine": 2, "endColumn": 17},
            },
        }
    ]
    code, out, _ = run_cli(["check", "--no-cache", "--select", "SI002", "notes.yaml"], tmp_path)
    assert code == 1
    assert out.splitlines()[:5] == [
        "notes.yaml:2:22: SI002 [error] duplicate mapping key 'retries' (first at line 2, "
        "column 10)",
        " 2 | limits: {retries: 3, retries: 5}",
        "   |                      ^",
        "  help: remove one of the two keys; YAML readers disagree on which wins",
        "  note: notes.yaml:2:10: first",
    ]
