"""SI119: the former si-lint spelling `scoring.template` + `scoring.bindings`, and its safe fix
into the published spelling (`archetype_template`, the roles flat under `scoring`).
Whole diagnostics; positions derived by hand from the texts below."""

from __future__ import annotations

import pytest
from conftest import check_json, diag_tuples, run_cli, write_files

from si_lint.fix import Fix
from si_lint.fix.text import fix_text

S = "scenarios/s.yaml"
TOML = 'ignore = ["SI306", "SI403", "SI6"]   # minimal scenarios: the core rules (SI6xx) have their own tests\n'

HEAD = """\
id: infra.capability.da.single-signal-diagnosis-001
classification: capability
archetype: C-DA-001
injection:
  deviations:
    - id: smtp-port-removed
      resource: configmap/mail-relay
      deviation_type: absent_key
      subject: SMTP_PORT
"""
# line 10: scoring, 11: template, 13: bindings
FORMER = (
    HEAD
    + """\
scoring:
  template: C-DA-001    # the archetype
  # the roles follow
  bindings:
    factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}
    subsystem_set: [mail-relay, SMTP_PORT]   # the subsystem (its column is kept)
    channels: [agent_response]
    step_budget: 15
    exclude_tool_echo: true
"""
)
PUBLISHED = (
    HEAD
    + """\
scoring:
  archetype_template: C-DA-001    # the archetype
  # the roles follow
  factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}
  subsystem_set: [mail-relay, SMTP_PORT]     # the subsystem (its column is kept)
  channels: [agent_response]
  step_budget: 15
  exclude_tool_echo: true
"""
)
MESSAGE = (
    "the former si-lint spelling `scoring.template` + `scoring.bindings`: oasisctl "
    'refuses the whole file ("neither Form A nor Form B")'
)


def lint(tmp_path, text, select="SI"):
    write_files(tmp_path, {"si-lint.toml": TOML, S: text})
    _, report = check_json(tmp_path, "--select", select)
    return report


def test_si119_at_the_template_key_and_nothing_else(tmp_path):
    report = lint(tmp_path, FORMER)
    assert [
        (d["code"], d["path"], d["line"], d["column"], d["severity"], d["message"])
        for d in report["diagnostics"]
    ] == [("SI119", S, 11, 3, "error", MESSAGE)]


@pytest.mark.parametrize(
    "scoring,where",
    [  # HEAD is 9 lines: `scoring` is line 10
        ("scoring:\n  template: C-DA-001\n", (11, 3)),
        ("scoring:\n  bindings: {step_budget: 15}\n", (11, 3)),  # at bindings
        ("scoring:\n  bindings: {step_budget: 15}\n  template: C-DA-001\n", (12, 3)),  # at template
        (
            "scoring:\n  archetype_template: C-DA-001\n  template: C-DA-001\n  step_budget: 15\n",
            (12, 3),
        ),
        ("scoring:\n  template: 7\n  bindings: [1, 2]\n  type: weighted\n  rubric: x\n", (11, 3)),
    ],
)
def test_either_key_is_si119_only(tmp_path, scoring, where):
    report = lint(tmp_path, HEAD + scoring, select="SI1,SI2,SI3")
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        ("SI119", *where)
    ]


def test_a_former_spelling_scenario_is_not_evaluated(tmp_path):
    fixture = (
        "scenario: infra.capability.da.single-signal-diagnosis-001\n"
        "expect: {score: 0.5, row: 9}\n"  # wrong on purpose: it must not be dry-run
        "events:\n  - {kind: agent_response, text: SMTP_PORT is missing., final: true}\n"
    )
    write_files(
        tmp_path,
        {"si-lint.toml": "require-fixtures = true\n", S: FORMER, "fixtures/f.yaml": fixture},
    )
    _, report = check_json(tmp_path, "--select", "SI1,SI3,SI4")
    # no SI401/SI402 (not evaluated), no SI306 (no table), no SI110/SI116 for its keys
    assert diag_tuples(report) == [("SI119", S, 11, 3)]


def test_fix_data(tmp_path):
    from si_lint.pipeline import Options, run

    write_files(tmp_path, {"si-lint.toml": TOML, S: FORMER})
    (finding,) = run([], Options(use_cache=False), cwd=tmp_path).findings
    assert finding.code == "SI119"
    assert tuple(finding.fix) == (
        Fix("rename_key", ("scoring", "template"), "archetype_template"),
        Fix("lift", ("scoring", "bindings")),
    )


def test_fix_rewrites_into_the_published_spelling_keeping_comments(tmp_path):
    write_files(tmp_path, {"si-lint.toml": TOML, S: FORMER})
    code, _out, err = run_cli(["check", "--no-cache", "--ignore", "SI6", "--fix"], tmp_path)
    assert (code, (tmp_path / S).read_text()) == (0, PUBLISHED), err
    assert diag_tuples(lint(tmp_path, PUBLISHED)) == []
    code, _out, _err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix"], tmp_path
    )  # a second run: nothing
    assert (code, (tmp_path / S).read_text()) == (0, PUBLISHED)


def test_fix_text_on_a_flow_scoring():
    text = HEAD + (
        "scoring: {template: C-DA-001, bindings: {step_budget: 15, channels: [agent_response]}}\n"
    )
    new, applied = fix_text(
        text,
        [
            Fix("rename_key", ("scoring", "template"), "archetype_template"),
            Fix("lift", ("scoring", "bindings")),
        ],
    )
    assert len(applied) == 2
    from si_lint.loader import load_bytes

    assert load_bytes(new.encode()).data["scoring"] == {
        "archetype_template": "C-DA-001",
        "step_budget": 15,
        "channels": ["agent_response"],
    }


@pytest.mark.parametrize(
    "scoring",
    [
        # a bindings key that is already beside it: lifting would duplicate it
        "scoring:\n  template: C-DA-001\n  step_budget: 15\n  bindings: {step_budget: 15}\n",
        # bindings that are not a mapping
        "scoring:\n  template: C-DA-001\n  bindings: [1]\n",
        # no template to rename
        "scoring:\n  bindings: {step_budget: 15}\n",
        # archetype_template already there
        "scoring:\n  archetype_template: C-DA-001\n  template: C-DA-001\n",
    ],
)
def test_no_fix_when_it_would_not_be_safe(tmp_path, scoring):
    from si_lint.pipeline import Options, run

    write_files(tmp_path, {"si-lint.toml": TOML, S: HEAD + scoring})
    findings = [
        f for f in run([], Options(use_cache=False, select=("SI119",)), cwd=tmp_path).findings
    ]
    assert [(f.code, f.fix) for f in findings] == [("SI119", None)]
