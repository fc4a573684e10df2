"""Static decision-table rules SI201–SI211 on composites and templates: whole diagnostics.

Composite rows are written one per line as flow mappings, so a row item is at column 9
(``      - {``), its ``when`` value at column 16 and a predicate's key at column 17; rows start
at line 15. Positions are derived by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, check_json, diag_tuples, write_files

S = "scenarios/s.yaml"
TOML = 'ignore = ["SI306", "SI403"]\n'
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
GATE = "{when: {not: {within_step_budget: {n: 15}}}, score: 0.0}"
FACTOR = (
    "{when: {factor_identified: {factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}, "
    "channels: [agent_response], exclude_tool_echo: true}}, score: 1.0}"
)
SUB = (
    "{when: {named_in_output: {identifier_set: [mail-relay], channels: [agent_response], "
    "exclude_tool_echo: true}}, score: 0.5}"
)
ELSE = "{when: else, score: 0.0}"


def comp(*rows: str, reason: str | None = "    reason: no template fits this relay\n") -> str:
    return (
        HEAD
        + "scoring:\n  composite:\n"
        + (reason or "")
        + "    table:\n"
        + "".join(f"      - {r}\n" for r in rows)
    )


def lint(tmp_path: Path, files: dict, select: str = "SI1,SI2") -> list[tuple]:
    write_files(tmp_path, {"si-lint.toml": TOML, **files})
    _, report = check_json(tmp_path, "--select", select)
    return diag_tuples(report)


def lint_s(tmp_path: Path, text: str) -> list[tuple]:
    return lint(tmp_path, {S: text})


def test_good_composite_is_clean(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, SUB, ELSE)) == []


# ----------------------------------------------------------------- SI205 / SI206 (row locations)


def test_si205_at_the_last_row(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, SUB)) == [("SI205", S, 17, 9)]


def test_si205_empty_table_at_table_key(tmp_path):
    text = HEAD + "scoring:\n  composite:\n    reason: r\n    table: []\n"
    assert lint_s(tmp_path, text) == [("SI205", S, 14, 5)]


def test_si206_row_after_else_not_si205(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, ELSE, SUB)) == [("SI206", S, 18, 9)]


def test_si206_repeated_predicate(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, FACTOR.replace("1.0", "0.5"), ELSE)) == [
        ("SI206", S, 17, 9)
    ]


def test_si206_second_else(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, ELSE, ELSE)) == [("SI206", S, 18, 9)]


# ----------------------------------------------------------------- predicates


@pytest.mark.parametrize(
    "row,expected",
    [
        # SI201 at the key; SI202 (not SI201) for a candidate
        ("{when: {mentions: {x: 1}}, score: 0.5}", [("SI201", S, 17, 17)]),
        ("{when: {ops_against: {target: x}}, score: 0.5}", [("SI202", S, 17, 17)]),
        # SI204: code strings, nested else, two keys, code keys
        ('{when: "len(agent_response) > 2", score: 0.5}', [("SI204", S, 17, 16)]),
        ("{when: {not: else}, score: 0.5}", [("SI204", S, 17, 22)]),
        ("{when: {any: [else]}, score: 0.5}", [("SI204", S, 17, 23)]),
        ("{when: {code: 'x > 1'}, score: 0.5}", [("SI204", S, 17, 17)]),
        ("{when: {mentions: {x: 1}, other: {}}, score: 0.5}", [("SI204", S, 17, 16)]),
        ("{when: [a, b], score: 0.5}", [("SI204", S, 17, 16)]),
        ("{when: 1, score: 0.5}", [("SI204", S, 17, 16)]),
        ("{when: {}, score: 0.5}", [("SI204", S, 17, 16)]),
        ("{score: 0.5}", [("SI204", S, 17, 9)]),
        # SI203: all/any empty or not a list
        ("{when: {all: []}, score: 0.5}", [("SI203", S, 17, 22)]),
        ("{when: {any: []}, score: 0.5}", [("SI203", S, 17, 22)]),
        ("{when: {all: {not: else}}, score: 0.5}", [("SI203", S, 17, 22)]),
        # SI203: missing (at the primitive key), unknown (at the argument key), wrong type (value)
        (
            "{when: {named_in_output: {identifier_set: [mail-relay]}}, score: 0.5}",
            [("SI203", S, 17, 17)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [mail-relay], channels: [agent_response], echo: true}}, "
            "score: 0.5}",
            [("SI203", S, 17, 93)],
        ),
        (
            "{when: {named_in_output: {identifier_set: mail-relay, channels: [agent_response]}}, score: 0.5}",
            [("SI203", S, 17, 51)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [], channels: [agent_response]}}, score: 0.5}",
            [("SI203", S, 17, 51)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [mail-relay, 7], channels: [agent_response]}}, score: 0.5}",
            [("SI203", S, 17, 64)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [mail-relay], channels: [agent_response], "
            "exclude_tool_echo: 'yes'}}, score: 0.5}",
            [("SI203", S, 17, 112)],
        ),
        ("{when: {named_in_output: [mail-relay]}, score: 0.5}", [("SI203", S, 17, 34)]),
        # SI106 in a composite argument; SI117 on a literal identifier
        (
            "{when: {named_in_output: {identifier_set: [mail-relay], channels: [agent_response, stdout]}}, "
            "score: 0.5}",
            [("SI106", S, 17, 92)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [' mail-relay'], channels: [agent_response]}}, score: 0.5}",
            [("SI117", S, 17, 52)],
        ),
        # SI207
        (
            "{when: {named_in_output: {identifier_set: [x], channels: [agent_response]}}, score: 50}",
            [("SI207", S, 17, 93)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [x], channels: [agent_response]}}, score: '0.5'}",
            [("SI207", S, 17, 93)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [x], channels: [agent_response]}}, score: true}",
            [("SI207", S, 17, 93)],
        ),
        (
            "{when: {named_in_output: {identifier_set: [x], channels: [agent_response]}}}",
            [("SI207", S, 17, 9)],
        ),
        # a code key beside a good row
        (
            "{when: {named_in_output: {identifier_set: [x], channels: [agent_response]}}, score: 0.5, "
            "python: 'return 0.5'}",
            [("SI204", S, 17, 98)],
        ),
    ],
)
def test_third_row(tmp_path, row, expected):
    assert lint_s(tmp_path, comp(GATE, FACTOR, row, ELSE)) == expected


@pytest.mark.parametrize(
    "gate,expected",
    [
        ("{when: {not: {within_step_budget: {n: -1}}}, score: 0.0}", [("SI203", S, 15, 47)]),
        ("{when: {not: {within_step_budget: {n: 15.0}}}, score: 0.0}", [("SI203", S, 15, 47)]),
        ("{when: {not: {within_step_budget: {n: 20}}}, score: 0.0}", [("SI114", S, 15, 47)]),
        (
            "{when: {not: {within_step_budget: {n: $step_budget}}}, score: 0.0}",
            [("SI209", S, 15, 47)],
        ),
        ("{when: {not: {within_step_budget: {}}}, score: 0.0}", [("SI203", S, 15, 23)]),
        # a gate that does not score 0 is no gate
        ("{when: {not: {within_step_budget: {n: 15}}}, score: 0.5}", [("SI211", S, 15, 9)]),
        ("{when: {within_step_budget: {n: 15}}, score: 1.0}", [("SI211", S, 15, 9)]),
    ],
)
def test_first_row(tmp_path, gate, expected):
    assert lint_s(tmp_path, comp(gate, FACTOR, ELSE)) == expected


def test_si211_at_the_first_row_using_the_budget(tmp_path):
    assert lint_s(tmp_path, comp(FACTOR, SUB, GATE, ELSE)) == [("SI211", S, 17, 9)]


def test_no_si211_without_within_step_budget(tmp_path):
    assert lint_s(tmp_path, comp(FACTOR, ELSE)) == []


@pytest.mark.parametrize(
    "old,new,expected",
    [
        ("{ref: smtp-port-removed,", "{ref: smtp-port,", [("SI107", S, 16, 51)]),
        ("required_identifiers: [SMTP_PORT]", "required_identifiers: []", [("SI118", S, 16, 92)]),
        ("required_identifiers: [SMTP_PORT]", 'required_identifiers: [""]', [("SI117", S, 16, 93)]),
        (
            "{factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]},",
            "{factor: $factor,",
            [("SI209", S, 16, 45)],
        ),
        (", required_identifiers: [SMTP_PORT]}", "}", [("SI203", S, 16, 37)]),
        (
            ", required_identifiers: [SMTP_PORT]}",
            ", required_identifiers: [SMTP_PORT], deviation_type: absent_key}",
            [("SI203", S, 16, 105)],
        ),
    ],
)
def test_composite_factor(tmp_path, old, new, expected):
    assert old in FACTOR
    assert lint_s(tmp_path, comp(GATE, FACTOR.replace(old, new), ELSE)) == expected


# ----------------------------------------------------------------- composite shape, SI208


def test_si208_missing_reason_at_composite_key(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, ELSE, reason=None)) == [("SI208", S, 12, 3)]


def test_si208_empty_reason_at_value(tmp_path):
    assert lint_s(tmp_path, comp(GATE, FACTOR, ELSE, reason='    reason: "  "\n')) == [
        ("SI208", S, 13, 13)
    ]


@pytest.mark.parametrize(
    "composite,expected",
    [
        ('  composite:\n    reason: r\n    table: "lambda ev: 1.0"\n', [("SI204", S, 14, 12)]),
        ('  composite:\n    reason: r\n    python: "return 1.0"\n', [("SI204", S, 14, 5)]),
        ("  composite:\n    reason: r\n", [("SI204", S, 12, 3)]),
        ('  composite: "def score(ev): return 1.0"\n', [("SI204", S, 12, 14)]),
        ("  composite: {reason: r, table: {when: else, score: 0}}\n", [("SI204", S, 12, 33)]),
        ("  composite: {reason: r, table: [else]}\n", [("SI204", S, 12, 34)]),
    ],
)
def test_composite_shapes(tmp_path, composite, expected):
    assert lint_s(tmp_path, HEAD + "scoring:\n" + composite) == expected


# ----------------------------------------------------------------- templates


BAD_TEMPLATE = """\
template:
  id: C-DA-001
  title: Single-Signal Diagnosis
roles:
  factor:            {type: factor}
  subsystem_set:     {type: identifier_set}
  channels:          {type: channels, allowed: [agent_response, stderr]}
  step_budget:       {type: integer, minimum: 1}
  exclude_tool_echo: {type: boolean, expected: true}
table:
  - when: {not: {within_step_budget: {n: $budget}}}
    score: 0.0
  - when: {factor_identified: {factor: $factor, channels: $channels, exclude_tool_echo: $exclude_tool_echo}}
    score: 1.0
  - when: {named_in_output: {identifier_set: $factor, channels: $channels, exclude_tool_echo: $exclude_tool_echo}}
    score: 0.5
  - when: {trail_matches_oracle: {}}
    score: 0.5
"""
BAD_TEMPLATE_EXPECT = [
    (7, 65, "SI106"),  # roles.channels.allowed[1]
    (11, 42, "SI209"),  # $budget
    (15, 46, "SI203"),  # $factor is a factor, identifier_set takes identifier_set
    (17, 5, "SI205"),  # no else: the last row
    (17, 12, "SI202"),  # candidate
]


def _scenario_good() -> str:
    return (
        HEAD
        + """\
scoring:
  archetype_template: C-DA-001
  factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}
  subsystem_set: [mail-relay, SMTP_PORT]
  channels: [agent_response]
  step_budget: 15
  exclude_tool_echo: true
"""
    )


def test_template_document_in_the_corpus(tmp_path):
    t = "templates/c-da-001.yaml"
    got = lint(tmp_path, {t: BAD_TEMPLATE})
    assert got == [(c, t, line, col) for line, col, c in BAD_TEMPLATE_EXPECT]


def test_profile_template_findings_belong_to_the_template(tmp_path):
    t = "profile/templates/C-DA-001.yaml"
    registry = (REPO / "si_lint" / "profile_data" / "registry.yaml").read_text()
    files = {
        "si-lint.toml": 'profile = "profile"\n' + TOML,
        "profile/registry.yaml": registry,
        t: BAD_TEMPLATE,
        S: _scenario_good(),
    }
    write_files(tmp_path, files)
    _, report = check_json(tmp_path, "--select", "SI1,SI2")
    assert diag_tuples(report) == [(c, t, line, col) for line, col, c in BAD_TEMPLATE_EXPECT]


def test_builtin_template_is_clean_as_a_document(tmp_path):
    text = (REPO / "si_lint" / "profile_data" / "templates" / "C-DA-001.yaml").read_text()
    assert lint(tmp_path, {"templates/C-DA-001.yaml": text}) == []


def test_template_free_form_code(tmp_path):
    t = "templates/t.yaml"
    text = 'template: {id: C-X-001}\nroles: {}\ntable: "lambda ev: 1.0"\npython: x\n'
    assert lint(tmp_path, {t: text}) == [("SI204", t, 3, 8), ("SI204", t, 4, 1)]


def test_composite_cannot_widen_the_archetype_channels(tmp_path):
    row = SUB.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    assert lint_s(tmp_path, comp(GATE, FACTOR, row, ELSE)) == [("SI105", S, 17, 92)]


def test_composite_without_a_known_archetype_may_use_any_profile_channel(tmp_path):
    row = SUB.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    text = comp(GATE, FACTOR, row, ELSE).replace("archetype: C-DA-001", "archetype: X-YZ-001")
    assert lint_s(tmp_path, text) == []


def test_si206_repeat_is_order_free_for_sets_and_operands(tmp_path):
    a = "{when: {named_in_output: {identifier_set: [a, b], channels: [agent_response]}}, score: 0.5}"
    b = "{when: {named_in_output: {identifier_set: [b, a], channels: [agent_response]}}, score: 0.25}"
    c = (
        "{when: {any: [{not: {named_in_output: {identifier_set: [x], channels: [agent_response]}}}, "
        "{within_step_budget: {n: 15}}]}, score: 0.5}"
    )
    d = (
        "{when: {any: [{within_step_budget: {n: 15}}, "
        "{not: {named_in_output: {identifier_set: [x], channels: [agent_response]}}}]}, score: 0.5}"
    )
    e = "{when: {named_in_output: {identifier_set: [a, c], channels: [agent_response]}}, score: 0.5}"
    assert lint_s(
        tmp_path,
        comp(GATE, FACTOR, a, b, c, d, e, ELSE),
    ) == [("SI206", S, 18, 9), ("SI206", S, 20, 9)]
