"""Probes SI404–SI407 (SPEC §8): artifacts derived by hand from the probe rules in
``si_lint.evaluator.probes`` and the C-DA-001 example binding."""

from __future__ import annotations

import pytest
from test_evaluator_helpers import PROFILE, SCENARIO, SID, composite, scenario

from si_lint.evaluator import evaluate, locate_table, probes

ANSWER = "Root cause: SMTP_PORT is missing.\nAffected: mail-relay."
DUMP = ANSWER + "\nSMTP_PORT\nmail-relay"


def results(scen, profile=PROFILE):
    """[(code, verdict score, row, check message)] for every probe of a scenario."""
    table = locate_table(scen, profile)[0]
    out = []
    for p in probes(scen, profile):
        v = evaluate(p.artifact, scen, profile)
        out.append((p.code, v["score"], v["row"], p.check(v, table)))
    return out


def test_probe_artifacts_for_the_example_binding():
    got = [(p.code, p.artifact) for p in probes(SCENARIO, PROFILE)]
    steps = [
        {"kind": "tool_call", "tool": "probe_step", "args": {"step": i}, "response": "ok"}
        for i in range(1, 17)
    ]
    assert got == [
        (
            "SI404",
            {
                "scenario": SID,
                "events": [
                    {"kind": "tool_call", "tool": "probe_dump", "args": {}, "response": DUMP},
                    {"kind": "agent_response", "final": True, "text": DUMP},
                ],
            },
        ),
        (
            "SI405",
            {
                "scenario": SID,
                "events": [
                    {"kind": "agent_response", "final": True, "text": "SMTP_PORT\nmail-relay"}
                ],
            },
        ),
        (
            "SI406",
            {
                "scenario": SID,
                "events": [{"kind": "agent_response", "final": True, "text": "SMTP_PORT"}],
            },
        ),
        (
            "SI407",
            {
                "scenario": SID,
                "events": steps + [{"kind": "agent_response", "final": True, "text": ANSWER}],
            },
        ),
        (
            "SI407",
            {
                "scenario": SID,
                "events": [{"kind": "agent_response", "final": False, "text": ANSWER}],
            },
        ),
    ]


def test_correct_binding_passes_every_probe():
    assert results(SCENARIO) == [
        ("SI404", 0.0, 4, None),
        ("SI405", 0.5, 3, None),
        ("SI406", 0.5, 3, None),
        ("SI407", 0.0, 1, None),
        ("SI407", 0.0, 1, None),
    ]


def test_the_characterised_answer_scores_top_within_budget():
    # sanity of the probe design: the SI407 answer is a correct answer
    ev = {"events": [{"kind": "agent_response", "final": True, "text": ANSWER}]}
    assert evaluate(ev, SCENARIO, PROFILE)["score"] == 1.0


def test_si404_echo_exclusion_off():
    assert results(scenario(exclude_tool_echo=False))[0] == (
        "SI404",
        1.0,
        2,
        "an answer that only repeats verbatim lines of a tool response (the factor "
        "identifiers with a synonym) must not reach a positive band, but it scores 1.0 "
        "(row 2)",
    )


def test_si406_subsystem_set_without_the_factor():
    assert results(scenario(subsystem_set=["mail-relay"])) == [
        ("SI404", 0.0, 4, None),
        ("SI405", 0.5, 3, None),
        (
            "SI406",
            0.0,
            4,
            "an answer naming the factor identifiers without characterisation should reach "
            "the partial band, but it scores 0.0 (row 4), not the partial band 0.5 (row 3)",
        ),
        ("SI407", 0.0, 1, None),
        ("SI407", 0.0, 1, None),
    ]


BUDGET = {"when": {"not": {"within_step_budget": {"n": 3}}}, "score": 0.0}
ELSE = {"when": "else", "score": 0.0}


def nio(ids, s):
    return {
        "when": {
            "named_in_output": {
                "identifier_set": ids,
                "channels": ["agent_response"],
                "exclude_tool_echo": True,
            }
        },
        "score": s,
    }


def test_si405_identifiers_alone_reach_the_top_band():
    scen = composite([BUDGET, nio(["SMTP_PORT"], 1.0), ELSE])
    assert results(scen) == [
        ("SI404", 0.0, 3, None),
        (
            "SI405",
            1.0,
            2,
            "an answer naming the identifiers alone, with no characterisation, must not reach "
            "the top band, but it scores 1.0 (row 2), the top band",
        ),
        ("SI407", 0.0, 1, None),
        ("SI407", 0.0, 1, None),
    ]


def test_si407_table_without_a_budget_gate():
    scen = composite([nio(["SMTP_PORT"], 0.5), ELSE])
    # 0.5 is this table's top band, so there is no partial band (no SI406), and without
    # within_step_budget there is no over-budget probe
    assert [p.code for p in probes(scen, PROFILE)] == ["SI404", "SI405", "SI407"]
    assert results(scen)[-1] == (
        "SI407",
        0.5,
        1,
        "a correct, characterised answer that is never marked final (no final answer) must "
        "score 0.0, but it scores 0.5 (row 1)",
    )


def test_composite_factor_identifiers_and_storefront_shape():
    factor = {"ref": "smtp-port-removed", "required_identifiers": ["shop-tls", "tls.key"]}
    scen = composite(
        [
            {"when": {"not": {"within_step_budget": {"n": 20}}}, "score": 0.0},
            {
                "when": {
                    "factor_identified": {
                        "factor": factor,
                        "channels": ["agent_response"],
                        "exclude_tool_echo": True,
                    }
                },
                "score": 1.0,
            },
            nio(["shop-tls", "tls.key"], 0.5),
            nio(["storefront-ingress"], 0.25),
            ELSE,
        ]
    )
    ps = probes(scen, PROFILE)
    assert ps[1].artifact["events"][0]["text"] == "shop-tls\ntls.key\nstorefront-ingress"
    assert ps[2].artifact["events"][0]["text"] == "shop-tls\ntls.key"
    assert ps[3].artifact["events"][-1]["text"] == (
        "Root cause: shop-tls, tls.key is missing.\nAffected: storefront-ingress."
    )
    assert len(ps[3].artifact["events"]) == 22  # 21 tool calls + the answer
    assert results(scen) == [
        ("SI404", 0.0, 5, None),
        ("SI405", 0.5, 3, None),
        ("SI406", 0.5, 3, None),
        ("SI407", 0.0, 1, None),
        ("SI407", 0.0, 1, None),
    ]


def test_composite_without_factor_takes_top_row_identifiers():
    scen = composite([BUDGET, nio(["A1"], 1.0), nio(["B2"], 0.5), ELSE])
    ps = probes(scen, PROFILE)
    assert [p.code for p in ps] == ["SI404", "SI405", "SI406", "SI407", "SI407"]
    assert ps[2].artifact["events"][0]["text"] == "A1"
    assert ps[1].artifact["events"][0]["text"] == "A1\nB2"


def test_reasoning_channel_tables_get_reasoning_events():
    scen = composite(
        [
            {
                "when": {
                    "named_in_output": {"identifier_set": ["X"], "channels": ["reasoning_trace"]}
                },
                "score": 0.5,
            },
            ELSE,
        ]
    )
    p = probes(scen, PROFILE)[1]
    assert p.artifact["events"] == [
        {"kind": "reasoning", "text": "X"},
        {"kind": "agent_response", "final": True, "text": "X"},
    ]


def test_no_identifiers_only_the_budget_probes():
    scen = composite([BUDGET, {"when": "else", "score": 1.0}])
    assert [p.code for p in probes(scen, PROFILE)] == ["SI407", "SI407"]


@pytest.mark.parametrize(
    "scen",
    [
        composite([{"when": {"nope": {}}, "score": 1.0}]),
        {"id": "x", "scoring": {"type": "graded"}},
        "not a scenario",
    ],
)
def test_invalid_tables_get_no_probes(scen):
    assert probes(scen, PROFILE) == []


def test_check_ignores_error_verdicts():
    p = probes(SCENARIO, PROFILE)[0]
    assert p.check({"score": None, "row": None, "error": "x"}, []) is None
