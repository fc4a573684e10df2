"""The predicate language and whole-table validation (SPEC §2.2, §5 "Tables")."""

from __future__ import annotations

import copy

import pytest
from test_evaluator_helpers import (
    PROFILE,
    SCENARIO,
    composite,
    evidence,
    profile_with,
    say,
    scenario,
    strip_meta,
    tool,
)

from si_lint.evaluator import evaluate, untrusted_primitives
from si_lint.profile import builtin_profile, profile_from_data

NIO = {"named_in_output": {"identifier_set": ["SMTP_PORT"], "channels": ["agent_response"]}}
ELSE = {"when": "else", "score": 0.0}
GOOD = evidence(say("SMTP_PORT is missing."))


def run(table, ev=GOOD, profile=PROFILE):
    return strip_meta(evaluate(ev, composite(table), profile))


def err(message):
    return {"score": None, "row": None, "error": "invalid decision table: " + message}


def test_all_empty_holds_any_empty_does_not():
    table = [{"when": {"any": []}, "score": 1.0}, {"when": {"all": []}, "score": 0.5}, ELSE]
    assert run(table) == {"score": 0.5, "row": 2}


def test_combinators():
    table = [
        {"when": {"all": [NIO, {"not": NIO}]}, "score": 0.9},
        {"when": {"any": [{"not": NIO}, NIO]}, "score": 0.7},
        ELSE,
    ]
    assert run(table) == {"score": 0.7, "row": 2}
    assert run(table, evidence(say("nothing"))) == {"score": 0.7, "row": 2}


def test_first_matching_row_wins():
    table = [{"when": NIO, "score": 0.25}, {"when": NIO, "score": 1.0}, ELSE]
    assert run(table) == {"score": 0.25, "row": 1}


def test_no_row_holds_is_an_error():
    assert run([{"when": NIO, "score": 1.0}], evidence(say("x"))) == {
        "score": None,
        "row": None,
        "error": "no row of the decision table holds",
    }


def test_empty_table_is_an_error():
    assert run([]) == {"score": None, "row": None, "error": "no row of the decision table holds"}


@pytest.mark.parametrize(
    "bad_row, message",
    [
        (
            {"when": {"ops_precede": {}}, "score": 1.0},
            "row 2.when: `ops_precede` is not a registered primitive",
        ),
        (
            {
                "when": {"named_in_output": {"identifier_set": ["A"], "channels": ["stdout"]}},
                "score": 1.0,
            },
            "row 2.when.named_in_output.channels: unknown channel `stdout`",
        ),
        (
            {"when": {"named_in_output": {"identifier_set": ["A"]}}, "score": 1.0},
            "row 2.when.named_in_output: missing required argument `channels`",
        ),
        (
            {
                "when": {
                    "named_in_output": {
                        "identifier_set": ["A"],
                        "channels": ["agent_response"],
                        "case_sensitive": True,
                    }
                },
                "score": 1.0,
            },
            "row 2.when.named_in_output: unknown argument `case_sensitive`",
        ),
        (
            {
                "when": {
                    "named_in_output": {"identifier_set": "A", "channels": ["agent_response"]}
                },
                "score": 1.0,
            },
            "row 2.when.named_in_output.identifier_set: expected a list of strings",
        ),
        (
            {
                "when": {
                    "named_in_output": {"identifier_set": ["A", 3], "channels": ["agent_response"]}
                },
                "score": 1.0,
            },
            "row 2.when.named_in_output.identifier_set: expected a list of strings",
        ),
        (
            {
                "when": {
                    "named_in_output": {
                        "identifier_set": ["A"],
                        "channels": ["agent_response"],
                        "exclude_tool_echo": "yes",
                    }
                },
                "score": 1.0,
            },
            "row 2.when.named_in_output.exclude_tool_echo: expected a boolean",
        ),
        (
            {"when": {"within_step_budget": {"n": 15.0}}, "score": 1.0},
            "row 2.when.within_step_budget.n: expected an integer",
        ),
        (
            {"when": {"within_step_budget": {"n": True}}, "score": 1.0},
            "row 2.when.within_step_budget.n: expected an integer",
        ),
        (
            {"when": {"within_step_budget": {"n": -1}}, "score": 1.0},
            "row 2.when.within_step_budget.n: -1 is below the minimum 0",
        ),
        (
            {
                "when": {
                    "factor_identified": {
                        "factor": {"required_identifiers": ["A"]},
                        "channels": ["agent_response"],
                    }
                },
                "score": 1.0,
            },
            "row 2.when.factor_identified.factor: factor has no string `ref`",
        ),
        (
            {
                "when": {
                    "factor_identified": {
                        "factor": {"ref": "smtp-port-removed", "required_identifiers": "A"},
                        "channels": ["agent_response"],
                    }
                },
                "score": 1.0,
            },
            "row 2.when.factor_identified.factor: factor `required_identifiers` is not a list "
            "of strings",
        ),
        (
            {
                "when": {"factor_identified": {"factor": ["A"], "channels": ["agent_response"]}},
                "score": 1.0,
            },
            "row 2.when.factor_identified.factor: expected a factor mapping",
        ),
        (
            {"when": {"not": "else"}, "score": 1.0},
            "row 2.when.not: `else` is valid only as a row's whole `when`",
        ),
        (
            {"when": {"all": [NIO, NIO["named_in_output"]]}, "score": 1.0},
            "row 2.when.all[1]: a predicate is `else` or a mapping with exactly one key",
        ),
        ({"when": {"any": NIO}, "score": 1.0}, "row 2.when.any: expected a list of predicates"),
        (
            {"when": "SMTP_PORT in output", "score": 1.0},
            "row 2.when: a predicate is `else` or a mapping with exactly one key",
        ),
        (
            {"when": {"within_step_budget": {"n": "$step_budget"}}, "score": 1.0},
            "row 2.when.within_step_budget.n: role reference `$step_budget` in a composite "
            "(composite arguments are literal values)",
        ),
        (
            {"when": {"within_step_budget": {"n": 3}}, "score": "1.0"},
            "row 2: `score` is not a number",
        ),
        (
            {"when": {"within_step_budget": {"n": 3}}, "score": True},
            "row 2: `score` is not a number",
        ),
        (
            {"when": {"within_step_budget": {"n": 3}}, "score": float("nan")},
            "row 2: `score` is not a number",
        ),
        ({"score": 1.0}, "row 2: no `when`"),
        ("else", "row 2: a row is a mapping with `when` and `score`"),
    ],
)
def test_whole_table_is_validated_even_rows_never_reached(bad_row, message):
    # row 1 always holds, so the bad row 2 is never reached: still an error verdict
    table = [{"when": "else", "score": 1.0}, bad_row, ELSE]
    assert run(table) == err(message)


def test_unbound_role_in_an_unreached_row():
    scen = scenario()
    del scen["scoring"]["subsystem_set"]
    # row 1 holds (no final answer) but row 3 needs $subsystem_set
    v = strip_meta(evaluate(evidence(say("x", final=None)), scen, PROFILE))
    assert v == err("row 3.when.named_in_output.identifier_set: role `$subsystem_set` is not bound")


def test_ill_typed_binding_is_an_error():
    scen = scenario(step_budget="15")
    assert strip_meta(evaluate(GOOD, scen, PROFILE)) == err(
        "row 1.when.not.within_step_budget.n: expected an integer"
    )


def test_lint_only_problems_do_not_stop_evaluation():
    # SI113 (exclude_tool_echo false), SI114 (budget != ratified), SI105 (widened channels),
    # SI110 (an undeclared role): all evaluated as written
    scen = scenario(
        exclude_tool_echo=False,
        step_budget=2,
        channels=["agent_response", "reasoning_trace"],
        extra_role=["x"],
    )
    ev = evidence(
        tool("a"), tool("b"), {"kind": "reasoning", "text": "SMTP_PORT missing"}, say("Done.")
    )
    assert strip_meta(evaluate(ev, scen, PROFILE)) == {"score": 1.0, "row": 2}
    ev["events"].insert(0, tool("c"))
    assert strip_meta(evaluate(ev, scen, PROFILE)) == {"score": 0.0, "row": 1}


def test_step_budget_zero_is_evaluated_registry_minimum_is_0():
    scen = scenario(step_budget=0)
    assert strip_meta(evaluate(GOOD, scen, PROFILE)) == {"score": 1.0, "row": 2}


def test_defaults_apply():
    # exclude_tool_echo defaults to false: the echo counts
    table = [{"when": NIO, "score": 1.0}, ELSE]
    assert run(table, evidence(tool("SMTP_PORT"), say("SMTP_PORT"))) == {"score": 1.0, "row": 1}


# -- non-built-in primitives -------------------------------------------------------------

OPS = {
    "name": "ops_precede",
    "evidence": ["tool_calls"],
    "question": "?",
    "implementation": "impl/ops.py:ops_precede",
    "params": [
        {"name": "first", "type": "identifier_set", "required": True},
        {"name": "then", "type": "identifier_set", "required": True},
    ],
}


def ops_profile(implementations=None):
    prims = list(builtin_profile().registry["primitives"]) + [OPS]
    return profile_with({"primitives": prims}, implementations)


OPS_TABLE = [{"when": {"ops_precede": {"first": ["a"], "then": ["b"]}}, "score": 1.0}, ELSE]


def test_untrusted_implementation_is_an_error_and_reported():
    prof = ops_profile()
    assert untrusted_primitives(composite(OPS_TABLE), prof) == ["ops_precede"]
    assert untrusted_primitives(SCENARIO, prof) == []
    assert run(OPS_TABLE, profile=prof) == err(
        "row 1.when: primitive `ops_precede` needs an implementation that is not trusted "
        "(run with --trust-implementations)"
    )


def test_trusted_implementation_is_called_with_plain_evidence_and_resolved_args():
    calls = []

    def ops_precede(evidence, *, first, then):
        calls.append((copy.deepcopy(evidence), first, then))
        evidence["actions"].clear()  # a misbehaving primitive cannot touch the artifact
        return True

    prof = ops_profile({"ops_precede": ops_precede})
    assert untrusted_primitives(composite(OPS_TABLE), prof) == []
    ev = evidence(
        {
            "kind": "tool_call",
            "tool": "kubectl_get",
            "args": {"name": "cm"},
            "response": "SMTP_HOST: a",
        },
        say("x"),
    )
    original = copy.deepcopy(ev)
    assert run(OPS_TABLE, ev, prof) == {"score": 1.0, "row": 1}
    # SPEC §2.1: the artifact form of the evidence, plus what the projection computed and
    # what a primitive needs from the scenario and the profile
    scen = composite(OPS_TABLE)
    assert calls == [
        (
            {
                "scenario_id": None,
                "final_answer": "x",
                "reasoning_trace": "",
                "actions": [
                    {"tool": "kubectl_get", "arguments": {"name": "cm"}, "result": "SMTP_HOST: a"}
                ],
                "has_final_answer": True,
                "steps": 1,
                "injection": scen["injection"],
                "synonyms": dict(prof.synonyms),
                "constants": {
                    "cooccurrence_radius": 0,
                    "synonym_match": "token",
                    "echo_line": "raw",
                },
            },
            ["a"],
            ["b"],
        )
    ]
    assert ev == original


def test_trusted_implementation_failures_are_error_verdicts():
    def boom(evidence, **kw):
        raise KeyError("x")

    def maybe(evidence, **kw):
        return 1

    assert run(OPS_TABLE, profile=ops_profile({"ops_precede": boom})) == {
        "score": None,
        "row": None,
        "error": "primitive `ops_precede` raised KeyError: 'x'",
    }
    assert run(OPS_TABLE, profile=ops_profile({"ops_precede": maybe})) == {
        "score": None,
        "row": None,
        "error": "primitive `ops_precede` returned int, not a boolean",
    }


def test_unknown_template():
    scen = copy.deepcopy(SCENARIO)
    scen["scoring"]["archetype_template"] = "C-DA-404"
    assert strip_meta(evaluate(GOOD, scen, PROFILE)) == {
        "score": None,
        "row": None,
        "error": "`scoring.archetype_template` names no known template `C-DA-404`",
    }


def test_template_found_by_its_id_whatever_the_key():
    prof = profile_from_data(PROFILE.registry, {"c-da-001.yaml": PROFILE.templates["C-DA-001"]})
    assert strip_meta(evaluate(GOOD, SCENARIO, prof)) == {"score": 1.0, "row": 2}
