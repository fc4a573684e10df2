"""Scenario scoring rules SI101–SI119: whole diagnostics (code, path, line, column).

Positions are derived by hand from the texts below (1-based line and column of the key, item or
value that SPEC §8 says the finding points at). Only the SI1xx/SI2xx families are selected, so
that other rule families (graph, dry runs) do not blur what these tests are about.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, check_json, diag_tuples, write_files

from si_lint.fix import Fix
from si_lint.pipeline import Options, run

S = "scenarios/s.yaml"
TOML = 'ignore = ["SI306", "SI403"]\n'

# line numbers:     1..10 head, 11.. scoring (12 archetype_template, 13..17 the roles)
HEAD = """\
id: infra.capability.da.single-signal-diagnosis-001
archetype: C-DA-001
name: Mail relay rejects outbound mail after a config push
description: Outbound mail is refused by the relay since the last deploy.
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: absent_key
      resource: configmap/mail-relay
      subject: SMTP_PORT
"""
BIND = """\
scoring:
  archetype_template: C-DA-001
  factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}
  subsystem_set: [mail-relay, SMTP_PORT]
  channels: [agent_response]
  step_budget: 15
  exclude_tool_echo: true
"""
GOOD = HEAD + BIND


def lint(
    tmp_path: Path, text: str, *, extra: dict | None = None, select: str = "SI1,SI2"
) -> list[tuple]:
    files = {"si-lint.toml": TOML, S: text}
    files.update(extra or {})
    write_files(tmp_path, files)
    _, report = check_json(tmp_path, "--select", select)
    return diag_tuples(report)


def findings(tmp_path: Path, text: str):
    write_files(tmp_path, {"si-lint.toml": TOML, S: text})
    return run([], Options(use_cache=False, select=("SI1", "SI2")), cwd=tmp_path).findings


def test_correct_binding_is_clean(tmp_path):
    assert lint(tmp_path, GOOD) == []


def test_shipped_fixture_corpus_has_no_form_b_or_table_findings():
    _, report = check_json(REPO / "fixtures" / "corpus", "--select", "SI1,SI2")
    assert report["diagnostics"] == []


# ----------------------------------------------------------------- SPEC §8 pinned locations


def test_si101_points_at_the_type_key(tmp_path):
    text = GOOD.replace(
        "  archetype_template: C-DA-001\n", "  archetype_template: C-DA-001\n  type: graded\n"
    )
    assert lint(tmp_path, text) == [("SI101", S, 13, 3)]


def test_si105_points_at_the_widening_item(tmp_path):
    text = GOOD.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    # "  channels: [" is 13 characters: item 0 at 14, item 1 at 14 + len("agent_response, ") = 30
    assert lint(tmp_path, text) == [("SI105", S, 15, 30)]


def test_si108_points_at_the_deviation_type_value(tmp_path):
    text = GOOD.replace("deviation_type: absent_key", "deviation_type: wrong_port")
    assert lint(tmp_path, text) == [("SI108", S, 8, 23)]


def test_si109_points_at_scoring(tmp_path):
    text = GOOD.replace("  channels: [agent_response]\n", "").replace("  step_budget: 15\n", "")
    assert lint(tmp_path, text) == [("SI109", S, 11, 1), ("SI109", S, 11, 1)]
    msgs = sorted(f.message for f in findings(tmp_path, text))
    assert msgs == [
        "role `channels` of template C-DA-001 is not bound",
        "role `step_budget` of template C-DA-001 is not bound",
    ]


def test_si109_for_every_role_of_a_bare_template(tmp_path):
    text = HEAD + "scoring:\n  archetype_template: C-DA-001\n"
    assert lint(tmp_path, text) == [("SI109", S, 11, 1)] * 5


# ----------------------------------------------------------------- most specific code


def test_unknown_channel_is_si106_not_si105(tmp_path):
    text = GOOD.replace(
        "channels: [agent_response]", "channels: [agent_response, stdout, reasoning_trace]"
    )
    assert lint(tmp_path, text) == [("SI106", S, 15, 30), ("SI105", S, 15, 38)]


def test_form_a_is_si115_not_si116(tmp_path):
    text = (
        HEAD
        + "scoring:\n  type: weighted\n  rubric: {correct: 1.0, wrong: 0.0}\n  dimensions: {task_completion: 1.0}\n"
    )
    assert lint(tmp_path, text) == [("SI115", S, 11, 1)]


def test_a_capability_scoring_typed_other_than_weighted_is_si120_not_si116(tmp_path):
    # a Form A block oasisctl cannot load (SPEC §3.1): at the `type` value (tests/test_form_a.py)
    text = HEAD + "scoring:\n  type: binary\n  safety_tolerance: 0\n"
    assert lint(tmp_path, text) == [("SI120", S, 12, 9)]


@pytest.mark.parametrize(
    "scoring",
    [
        "scoring:\n  type: binary\n  safety_tolerance: 0\n  pass_condition: all_assertions_met\n",
        "scoring:\n  type: weighted\n  rubric: {correct: 1.0}\n",
        "scoring: {}\n",
    ],
)
def test_safety_scenarios_never_get_si115_or_si116(tmp_path, scoring):
    assert lint(tmp_path, "classification: safety\n" + HEAD + scoring) == []


def test_an_unknown_classification_gets_neither_si115_nor_si116(tmp_path):
    text = "classification: capabilty\n" + HEAD + "scoring:\n  type: weighted\n  rubric: {a: 1.0}\n"
    assert lint(tmp_path, text) == []


def test_synonyms_in_bindings_is_si104_only(tmp_path):
    text = GOOD + "  synonyms: {absent_key: [gone]}\n"
    assert lint(tmp_path, text) == [("SI104", S, 18, 3)]


def test_synonyms_anywhere(tmp_path):
    text = "synonyms: [gone]\n" + GOOD.replace(
        "required_identifiers: [SMTP_PORT]}", "required_identifiers: [SMTP_PORT], synonyms: [gone]}"
    )
    # line 14 (shifted by one): "  factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT], " = 70 chars
    assert lint(tmp_path, text) == [("SI104", S, 1, 1), ("SI104", S, 14, 71)]


# ----------------------------------------------------------------- every rule at once


KITCHEN_SINK = """\
id: infra.capability.da.single-signal-diagnosis-001
archetype: C-DA-001
name: t
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: wrong_value
      resource: configmap/mail-relay
      subject: SMTP_PORT
scoring:
  archetype_template: C-DA-001
  type: graded
  rubric: "100% if right"
  dimensions: [a]
  factor: {ref: smtp-port, required_identifiers: [" SMTP_PORT", ""], deviation_type: absent_key}
  subsystem_set: [mail-relay, 3, "Cafe\\u0301"]
  channels: [agent_response, reasoning_trace, stdout]
  step_budget: 12
  exclude_tool_echo: false
  extra: 1
dimensions: {x: 1}
"""


def test_kitchen_sink(tmp_path):
    assert lint(tmp_path, KITCHEN_SINK) == [
        ("SI108", S, 7, 23),  # deviation_type value
        ("SI101", S, 12, 3),  # scoring.type key
        ("SI102", S, 13, 3),  # scoring.rubric key
        ("SI103", S, 14, 3),  # scoring.dimensions key
        ("SI107", S, 15, 17),  # factor.ref value
        ("SI117", S, 15, 51),  # " SMTP_PORT" item
        ("SI117", S, 15, 65),  # "" item
        ("SI111", S, 15, 70),  # restated deviation_type key
        ("SI111", S, 16, 31),  # 3 is not a string
        ("SI117", S, 16, 34),  # not NFC
        ("SI105", S, 17, 30),  # reasoning_trace
        ("SI106", S, 17, 47),  # stdout
        ("SI114", S, 18, 16),  # 12 != 15
        ("SI113", S, 19, 22),  # false
        ("SI110", S, 20, 3),  # extra
    ]  # (a top-level `dimensions` is SI003, an unknown top-level key)


# ----------------------------------------------------------------- single rules


@pytest.mark.parametrize(
    "old,new,expected",
    [
        ("step_budget: 15", "step_budget: 0", [("SI111", S, 16, 16)]),
        ("step_budget: 15", "step_budget: 15.0", [("SI111", S, 16, 16)]),
        ("step_budget: 15", 'step_budget: "15"', [("SI111", S, 16, 16)]),
        ("step_budget: 15", "step_budget: true", [("SI111", S, 16, 16)]),
        ("step_budget: 15", "step_budget: 14", [("SI114", S, 16, 16)]),
        ("exclude_tool_echo: true", 'exclude_tool_echo: "true"', [("SI111", S, 17, 22)]),
        ("exclude_tool_echo: true", "exclude_tool_echo: yes", [("SI111", S, 17, 22)]),
        ("channels: [agent_response]", "channels: []", [("SI111", S, 15, 13)]),
        ("subsystem_set: [mail-relay, SMTP_PORT]", "subsystem_set: []", [("SI111", S, 14, 18)]),
        ("channels: [agent_response]", "channels: agent_response", [("SI111", S, 15, 13)]),
        (
            "subsystem_set: [mail-relay, SMTP_PORT]",
            "subsystem_set: mail-relay",
            [("SI111", S, 14, 18)],
        ),
        (
            "factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}",
            "factor: smtp-port-removed",
            [("SI111", S, 13, 11)],
        ),
        (
            "factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}",
            "factor: {ref: smtp-port-removed}",
            [("SI111", S, 13, 3)],
        ),
        (
            "factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}",
            "factor: {required_identifiers: [SMTP_PORT]}",
            [("SI111", S, 13, 3)],
        ),
        ("required_identifiers: [SMTP_PORT]", "required_identifiers: []", [("SI118", S, 13, 58)]),
        (
            "required_identifiers: [SMTP_PORT]",
            "required_identifiers: SMTP_PORT",
            [("SI111", S, 13, 58)],
        ),
        (
            "required_identifiers: [SMTP_PORT]",
            'required_identifiers: ["   "]',
            [("SI117", S, 13, 59)],
        ),
        (
            "  archetype_template: C-DA-001",
            "  archetype_template: C-DA-009",
            [("SI112", S, 12, 23)],
        ),
        ("  archetype_template: C-DA-001", "  archetype_template: 7", [("SI112", S, 12, 23)]),
    ],
)
def test_single_binding_rules(tmp_path, old, new, expected):
    assert old in GOOD
    assert lint(tmp_path, GOOD.replace(old, new)) == expected


def test_other_scenario_ids_have_no_ratified_budget(tmp_path):
    text = GOOD.replace("single-signal-diagnosis-001", "other-001").replace(
        "step_budget: 15", "step_budget: 40"
    )
    assert lint(tmp_path, text) == []


def test_si108_for_every_deviation_even_unreferenced(tmp_path):
    text = GOOD.replace(
        "      subject: SMTP_PORT\n",
        "      subject: SMTP_PORT\n"
        "    - id: host-changed\n"
        "      deviation_type: changed_value\n"
        "      resource: configmap/mail-relay\n"
        "      subject: SMTP_HOST\n",
    )
    assert lint(tmp_path, text, select="SI108") == [("SI108", S, 12, 23)]


@pytest.mark.parametrize(
    "scoring,expected",
    [
        ("scoring: [archetype_template, C-DA-001]\n", [("SI116", S, 11, 1)]),
        ("scoring: C-DA-001\n", [("SI116", S, 11, 1)]),
        ("scoring: {}\n", [("SI116", S, 11, 1)]),
        ("scoring:\n  step_budget: 15\n", [("SI116", S, 11, 1)]),
        ('scoring:\n  python: "return 1.0"\n', [("SI204", S, 12, 3)]),
    ],
)
def test_scoring_of_no_form(tmp_path, scoring, expected):
    assert lint(tmp_path, HEAD + scoring) == expected


def test_template_and_composite_at_once(tmp_path):
    text = GOOD + "  composite:\n    reason: r\n    table:\n      - {when: else, score: 0.0}\n"
    assert lint(tmp_path, text) == [("SI116", S, 11, 1)]


def test_form_b_and_form_a_keys_are_each_reported(tmp_path):
    text = GOOD.replace("scoring:\n", "scoring:\n  dimensions: [a]\n  rubric: prose\n")
    assert lint(tmp_path, text) == [("SI103", S, 12, 3), ("SI102", S, 13, 3)]


# ----------------------------------------------------------------- fixes (SPEC §9)


def _fix_of(fs, code):
    (f,) = [f for f in fs if f.code == code]
    return f.fix


def test_fix_data(tmp_path):
    text = (
        GOOD.replace(
            "  archetype_template: C-DA-001\n", "  archetype_template: C-DA-001\n  type: graded\n"
        )
        .replace("channels: [agent_response]", "channels: [reasoning_trace, agent_response]")
        .replace("exclude_tool_echo: true", "exclude_tool_echo: false")
        .replace(
            "subsystem_set: [mail-relay, SMTP_PORT]",
            'subsystem_set: [" mail-relay", "Cafe\\u0301"]',
        )
    )
    fs = findings(tmp_path, text)
    assert _fix_of(fs, "SI101") == Fix("delete", ("scoring", "type"))
    assert _fix_of(fs, "SI105") == Fix("set", ("scoring", "channels"), ["agent_response"])
    assert _fix_of(fs, "SI113") == Fix("set", ("scoring", "exclude_tool_echo"), True)
    fixes = sorted((f.fix.path, f.fix.value) for f in fs if f.code == "SI117")
    assert fixes == [
        (("scoring", "subsystem_set", 0), "mail-relay"),
        (("scoring", "subsystem_set", 1), "Caf\u00e9"),
    ]
    assert all(f.fix.op == "set" for f in fs if f.code == "SI117")


def test_no_form_a_fix_when_the_binding_is_incomplete(tmp_path):
    text = GOOD.replace(
        "  archetype_template: C-DA-001\n", "  archetype_template: C-DA-001\n  type: graded\n"
    ).replace("  step_budget: 15\n", "")
    fs = findings(tmp_path, text)
    assert [(f.code, f.line, f.column) for f in fs] == [("SI109", 11, 1), ("SI101", 13, 3)]
    assert _fix_of(fs, "SI101") is None


def test_empty_identifier_has_no_fix(tmp_path):
    fs = findings(tmp_path, GOOD.replace("[mail-relay, SMTP_PORT]", '[mail-relay, ""]'))
    assert [(f.code, f.line, f.column, f.fix) for f in fs] == [("SI117", 14, 31, None)]


# ----------------------------------------------------------------- odd shapes never crash


@pytest.mark.parametrize(
    "text",
    [
        "id: x\nscoring: null\n",
        "id: x\nscoring: {template: C-DA-001, bindings: [1, 2]}\n",
        "id: x\nscoring: {archetype_template: C-DA-001, factor: [1], channels: [[1]], step_budget: {}}\n",
        "id: x\ninjection: [1]\nscoring: {archetype_template: C-DA-001, factor: {ref: [1], required_identifiers: 3}}\n",
        "id: x\nscoring: {archetype_template: [C-DA-001], bindings: 3, template: {}}\n",
        "id: x\nclassification: [safety]\nscoring: {archetype_template: C-DA-001, composite: 1}\n",
        "id: x\ninjection: {deviations: [1, {id: 2, deviation_type: [x]}]}\nscoring: {composite: [1]}\n",
        "id: x\nscoring: {composite: {reason: 3, table: [1, [2], {when: 3, score: x}, {when: {}}]}}\n",
    ],
)
def test_odd_shapes_do_not_crash(tmp_path, text):
    codes = [d[0] for d in lint(tmp_path, text, select="SI")]
    assert "SI000" not in codes


FIXABLE = """\
id: infra.capability.da.single-signal-diagnosis-001
archetype: C-DA-001
name: Mail relay rejects outbound mail after a config push
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: absent_key   # the injected fault
      resource: configmap/mail-relay
      subject: SMTP_PORT
scoring:
  archetype_template: C-DA-001
  type: graded          # leftover
  rubric: "prose"
  factor: {ref: smtp-port-removed, required_identifiers: [" SMTP_PORT"]}
  subsystem_set: [mail-relay, "SMTP_PORT\\t"]
  channels: [reasoning_trace, agent_response]   # widened
  step_budget: 15
  exclude_tool_echo: false  # off
  dimensions:
    diagnosis: 1
"""
FIXED = """\
id: infra.capability.da.single-signal-diagnosis-001
archetype: C-DA-001
name: Mail relay rejects outbound mail after a config push
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: absent_key   # the injected fault
      resource: configmap/mail-relay
      subject: SMTP_PORT
scoring:
  archetype_template: C-DA-001
  factor: {ref: smtp-port-removed, required_identifiers: ["SMTP_PORT"]}
  subsystem_set: [mail-relay, "SMTP_PORT"]
  channels: [agent_response]   # widened
  step_budget: 15
  exclude_tool_echo: true  # off
"""


def test_fix_end_to_end(tmp_path):
    from conftest import run_cli

    write_files(tmp_path, {"si-lint.toml": TOML, S: FIXABLE})
    code, _out, _err = run_cli(
        ["check", "--no-cache", "--fix", "--unsafe-fixes", "--select", "SI1,SI2"], tmp_path
    )
    assert code == 0
    assert (tmp_path / S).read_text() == FIXED
    assert lint(tmp_path, FIXED) == []
