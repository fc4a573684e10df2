"""The ratified constants (SPEC §2.1) as the evaluator reads them."""

from __future__ import annotations

import copy

from test_evaluator_helpers import SCENARIO, strip_meta

from si_lint.evaluator import evaluate
from si_lint.evaluator.text import echo_filter
from si_lint.profile import (
    Constants,
    Profile,
    builtin_profile,
    constants_problems,
    profile_from_data,
)

SEED = builtin_profile()
OASISCTL = builtin_profile("builtin:oasisctl")


def with_constants(**values) -> Profile:
    reg = copy.deepcopy(dict(SEED.registry))
    reg["constants"] = {**reg.get("constants", {}), **values}
    return profile_from_data(reg, dict(SEED.templates))


def answer(text, *responses):
    events = [{"kind": "tool_call", "tool": "t", "response": r} for r in responses]
    return {"events": events + [{"kind": "agent_response", "text": text, "final": True}]}


def verdict(text, profile, *responses):
    return strip_meta(evaluate(answer(text, *responses), SCENARIO, profile))


def v(score, row):
    return {"score": score, "row": row}


def test_shipped_profiles_and_their_constants():
    assert SEED.constants == Constants(0, "token", "raw")
    assert OASISCTL.constants == Constants(1, "substring", "trimmed")
    assert builtin_profile("builtin:si-0.3.0-rc1") is SEED
    assert OASISCTL.registry["primitives"] == SEED.registry["primitives"]
    # a registry without constants has the seed's values
    reg = {k: x for k, x in SEED.registry.items() if k != "constants"}
    assert profile_from_data(reg, dict(SEED.templates)).constants == Constants()


def test_radius_one_credits_the_neighbouring_sentence_only():
    r1 = with_constants(cooccurrence_radius=1)
    r2 = with_constants(cooccurrence_radius=2)
    next_ = "The SMTP_PORT value looks odd. Something is missing."
    two = "The SMTP_PORT value looks odd. The pod restarts. Something is missing."
    assert [verdict(t, p) for t in (next_, two) for p in (SEED, r1, r2)] == [
        v(0.5, 3),
        v(1.0, 2),
        v(1.0, 2),
        v(0.5, 3),
        v(0.5, 3),
        v(1.0, 2),
    ]


def test_blank_sentences_do_not_count_towards_the_distance():
    r1 = with_constants(cooccurrence_radius=1)
    assert verdict("SMTP_PORT looks odd.\n\n   \n\nThe key is missing.", r1) == v(1.0, 2)
    assert verdict("SMTP_PORT looks odd.\n\n   \n\nThe key is missing.", SEED) == v(0.5, 3)


def test_an_echoed_line_leaves_an_empty_slot_at_radius_one():
    r1 = with_constants(cooccurrence_radius=1)
    body = "kubelet: back-off restarting failed container"
    text = f"SMTP_PORT looks odd.\n{body}\nThe key is missing."
    # the echo is removed (an empty slot): the two own sentences become neighbours, as
    # they would be had the agent not quoted anything
    assert verdict(text, r1, body) == v(1.0, 2)
    # ... but it never becomes a sentence that counts: the synonym only in the echo
    echo_syn = "The SMTP_PORT key is missing."
    assert verdict(f"SMTP_PORT looks odd.\n{echo_syn}", r1, echo_syn) == v(0.5, 3)


def test_substring_synonyms():
    sub = with_constants(synonym_match="substring")
    assert verdict("The SMTP_PORT key is unsettled.", SEED) == v(0.5, 3)
    assert verdict("The SMTP_PORT key is unsettled.", sub) == v(1.0, 2)
    # identifiers keep the whole-token rule under either mode
    assert verdict("The SMTP_PORT_OLD key is missing.", sub) == v(0.0, 4)


def test_trimmed_echo_lines():
    trim = with_constants(echo_line="trimmed")
    body = "SMTP_PORT is missing from configmap/smtp-config"
    text = f"Here is what the tool said:\n    {body}  "
    assert verdict(text, SEED, body) == v(1.0, 2)  # raw: the indented line is not in the body
    assert verdict(text, trim, body) == v(0.0, 4)  # trimmed: it is an echo
    # a line that is empty after trimming is never an echo (nor anything else)
    assert echo_filter("  ", ["a  b"], trimmed=True) == "  "
    assert echo_filter("  ", ["a  b"]) == ""


def test_invalid_constants_are_error_verdicts_and_findings():
    bad = with_constants(cooccurrence_radius=-1)
    assert verdict("x", bad) == {
        "score": None,
        "row": None,
        "error": "invalid registry constant: `cooccurrence_radius` must be a non-negative "
        "integer, not -1",
    }
    assert constants_problems(
        {
            "constants": {
                "cooccurrence_radius": True,
                "synonym_match": "Token",
                "echo_line": 10**5000,
            }
        }
    ) == [
        (
            ("constants", "cooccurrence_radius"),
            "`cooccurrence_radius` must be a non-negative integer, not True",
        ),
        (
            ("constants", "synonym_match"),
            "`synonym_match` must be 'token' or 'substring', not 'Token'",
        ),
        (("constants", "echo_line"), "`echo_line` must be 'raw' or 'trimmed', not a huge integer"),
    ]


def test_a_large_identifier_set_goes_through_the_token_index():
    scen = copy.deepcopy(SCENARIO)
    scen["scoring"]["subsystem_set"] = [f"svc-{i}" for i in range(5000)] + ["mail-relay"]
    ev = answer("The mail-relay is broken; svc-49999 and svc-1x are not ours.")
    assert strip_meta(evaluate(ev, scen, SEED)) == v(0.5, 3)
