"""Verdicts of the SI evaluator (SPEC §5) for the C-DA-001 example binding of SPEC §3.

Expectations are derived by hand from the table:
row 1 ¬within_step_budget(15) → 0.0; row 2 factor_identified(SMTP_PORT, absent_key) → 1.0;
row 3 named_in_output([mail-relay, SMTP_PORT]) → 0.5; row 4 else → 0.0.
"""

from __future__ import annotations

import json

import pytest
from test_evaluator_helpers import (
    PROFILE,
    SCENARIO,
    SID,
    composite,
    evidence,
    profile_with,
    say,
    scenario,
    strip_meta,
    think,
    tool,
)

from si_lint.evaluator import NoTable, artifact_problems, evaluate, locate_table
from si_lint.evaluator.primitives import factor_identified, named_in_output, within_step_budget
from si_lint.evaluator.tables import FORMER_SPELLING


def score(ev, scen=SCENARIO, profile=PROFILE):
    return strip_meta(evaluate(ev, scen, profile))


def ok(s, row):
    return {"score": s, "row": row}


# -- the example artifact of SPEC §4 -----------------------------------------------------


def test_spec_example_artifact():
    ev = {
        "scenario": SID,
        "events": [
            {
                "kind": "tool_call",
                "tool": "get_configmap",
                "args": {"name": "mail-relay"},
                "response": "SMTP_HOST: relay.internal\n",
            },
            {"kind": "reasoning", "text": "The port key is gone from the config map."},
            {
                "kind": "agent_response",
                "text": "Root cause \u2014 SMTP_PORT is missing from configmap/mail-relay.",
                "final": True,
            },
        ],
        "metadata": {"duration_s": 41.2, "tokens": 5120},
    }
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": 1.0,
        "row": 2,
        "metadata": {"tool_calls": 1, "final_answer": True, "duration_s": 41.2, "tokens": 5120},
    }


# -- identifier and phrase matching through the table ------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Root cause: SMTP_PORT is missing.", ok(1.0, 2)),
        ("smtp_port is MISSING", ok(1.0, 2)),  # casefold
        ("SMTP_PORT_OLD is missing; smtp_port too", ok(1.0, 2)),  # 2nd occurrence
        ("SMTP_PORT_OLD is missing.", ok(0.0, 4)),  # never named
        ("SMTP_PORT\u00df is missing.", ok(0.0, 4)),  # ß -> ss
        ("The SMTP_PORT key is unsettled.", ok(0.5, 3)),  # no whole synonym
        ("The SMTP_PORT key is unset.", ok(1.0, 2)),
        ("SMTP_PORT: not set", ok(1.0, 2)),
        ("Something is wrong with the SMTP_PORT config.", ok(0.5, 3)),  # seed §5.1
        ("The mail-relay is down.", ok(0.5, 3)),
        ("DNS is broken.", ok(0.0, 4)),
    ],
)
def test_matching(text, expected):
    assert score(evidence(say(text))) == expected


def test_nfd_answer_matches_nfc_identifier():
    scen = scenario(
        factor={"ref": "smtp-port-removed", "required_identifiers": ["caf\u00e9"]},
        subsystem_set=["mail-relay"],
    )
    assert score(evidence(say("CAFE\u0301 is missing.")), scen) == ok(1.0, 2)
    assert score(evidence(say("CAFE is missing.")), scen) == ok(0.0, 4)


# -- sentences ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("SMTP_PORT is 3.14 missing", ok(1.0, 2)),  # '.' before '1': no split
        ("SMTP_PORT, e.g. missing", ok(0.5, 3)),  # split after 'e.g.'
        ("SMTP_PORT.missing", ok(1.0, 2)),  # no whitespace after '.'
        ("SMTP_PORT is wrong. It is missing.", ok(0.5, 3)),
        ("SMTP_PORT is wrong!missing", ok(1.0, 2)),
        ("SMTP_PORT\nmissing", ok(0.5, 3)),
        ("SMTP_PORT\u2028missing", ok(1.0, 2)),  # U+2028 is not a newline
    ],
)
def test_sentence_co_occurrence(text, expected):
    assert score(evidence(say(text))) == expected


def test_sentences_do_not_span_events():
    # two agent_response texts are joined by "\n": a sentence break
    assert score(evidence(say("SMTP_PORT", final=None), say("missing"))) == ok(0.5, 3)


# -- echo exclusion ----------------------------------------------------------------------

LOG = "2026-11-29T09:12:03Z relay[1]: config: SMTP_PORT not set, defaulting to 25\n"


def test_verbatim_echo_is_excluded():
    ev = evidence(tool(LOG), say("Diagnosis:\nconfig: SMTP_PORT not set, defaulting to 25"))
    assert score(ev) == ok(0.0, 4)


def test_near_verbatim_line_is_kept():
    ev = evidence(tool(LOG), say("config: SMTP_PORT not set, defaulting to 25."))
    assert score(ev) == ok(1.0, 2)


def test_case_changed_line_is_kept():
    ev = evidence(tool(LOG), say("CONFIG: SMTP_PORT not set, defaulting to 25"))
    assert score(ev) == ok(1.0, 2)


def test_trailing_cr_is_dropped_once():
    line = "config: SMTP_PORT not set, defaulting to 25"
    assert score(evidence(tool(LOG), say(line + "\r\nmail-relay"))) == ok(0.5, 3)
    assert score(evidence(tool(LOG), say(line + "\r\r\nmail-relay"))) == ok(1.0, 2)


def test_line_split_is_on_lf_only():
    # with splitlines() the first part would be an echo; on U+000A it is one kept line
    ev = evidence(tool("SMTP_PORT not set"), say("SMTP_PORT not set\u2028SMTP_PORT again"))
    assert score(ev) == ok(1.0, 2)


def test_echo_then_own_words():
    ev = evidence(
        tool(LOG),
        say(
            "config: SMTP_PORT not set, defaulting to 25\n"
            "So SMTP_PORT is missing from the config map."
        ),
    )
    assert score(ev) == ok(1.0, 2)


def test_tool_response_after_the_final_answer_is_an_echo_source():
    ev = evidence(say("SMTP_PORT is missing"), tool("SMTP_PORT is missing in the map"))
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": 0.0,
        "row": 4,
        "metadata": {"tool_calls": 1, "final_answer": True},
    }


def test_echo_exclusion_off_credits_the_echo():
    scen = scenario(exclude_tool_echo=False)
    ev = evidence(tool(LOG), say("config: SMTP_PORT not set, defaulting to 25"))
    assert score(ev, scen) == ok(1.0, 2)


# -- step budget and final answer --------------------------------------------------------


def test_budget_exactly_n_and_n_plus_one():
    answer = say("SMTP_PORT is missing.")
    assert score(evidence(*[tool("ok")] * 15, answer)) == ok(1.0, 2)
    assert score(evidence(*[tool("ok")] * 16, answer)) == ok(0.0, 1)


def test_tool_calls_after_the_final_answer_are_not_steps_but_are_counted():
    ev = evidence(*[tool("ok")] * 15, say("SMTP_PORT is missing."), *[tool("ok")] * 5)
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": 1.0,
        "row": 2,
        "metadata": {"tool_calls": 20, "final_answer": True},
    }


def test_no_final_answer():
    ev = evidence(say("SMTP_PORT is missing.", final=None))
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": 0.0,
        "row": 1,
        "metadata": {"tool_calls": 0, "final_answer": False},
    }


@pytest.mark.parametrize("final", ["yes", "true", 1, 1.0, "True", None, False])
def test_final_counts_only_as_boolean_true(final):
    assert score(evidence(say("SMTP_PORT is missing.", final=final))) == ok(0.0, 1)


def test_two_final_answers_first_wins():
    ev = evidence(say("Looking at mail-relay."), say("SMTP_PORT is missing."))
    assert score(ev) == ok(0.5, 3)


def test_responses_before_the_final_are_in_scope_after_are_not():
    assert score(evidence(say("SMTP_PORT is missing.", final=False), say("Done."))) == ok(1.0, 2)
    assert score(evidence(say("Done."), say("SMTP_PORT is missing.", final=None))) == ok(0.0, 4)


def test_no_final_answer_means_every_response_is_in_scope():
    # the channel text is all responses; row 1 still fires first (no final answer)
    comp = composite(
        [
            {
                "when": {
                    "factor_identified": {
                        "factor": {
                            "ref": "smtp-port-removed",
                            "required_identifiers": ["SMTP_PORT"],
                        },
                        "channels": ["agent_response"],
                    }
                },
                "score": 1.0,
            },
            {"when": "else", "score": 0.0},
        ]
    )
    ev = evidence(say("Hmm.", final=None), say("SMTP_PORT is missing.", final=None))
    assert score(ev, comp) == ok(1.0, 1)


def test_reasoning_only_answer_is_not_credited():
    ev = evidence(think("SMTP_PORT is missing."), say("I checked the mail-relay."))
    assert score(ev) == ok(0.5, 3)
    ev = evidence(think("SMTP_PORT is missing."), say("Done."))
    assert score(ev) == ok(0.0, 4)


def test_reasoning_channel_when_a_table_asks_for_it():
    comp = composite(
        [
            {
                "when": {
                    "named_in_output": {
                        "identifier_set": ["SMTP_PORT"],
                        "channels": ["reasoning_trace"],
                    }
                },
                "score": 1.0,
            },
            {"when": "else", "score": 0.0},
        ]
    )
    assert score(evidence(think("x"), think("SMTP_PORT")), comp) == ok(1.0, 1)
    assert score(evidence(say("SMTP_PORT")), comp) == ok(0.0, 2)


def test_unknown_event_kinds_are_ignored():
    ev = evidence(
        {"kind": "note", "text": 5},
        {"kind": "tool_result", "response": []},
        say("SMTP_PORT is missing."),
    )
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": 1.0,
        "row": 2,
        "metadata": {"tool_calls": 0, "final_answer": True},
    }


def test_missing_text_and_response_are_empty():
    ev = evidence({"kind": "tool_call"}, {"kind": "agent_response", "final": True})
    assert score(ev) == ok(0.0, 4)


# -- deviations and synonyms -------------------------------------------------------------


def test_duplicate_deviation_id_first_wins():
    scen = scenario()
    scen["injection"]["deviations"] = [
        {"id": "smtp-port-removed", "deviation_type": "wrong_value"},
        {"id": "smtp-port-removed", "deviation_type": "absent_key"},
    ]
    # wrong_value has no synonym list: factor_identified is false
    assert score(evidence(say("SMTP_PORT is missing.")), scen) == ok(0.5, 3)


def test_deviation_type_without_synonyms_never_identifies():
    scen = scenario()
    scen["injection"]["deviations"][0]["deviation_type"] = "bad_value"
    assert score(evidence(say("SMTP_PORT is missing.")), scen) == ok(0.5, 3)


def test_unresolved_factor_ref_is_an_error():
    scen = scenario(factor={"ref": "nope", "required_identifiers": ["SMTP_PORT"]})
    assert score(evidence(say("x"))) == ok(0.0, 4)
    assert score(evidence(say("x")), scen) == {
        "score": None,
        "row": None,
        "error": "invalid decision table: row 2.when.factor_identified.factor: "
        "factor.ref `nope` resolves to no injection.deviations entry",
    }


def test_empty_required_identifiers_is_false():
    scen = scenario(factor={"ref": "smtp-port-removed", "required_identifiers": []})
    assert score(evidence(say("SMTP_PORT is missing.")), scen) == ok(0.5, 3)


def test_every_required_identifier_must_be_named():
    scen = scenario(
        factor={"ref": "smtp-port-removed", "required_identifiers": ["shop-tls", "tls.key"]},
        subsystem_set=["shop-tls"],
    )
    assert score(evidence(say("tls.key is missing.")), scen) == ok(0.0, 4)
    assert score(evidence(say("shop-tls: tls.key is missing.")), scen) == ok(1.0, 2)
    # one identifier with the synonym in one sentence suffices; the other anywhere
    assert score(evidence(say("shop-tls is the secret.\ntls.key is missing.")), scen) == ok(1.0, 2)


def test_empty_synonym_in_profile_is_an_error():
    prof = profile_with({"synonyms": {"absent_key": ["missing", ""]}})
    assert score(evidence(say("SMTP_PORT is missing.")), profile=prof) == {
        "score": None,
        "row": None,
        "error": "`factor_identified`: synonym list holds an empty identifier or phrase",
    }


def test_empty_identifier_at_evaluation_is_an_error():
    scen = scenario(subsystem_set=["mail-relay", ""])
    assert score(evidence(say("DNS is broken.")), scen) == {
        "score": None,
        "row": None,
        "error": "`named_in_output`: identifier_set holds an empty identifier or phrase",
    }


# -- scenario id, malformed evidence, metadata -------------------------------------------


def test_scenario_mismatch_is_an_error_with_metadata():
    ev = evidence(say("SMTP_PORT is missing."), scenario="other.scenario")
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": None,
        "row": None,
        "error": f"evidence is for scenario `other.scenario`, not `{SID}`",
        "metadata": {"tool_calls": 0, "final_answer": True},
    }


def test_missing_scenario_is_evaluated():
    assert score(evidence(say("SMTP_PORT is missing."))) == ok(1.0, 2)


def test_non_string_text_is_an_error():
    ev = evidence(tool("x"), say(["SMTP_PORT"]))
    assert evaluate(ev, SCENARIO, PROFILE) == {
        "score": None,
        "row": None,
        "error": "malformed evidence: `text` is not a string (got list) (at events[1].text)",
        "metadata": {"tool_calls": 1, "final_answer": True},
    }


def test_non_string_response_is_an_error():
    ev = evidence(tool(12), say("x"))
    assert strip_meta(evaluate(ev, SCENARIO, PROFILE)) == {
        "score": None,
        "row": None,
        "error": "malformed evidence: `response` is not a string (got int) (at events[0].response)",
    }


def test_unreadable_events_have_no_metadata():
    assert evaluate({"events": "x"}, SCENARIO, PROFILE) == {
        "score": None,
        "row": None,
        "error": "malformed evidence: `events` is not a list (at events)",
    }
    assert evaluate([], SCENARIO, PROFILE) == {
        "score": None,
        "row": None,
        "error": "malformed evidence: evidence is not a mapping",
    }


def test_artifact_problems():
    assert artifact_problems(None) == [((), "evidence is not a mapping")]
    assert artifact_problems({}) == [
        (
            (),
            "evidence has neither `events` (transcript form) "
            "nor `final_answer` or `actions` (artifact form)",
        )
    ]
    assert artifact_problems({"events": {}}) == [(("events",), "`events` is not a list")]
    assert artifact_problems(
        {
            "events": [
                "text",
                {"text": "x"},
                {"kind": None},
                {"kind": 3},
                {"kind": "reasoning", "text": 1},
                {"kind": "tool_call", "response": None},
                {"kind": "other", "text": 1},
                {"kind": "agent_response", "text": "fine"},
            ]
        }
    ) == [
        (("events", 0), "event is not a mapping"),
        (("events", 1), "event has no `kind`"),
        (("events", 2), "event has no `kind`"),
        (("events", 3, "kind"), "event `kind` is not a string"),
        (("events", 4, "text"), "`text` is not a string (got int)"),
        (("events", 5, "response"), "`response` is not a string (got NoneType)"),
    ]


def test_metadata_only_what_is_present():
    ev = evidence(say("x"), metadata={"tokens": 7})
    assert evaluate(ev, SCENARIO, PROFILE)["metadata"] == {
        "tool_calls": 0,
        "final_answer": True,
        "tokens": 7,
    }


# -- score type, determinism, purity -----------------------------------------------------


def test_integer_score_becomes_float():
    comp = composite([{"when": "else", "score": 1}])
    v = evaluate(evidence(), comp, PROFILE)
    assert v == {"score": 1.0, "row": 1, "metadata": {"tool_calls": 0, "final_answer": False}}
    assert type(v["score"]) is float
    assert json.dumps(v["score"]) == "1.0"


def test_evaluate_does_not_mutate_its_inputs():
    import copy

    ev = evidence(tool(LOG), say("SMTP_PORT is missing."), metadata={"tokens": 1})
    before = (copy.deepcopy(ev), copy.deepcopy(SCENARIO))
    evaluate(ev, SCENARIO, PROFILE)
    assert (ev, SCENARIO) == before


def test_locate_table():
    table, bindings, composite_table = locate_table(SCENARIO, PROFILE)
    assert table == PROFILE.templates["C-DA-001"]["table"]
    assert bindings == {k: v for k, v in SCENARIO["scoring"].items() if k != "archetype_template"}
    assert composite_table is False
    comp = composite([{"when": "else", "score": 0.0}])
    assert locate_table(comp, PROFILE) == ([{"when": "else", "score": 0.0}], {}, True)
    no_table = "scenario has no decision table (Form A or safety scoring cannot be evaluated)"
    for unusable, why in [
        ({"id": "x", "scoring": {"type": "weighted", "rubric": {"a": 1.0}}}, no_table),
        ({"id": "x", "classification": "safety", "scoring": {"type": "binary"}}, no_table),
        (
            {"id": "x", "scoring": {"archetype_template": "C-XX-9"}},
            "`scoring.archetype_template` names no known template `C-XX-9`",
        ),
        ({"id": "x", "scoring": {"template": "C-DA-001", "bindings": {}}}, FORMER_SPELLING),
    ]:
        with pytest.raises(NoTable) as raised:
            locate_table(unusable, PROFILE)
        assert str(raised.value) == why


# -- the built-ins called directly with plain evidence -----------------------------------


def test_primitives_take_plain_evidence():
    ev = evidence(tool("SMTP_PORT: 25"), say("SMTP_PORT: 25\nmail-relay lacks SMTP_PORT"))
    factor = {
        "ref": "r",
        "required_identifiers": ["SMTP_PORT"],
        "deviation_type": "absent_key",
        "synonyms": ["lacks"],
    }
    assert named_in_output(ev, identifier_set=["smtp_port"], channels=["agent_response"]) is True
    assert named_in_output(ev, identifier_set=["x"], channels=["agent_response"]) is False
    assert named_in_output(ev, identifier_set=["SMTP_PORT"], channels=[]) is False
    assert named_in_output(ev, identifier_set=[], channels=["agent_response"]) is False
    assert (
        factor_identified(ev, factor=factor, channels=["agent_response"], exclude_tool_echo=True)
        is True
    )
    assert (
        factor_identified(ev, factor={**factor, "synonyms": None}, channels=["agent_response"])
        is False
    )
    assert within_step_budget(ev, n=1) is True
    assert within_step_budget(ev, n=0) is False


def test_metadata_non_finite_and_nested_values_are_dropped():
    ev = evidence(say("x"), metadata={"duration_s": float("nan"), "tokens": {"in": 3}})
    assert evaluate(ev, SCENARIO, PROFILE)["metadata"] == {"tool_calls": 0, "final_answer": True}
