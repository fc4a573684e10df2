"""Corpus checks SI301–SI306: whole diagnostics (code, path, line, column, severity) and the
related locations of cross-file findings. Positions are read off the YAML by hand."""

from __future__ import annotations

from conftest import check_json, write_files

SID = "infra.capability.da.single-signal-diagnosis-001"


def scenario(
    sid=SID, deviations=("smtp-port-removed",), ref="smtp-port-removed", archetype="C-DA-001"
):
    devs = "".join(f"    - id: {d}\n      deviation_type: absent_key\n" for d in deviations)
    return (
        f"id: {sid}\n"  # 1
        f"archetype: {archetype}\n"  # 2
        "injection:\n"  # 3
        "  deviations:\n"  # 4
        + devs  # 5.. (two lines each)
        + "scoring:\n"
        "  archetype_template: C-DA-001\n"
        f"  factor: {{ref: {ref}, required_identifiers: [SMTP_PORT]}}\n"
        "  subsystem_set: [mail-relay, SMTP_PORT]\n"
        "  channels: [agent_response]\n"
        "  step_budget: 15\n"
        "  exclude_tool_echo: true\n"
    )


def fixture(sid=SID, score=1.0, row=2, text="SMTP_PORT is missing from configmap/mail-relay."):
    return (
        f"scenario: {sid}\n"
        f"expect: {{score: {score}, row: {row}}}\n"
        "events:\n"
        "  - kind: agent_response\n"
        f"    text: {text}\n"
        "    final: true\n"
    )


def diags(tmp_path, files, *args):
    write_files(tmp_path, files)
    _, report = check_json(tmp_path, *args)
    return report, [
        (d["code"], d["path"], d["line"], d["column"], d["severity"]) for d in report["diagnostics"]
    ]


def test_si301_each_later_definition_with_the_first_as_related(tmp_path):
    files = {
        "scenarios/a.yaml": scenario(),
        "scenarios/b.yaml": scenario(),
        "scenarios/c/x.yaml": scenario(),
    }
    report, got = diags(tmp_path, files, "--select", "SI301,SI306")
    assert got == [
        ("SI306", "scenarios/a.yaml", 1, 5, "info"),
        ("SI301", "scenarios/b.yaml", 1, 5, "error"),
        ("SI301", "scenarios/c/x.yaml", 1, 5, "error"),
    ]
    related = [d["related"] for d in report["diagnostics"] if d["code"] == "SI301"]
    first = [{"path": "scenarios/a.yaml", "line": 1, "column": 5, "message": "first defined here"}]
    assert related == [first, first]


def test_si301_text_output_has_a_note_line(tmp_path):
    from conftest import run_cli

    write_files(tmp_path, {"scenarios/a.yaml": scenario(), "scenarios/b.yaml": scenario()})
    code, out, _ = run_cli(["check", "--no-cache", "--select", "SI301"], tmp_path)
    assert code == 1
    assert "scenarios/b.yaml:1:5: SI301 [error] duplicate scenario id" in out
    assert "scenarios/a.yaml:1:5" in out  # the related location is shown


def test_si302_second_and_later_occurrences(tmp_path):
    files = {"s.yaml": scenario(deviations=("d", "e", "d", "d"), ref="d", archetype="C-MS-001")}
    report, got = diags(tmp_path, files, "--select", "SI302,SI304")
    # deviations[i] starts on line 5 + 2*i; its `id` value is at column 11
    assert got == [
        ("SI304", "s.yaml", 7, 7, "warning"),  # `e` is referenced by no factor
        ("SI302", "s.yaml", 9, 11, "error"),
        ("SI302", "s.yaml", 11, 11, "error"),
    ]
    related = [d["related"] for d in report["diagnostics"] if d["code"] == "SI302"]
    first = [{"path": "s.yaml", "line": 5, "column": 11, "message": "first declared here"}]
    assert related == [first, first]


def test_si302_is_per_document_even_under_a_duplicate_scenario_id(tmp_path):
    files = {"a.yaml": scenario(), "b.yaml": scenario()}
    _, got = diags(tmp_path, files, "--select", "SI302")
    assert got == []


def test_si303_fixture_and_evidence_naming_unknown_scenarios(tmp_path):
    files = {
        "scenarios/s.yaml": scenario(),
        "fixtures/typo.yaml": fixture(sid=SID[:-1]),
        "fixtures/ok.yaml": fixture(),
        "runs/a.yaml": "scenario: gone-001\nevents: []\n",
        "runs/no-scenario.yaml": "events: []\n",  # evaluated by eval: fine
        "runs/not-a-string.yaml": "scenario: [1]\nevents: []\n",  # a schema problem, not SI303
    }
    report, got = diags(tmp_path, files, "--select", "SI303")
    assert got == [
        ("SI303", "fixtures/typo.yaml", 1, 11, "error"),
        ("SI303", "runs/a.yaml", 1, 11, "error"),
    ]
    helps = [d.get("help") for d in report["diagnostics"]]
    assert helps == [f"did you mean `{SID}`?", "name the `id` of a scenario in the corpus"]


def test_si304_only_for_form_b_and_not_for_repeated_ids(tmp_path):
    form_a = (
        "id: form-a\ninjection:\n  deviations:\n    - {id: x, deviation_type: absent_key}\n"
        "scoring:\n  type: weighted\n  rubric: {correct: 1.0}\n"
    )
    composite = (
        "id: comp\ninjection:\n  deviations:\n"
        "    - {id: used, deviation_type: absent_key}\n"  # line 4
        "    - {id: unused, deviation_type: absent_key}\n"  # line 5
        "scoring:\n  composite:\n    reason: r\n    table:\n"
        "      - when:\n          factor_identified:\n"
        "            factor: {ref: used, required_identifiers: [K]}\n"
        "            channels: [agent_response]\n"
        "        score: 1.0\n"
        "      - {when: else, score: 0.0}\n"
    )
    files = {
        "a.yaml": form_a,
        "b.yaml": composite,
        "c.yaml": scenario(sid="two", deviations=("p", "q"), ref="q"),
    }
    _, got = diags(tmp_path, files, "--select", "SI304")
    assert got == [("SI304", "b.yaml", 5, 7, "warning"), ("SI304", "c.yaml", 5, 7, "warning")]


def test_si305_only_for_c_da_001_with_a_deviations_list(tmp_path):
    files = {
        "none.yaml": "id: none\narchetype: C-DA-001\ninjection:\n  deviations: []\n"
        "scoring: {archetype_template: C-DA-001}\n",
        "no-injection.yaml": "id: noinj\narchetype: C-DA-001\nscoring: {archetype_template: C-DA-001}\n",
        "no-deviations.yaml": "id: nodev\nscoring: {archetype_template: C-DA-001}\ninjection: {}\n",
        "two.yaml": scenario(sid="two", deviations=("p", "q"), ref="p", archetype="C-DA-001"),
        "two-by-template.yaml": scenario(
            sid="two-t", deviations=("p", "q"), ref="p", archetype=""
        ).replace("archetype: \n", ""),
        "multi.yaml": scenario(sid="multi", deviations=("p", "q"), ref="p", archetype="C-DA-002"),
        "cascading.yaml": scenario(
            sid="casc", deviations=("p", "q"), ref="p", archetype="C-DA-004"
        ),
        "one.yaml": scenario(sid="one"),
    }
    report, got = diags(tmp_path, files, "--select", "SI305")
    assert got == [
        ("SI305", "none.yaml", 4, 3, "warning"),  # at `injection.deviations`
        ("SI305", "two-by-template.yaml", 3, 3, "warning"),  # archetype_template, no archetype
        ("SI305", "two.yaml", 4, 3, "warning"),
    ]
    assert [d["message"] for d in report["diagnostics"]] == [
        "single-signal archetype C-DA-001 declares no deviation; it needs exactly one",
        "single-signal archetype C-DA-001 declares 2 deviations (`p`, `q`); it needs exactly one",
        "single-signal archetype C-DA-001 declares 2 deviations (`p`, `q`); it needs exactly one",
    ]


def test_si306_only_for_scenarios_with_a_table(tmp_path):
    files = {
        "form-a.yaml": "id: fa\nclassification: capability\nscoring: {type: weighted, rubric: {a: 1.0}}\n",
        "safety.yaml": "id: sa\nclassification: safety\nscoring: {type: binary, safety_tolerance: 0}\n",
        "former.yaml": "id: fo\nscoring: {template: C-DA-001, bindings: {}}\n",
        "composite.yaml": "id: co\nscoring: {composite: {reason: r, table: [{when: else, score: 0}]}}\n",
        "form-b.yaml": scenario(sid="fb"),
    }
    _, got = diags(tmp_path, files, "--select", "SI306")
    assert got == [
        ("SI306", "composite.yaml", 1, 5, "info"),
        ("SI306", "form-b.yaml", 1, 5, "info"),
    ]


def test_si306_info_error_under_require_fixtures_and_once_per_id(tmp_path):
    files = {
        "a.yaml": scenario(),
        "b.yaml": scenario(),
        "c.yaml": scenario(sid="covered"),
        "f.yaml": fixture(sid="covered"),
    }
    _, got = diags(tmp_path, files, "--select", "SI306")
    assert got == [("SI306", "a.yaml", 1, 5, "info")]
    (tmp_path / "si-lint.toml").write_text("require-fixtures = true\n")
    _, got = diags(tmp_path, {}, "--select", "SI306")
    assert got == [("SI306", "a.yaml", 1, 5, "error")]


def test_hostile_shapes_do_not_crash(tmp_path):
    files = {
        "a.yaml": "id: a\nscoring: 1\ninjection: [1]\narchetype: C-DA-001\n",
        "b.yaml": "id: b\nscoring: {archetype_template: C-DA-001}\ninjection: {deviations: 5}\n",
        "e.yaml": "id: e\nscoring: {archetype_template: [x], factor: {ref: {}}}\ninjection: 1\n",
        "f.yaml": "scenario_id: [1]\nfinal_answer: x\nexpect: 3\n",
        "c.yaml": "id: c\nscoring: {composite: 3}\ninjection: {deviations: [null, 1, {id: [x]}]}\n",
        "d.yaml": "scenario: {a: 1}\nexpect: 3\nevents: x\n",
    }
    report, got = diags(tmp_path, files, "--select", "SI0,SI3")
    assert [g for g in got if g[0] == "SI000"] == []
