"""Subsets (SPEC §9): `si-lint check a.yaml` — as pre-commit calls it — still resolves every
reference against the whole corpus under the corpus root, and reports only on the named
files."""

from __future__ import annotations

import textwrap

from conftest import check_json, write_files

SID = "infra.capability.da.single-signal-diagnosis-001"

SCENARIO = textwrap.dedent(f"""\
    id: {SID}
    archetype: C-DA-001
    injection:
      deviations:
        - id: smtp-port-removed
          deviation_type: absent_key
          resource: configmap/mail-relay
          subject: SMTP_PORT
    scoring:
      archetype_template: C-DA-001
      factor: {{ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}}
      subsystem_set: [mail-relay, SMTP_PORT]
      channels: [agent_response]
      step_budget: 15
      exclude_tool_echo: true
    """)

FIXTURE_WRONG = (
    f"scenario: {SID}\nexpect: {{score: 0.5, row: 2}}\nevents:\n"
    "  - kind: agent_response\n"
    "    text: SMTP_PORT is missing from configmap/mail-relay.\n"
    "    final: true\n"
)

FILES = {
    "si-lint.toml": "",
    "scenarios/a.yaml": SCENARIO,
    "scenarios/b.yaml": SCENARIO,  # duplicate id: SI301 is reported on b.yaml
    "fixtures/f.yaml": FIXTURE_WRONG,  # scores 1.0 at row 2: SI401 at expect.score
}


def findings(cwd, *args):
    _, report = check_json(cwd, "--select", "SI3,SI4", *args)
    return report, [(d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]]


def test_the_whole_corpus(tmp_path):
    write_files(tmp_path, FILES)
    _, got = findings(tmp_path)
    assert got == [
        ("SI401", "fixtures/f.yaml", 2, 17),
        ("SI403", "scenarios/a.yaml", 9, 1),  # rows 1, 3 and 4 of C-DA-001
        ("SI403", "scenarios/a.yaml", 9, 1),
        ("SI403", "scenarios/a.yaml", 9, 1),
        ("SI301", "scenarios/b.yaml", 1, 5),
    ]


def test_cross_file_si301_only_for_the_named_later_file(tmp_path):
    write_files(tmp_path, FILES)
    report, got = findings(tmp_path, "scenarios/b.yaml")
    assert got == [("SI301", "scenarios/b.yaml", 1, 5)]
    assert report["diagnostics"][0]["related"] == [
        {"path": "scenarios/a.yaml", "line": 1, "column": 5, "message": "first defined here"}
    ]
    assert report["summary"]["files"] == 1


def test_naming_the_first_definition_reports_the_duplicate_too(tmp_path):
    """A staged duplicate id that sorts first (pre-commit names a.yaml only): SI301 sits on
    the later file, b.yaml, and names a.yaml as its related location -- it concerns the
    named file, so it is reported (issue 14: it used to pass)."""
    write_files(tmp_path, FILES)
    report, got = findings(tmp_path, "scenarios/a.yaml", "--ignore", "SI403")
    # SI401 too: the fixture's verdict depends on the named scenario (its related location)
    assert got == [("SI401", "fixtures/f.yaml", 2, 17), ("SI301", "scenarios/b.yaml", 1, 5)]
    assert report["diagnostics"][1]["related"][0]["path"] == "scenarios/a.yaml"


def test_a_renamed_scenario_reports_the_fixture_it_leaves_dangling(tmp_path):
    """Naming only the scenario whose id changed: the unstaged fixture's SI303 depends on
    every scenario (any of them could define the id), so it is reported."""
    files = dict(FILES)
    del files["scenarios/b.yaml"]
    files["scenarios/a.yaml"] = SCENARIO.replace(SID, SID.replace("-001", "-002"))
    write_files(tmp_path, files)
    _, got = findings(tmp_path, "scenarios/a.yaml", "--select", "SI303")
    # and the renamed scenario now has no fixture (SI306)
    assert got == [("SI303", "fixtures/f.yaml", 1, 11), ("SI306", "scenarios/a.yaml", 1, 5)]
    # a fixture named alone does not drag in the scenarios' own findings
    _, got = findings(tmp_path, "fixtures/f.yaml", "--select", "SI303,SI403")
    assert got == [("SI303", "fixtures/f.yaml", 1, 11)]


def test_a_named_fixture_is_dry_run_against_the_whole_corpus(tmp_path):
    write_files(tmp_path, FILES)
    _, got = findings(tmp_path, "fixtures/f.yaml")
    # the scenario is found although not named: no SI303, and the dry run runs
    assert got == [("SI401", "fixtures/f.yaml", 2, 17)]


def test_a_named_scenario_counts_fixtures_it_was_not_given(tmp_path):
    files = dict(FILES)
    del files["scenarios/b.yaml"]
    write_files(tmp_path, files)
    _, got = findings(tmp_path, "scenarios/a.yaml")
    # no SI306: the fixture elsewhere in the corpus counts; it covers row 2 only. Its wrong
    # expectation (SI401) is reported too: it points at the named scenario's row
    assert got == [("SI401", "fixtures/f.yaml", 2, 17)] + [("SI403", "scenarios/a.yaml", 9, 1)] * 3


def test_batches_as_pre_commit_passes_them(tmp_path):
    write_files(tmp_path, FILES)
    _, got = findings(tmp_path, "fixtures/f.yaml", "scenarios/b.yaml")
    assert got == [("SI401", "fixtures/f.yaml", 2, 17), ("SI301", "scenarios/b.yaml", 1, 5)]
    _, got = findings(tmp_path, "scenarios")
    assert got == [("SI401", "fixtures/f.yaml", 2, 17)] + [
        ("SI403", "scenarios/a.yaml", 9, 1)
    ] * 3 + [("SI301", "scenarios/b.yaml", 1, 5)]


def test_from_a_subdirectory_the_root_is_still_the_corpus_root(tmp_path):
    write_files(tmp_path, FILES)
    report, got = findings(tmp_path / "scenarios", "b.yaml")
    assert got == [("SI301", "b.yaml", 1, 5)]
    assert report["diagnostics"][0]["related"] == [
        {"path": "a.yaml", "line": 1, "column": 5, "message": "first defined here"}
    ]


def test_unknown_scenario_only_when_unknown_in_the_whole_corpus(tmp_path):
    files = {
        "si-lint.toml": "",
        "scenarios/a.yaml": SCENARIO,
        "runs/ok.yaml": f"scenario: {SID}\nevents: []\n",
        "runs/bad.yaml": "scenario: elsewhere-001\nevents: []\n",
    }
    write_files(tmp_path, files)
    _, got = findings(tmp_path, "runs/ok.yaml", "runs/bad.yaml")
    assert got == [("SI303", "runs/bad.yaml", 1, 11)]


def test_a_subdirectory_as_the_default_path_reports_only_what_is_under_it(tmp_path):
    write_files(tmp_path, FILES)
    _, got = findings(tmp_path / "fixtures")
    # the scenario findings (SI403 in ../scenarios/a.yaml, SI301 in ../scenarios/b.yaml)
    # are outside the named directory
    assert got == [("SI401", "f.yaml", 2, 17)]
