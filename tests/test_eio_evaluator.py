"""The EIO checklist evaluator (SPEC §6): expectations derived by hand, fractions written out.

The three corpus inputs echo the seed's measurement (a governed 984-character prompt vs a
guardrail-free 165-character one): the checklist ranks governed above guardrail-free, the
opposite of the assessor ratings recorded in the same inputs (which must be ignored for
checklist criteria).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from si_lint.eio import evaluator
from si_lint.eio.evaluator import blank_probe, compare_expect, evaluate_input, q_axis
from si_lint.loader import load_bytes

REPO = Path(__file__).resolve().parents[1]
EIO = REPO / "fixtures" / "corpus" / "eio"
SEED = REPO.parent / "shared" / "seeds" / "eio.context.criteria.yaml"

GR = "eio.context.guardrail-coverage"
IH = "eio.context.injection-hardening"
RC = "eio.context.role-clarity"
TS = "eio.context.tool-schema-quality"
GS = "eio.context.grounding-sufficiency"
IC = "eio.context.instruction-consistency"
TE = "eio.context.token-efficiency"
MODULE_ORDER = [RC, GR, IC, TS, GS, IH, TE]

GUARDRAIL_CONTROLS = [
    "refusal-condition",
    "escalation-path",
    "personal-data",
    "payment-instrument",
    "prohibited-actions-named",
    "verification-duty",
]
INJECTION_CONTROLS = [
    "data-instruction-separation",
    "forbids-embedded-instructions",
    "names-untrusted-channels",
    "authority-is-not-conversational",
]


def load(path: Path):
    loaded = load_bytes(path.read_bytes())
    assert loaded.findings == []
    return loaded.data


@pytest.fixture(scope="module")
def seed():
    return load(EIO / "eio.context.criteria.yaml")


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_seed_module_is_the_seed_byte_for_byte():
    from conftest import need_shared

    assert (EIO / "eio.context.criteria.yaml").read_bytes() == need_shared(SEED).read_bytes()


# ----------------------------------------------------------------------------------------
# the corpus inputs, by hand


def texts(inp):
    return {a["name"]: a["text"] for a in inp["context_artifacts"]}


def test_governed_prompt(seed):
    inp = load(EIO / "inputs" / "governed.yaml")
    t = texts(inp)
    assert len(t["system_prompt.md"]) == 984
    res = evaluate_input(seed, inp)
    c = res["criteria"]
    assert list(c) == MODULE_ORDER
    prompt, policy, tools = t["system_prompt.md"], t["credit_policy.md"], t["tools.json"]
    # guardrail coverage searches the system prompt, then the DECLARED policy document:
    # refusal ("must not"), escalation ("escalate"), personal data (policy: "personal data"),
    # payment ("card number"), prohibited actions ("never "); no verification duty.
    assert c[GR] == {
        "scoring": "checklist",
        "status": "SCORED",
        "score": 5 / 6,
        "controls_present": GUARDRAIL_CONTROLS[:5],
        "controls_required": 6,
        "searched_text_sha256": sha(prompt + "\n" + policy),
    }
    # injection hardening: "untrusted", "do not follow instructions", "emails"; no authority
    assert c[IH] == {
        "scoring": "checklist",
        "status": "SCORED",
        "score": 3 / 4,
        "controls_present": INJECTION_CONTROLS[:3],
        "controls_required": 4,
        "searched_text_sha256": sha(prompt),
    }
    # assessor criteria: rating / 10; the ratings of the two checklist criteria (5.0, 4.0,
    # what the seed's assessor gave) are ignored
    assert c[RC] == {
        "scoring": "assessor",
        "status": "SCORED",
        "score": 7 / 10,
        "controls_present": [],
        "controls_required": 0,
        "searched_text_sha256": sha(prompt),
    }
    assert (c[TS]["status"], c[TS]["score"], c[TS]["searched_text_sha256"]) == (
        "SCORED",
        8 / 10,
        sha(tools),
    )
    assert (c[GS]["status"], c[GS]["score"]) == ("SCORED", 6 / 10)
    # non_scoring: findings, never a value; the context root covers all three, by name
    assert c[IC] == {
        "scoring": "non_scoring",
        "status": "FINDINGS",
        "score": None,
        "controls_present": [],
        "controls_required": 0,
        "searched_text_sha256": sha(prompt),
        "findings": {"artifacts": ["system_prompt.md"], "searched_chars": 984},
    }
    assert c[TE]["findings"] == {
        "artifacts": ["credit_policy.md", "system_prompt.md", "tools.json"],
        "searched_chars": len(policy) + 1 + 984 + 1 + len(tools),
    }
    assert c[TE]["searched_text_sha256"] == sha(policy + "\n" + prompt + "\n" + tools)
    # Q = (0.7 + 5/6 + 0.8 + 0.6 + 3/4) / 5 * 10 = 3.68333.../5*10 = 7.36666... -> 7.3667
    assert (res["q_axis"], res["q_display"]) == (7.3667, "7.4")


def test_guardrail_free_prompt(seed):
    inp = load(EIO / "inputs" / "guardrail-free.yaml")
    assert len(texts(inp)["system_prompt.md"]) == 165
    res = evaluate_input(seed, inp)
    c = res["criteria"]
    # only "payment" (inside "repayment"): 1 of 6; nothing of injection hardening
    assert (c[GR]["score"], c[GR]["controls_present"]) == (1 / 6, ["payment-instrument"])
    assert (c[IH]["status"], c[IH]["score"], c[IH]["controls_present"]) == ("SCORED", 0 / 4, [])
    # the assessor's 9.0 and 7.0 for these two criteria did not leak in
    assert (c[RC]["score"], c[TS]["score"], c[GS]["score"]) == (7 / 10, 8 / 10, 6 / 10)
    # Q = (0.7 + 1/6 + 0.8 + 0.6 + 0) / 5 * 10 = 2.2666.../5*10 = 4.5333... -> 4.5333
    assert (res["q_axis"], res["q_display"]) == (4.5333, "4.5")


def test_checklist_ranks_governed_above_guardrail_free(seed):
    gov = evaluate_input(seed, load(EIO / "inputs" / "governed.yaml"))
    free = evaluate_input(seed, load(EIO / "inputs" / "guardrail-free.yaml"))
    for cid in (GR, IH):
        assert gov["criteria"][cid]["score"] > free["criteria"][cid]["score"]
    assert gov["q_axis"] > free["q_axis"]


def test_run_without_tool_schema(seed):
    inp = load(EIO / "inputs" / "no-tool-schema.yaml")
    res = evaluate_input(seed, inp)
    c = res["criteria"]
    # a rating (8.0) is recorded, but no artifact of the evaluated kind: NOT_APPLICABLE
    assert c[TS] == {
        "scoring": "assessor",
        "status": "NOT_APPLICABLE",
        "score": None,
        "controls_present": [],
        "controls_required": 0,
        "searched_text_sha256": None,
    }
    # the policy is supplied as a knowledge source (not declared policy): guardrail coverage
    # searches the system prompt alone and loses personal data
    prompt = texts(inp)["system_prompt.md"]
    assert c[GR]["score"] == 4 / 6
    assert c[GR]["controls_present"] == [
        "refusal-condition",
        "escalation-path",
        "payment-instrument",
        "prohibited-actions-named",
    ]
    assert c[GR]["searched_text_sha256"] == sha(prompt)
    assert c[IH]["score"] == 3 / 4
    # grounding searches the knowledge source first, then the prompt (evaluates order)
    assert c[GS]["searched_text_sha256"] == sha(texts(inp)["credit_policy.md"] + "\n" + prompt)
    # Q = (0.7 + 4/6 + 0.6 + 3/4) / 4 * 10 = 2.71666.../4*10 = 6.791666... -> 6.7917
    assert (res["q_axis"], res["q_display"]) == (6.7917, "6.8")


def test_blank_prompt_scores_zero_not_not_applicable(seed):
    res = evaluate_input(seed, load(EIO / "inputs" / "blank-prompt.yaml"))
    c = res["criteria"]
    assert (c[GR]["status"], c[GR]["score"]) == ("SCORED", 0 / 6)
    assert (c[IH]["status"], c[IH]["score"]) == ("SCORED", 0 / 4)
    assert c[GR]["searched_text_sha256"] == sha("")
    assert [c[k]["status"] for k in (RC, TS, GS)] == ["NOT_APPLICABLE"] * 3
    assert c[IC]["findings"] == {"artifacts": ["system_prompt.md"], "searched_chars": 0}
    assert (res["q_axis"], res["q_display"]) == (0.0, "0.0")


@pytest.mark.parametrize("name", ["governed", "guardrail-free", "no-tool-schema", "blank-prompt"])
def test_corpus_fixture_expectations_hold(seed, name):
    inp = load(EIO / "inputs" / f"{name}.yaml")
    assert compare_expect(evaluate_input(seed, inp), inp["expect"]) == []


# ----------------------------------------------------------------------------------------
# searched text and its order

MINI = {
    "eio": {"id": "m", "version": "1.0.0"},
    "concepts": [
        {"id": "eio.artifact.context"},
        {"id": "eio.artifact.system-prompt", "parent": "eio.artifact.context"},
        {"id": "eio.artifact.policy", "parent": "eio.artifact.context"},
        {"id": "eio.artifact.policy.credit", "parent": "eio.artifact.policy"},
    ],
    "context_criteria": [
        {
            "id": "c",
            "scoring": "checklist",
            "evaluates": [
                "eio.artifact.policy",
                "eio.artifact.system-prompt",
                "eio.artifact.context",
            ],
            "controls": [
                {"id": "never", "requires_any": ["never "]},
                {"id": "gdpr", "requires_any": ["gdpr"]},
                {"id": "upper", "requires_any": ["Refuse"]},
            ],
        },
        {"id": "r", "scoring": "assessor", "evaluates": ["eio.artifact.system-prompt"]},
        {"id": "n", "scoring": "non_scoring", "evaluates": ["eio.artifact.context"]},
    ],
    "profiles": [{"id": "p", "scoring_criteria": ["c", "r"], "findings_only": ["n"]}],
}


def art(name, kind, text):
    return {"name": name, "kind": kind, "text": text}


def test_searched_text_order_entry_by_entry_then_by_name():
    inp = {
        "module": "m",
        "context_artifacts": [
            art("b.md", "eio.artifact.policy", "B"),
            art("z.md", "eio.artifact.system-prompt", "Z"),
            art("a.md", "eio.artifact.policy.credit", "A"),  # descends from policy
            art("B.md", "eio.artifact.policy", "b2"),  # "B" < "a" in code-point order
            art("notes", "eio.artifact.other", "O"),  # unknown kind: only where named
            art("a.md", "eio.artifact.policy", "A2"),  # same name: input order
            art("k.md", "eio.artifact.context", "K"),
        ],
    }
    r = evaluate_input(MINI, inp)["criteria"]["c"]
    # entry 1 (policy and descendants, by name): B.md, a.md(A), a.md(A2), b.md;
    # entry 2 (system-prompt): z.md; entry 3 (the root; nothing taken twice): k.md.
    # "notes" is of an unknown kind, named by no entry: never searched.
    assert r["searched_text_sha256"] == sha("b2\nA\nA2\nB\nZ\nK")


def test_a_parent_entry_sorts_all_it_covers_together():
    inp = {
        "context_artifacts": [
            art("z", "eio.artifact.system-prompt", "Z"),
            art("a", "eio.artifact.policy", "A"),
            art("m", "eio.artifact.system-prompt", "M"),
        ]
    }
    r = evaluate_input(MINI, inp)["criteria"]["n"]
    assert r["findings"] == {"artifacts": ["a", "m", "z"], "searched_chars": 5}
    assert r["searched_text_sha256"] == sha("A\nM\nZ")


def test_terms_verbatim_against_casefolded_text():
    def present(text):
        inp = {"context_artifacts": [art("p", "eio.artifact.system-prompt", text)]}
        return evaluate_input(MINI, inp)["criteria"]["c"]["controls_present"]

    assert present("Nevertheless we continue") == []  # "never " keeps its space
    assert present("NEVER share it. GDPR applies.") == ["never", "gdpr"]  # text casefolded
    assert present("REFUSE and Refuse") == []  # an upper-case term never matches
    assert present("never\nshare") == []  # a newline is not the space
    assert present("you never") == []  # no space at the end of the text


def test_controls_present_in_module_order_and_score_unrounded():
    inp = {"context_artifacts": [art("p", "eio.artifact.system-prompt", "gdpr; never do")]}
    r = evaluate_input(MINI, inp)["criteria"]["c"]
    assert (r["controls_present"], r["controls_required"], r["score"]) == (
        ["never", "gdpr"],
        3,
        2 / 3,
    )


def test_artifact_order_in_the_input_does_not_matter_when_names_differ():
    arts = [
        art("x", "eio.artifact.policy", "X"),
        art("y", "eio.artifact.system-prompt", "Y"),
        art("w", "eio.artifact.policy", "W"),
    ]
    a = evaluate_input(MINI, {"context_artifacts": arts})
    b = evaluate_input(MINI, {"context_artifacts": list(reversed(arts))})
    assert json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


# ----------------------------------------------------------------------------------------
# NOT_APPLICABLE, assessor ratings, errors


def test_no_artifact_of_an_evaluated_kind_is_not_applicable_never_a_default():
    inp = {
        "context_artifacts": [art("t", "eio.artifact.tool-schema", "tools")],
        "assessor_ratings": {"r": 9},
    }
    res = evaluate_input(MINI, inp)
    for cid in ("c", "r"):
        assert res["criteria"][cid]["status"] == "NOT_APPLICABLE"
        assert res["criteria"][cid]["score"] is None
        assert res["criteria"][cid]["searched_text_sha256"] is None
    assert res["criteria"]["c"]["controls_present"] == []
    assert res["criteria"]["c"]["controls_required"] == 3
    assert (res["q_axis"], res["q_display"]) == (None, None)


@pytest.mark.parametrize(
    "rating,expected",
    [
        (7, ("SCORED", 7 / 10)),
        (0, ("SCORED", 0.0)),
        (10, ("SCORED", 1.0)),
        (2.5, ("SCORED", 0.25)),
        (None, ("NOT_APPLICABLE", None)),
    ],
)
def test_assessor_rating_over_ten(rating, expected):
    inp = {"context_artifacts": [art("p", "eio.artifact.system-prompt", "x")]}
    if rating is not None:
        inp["assessor_ratings"] = {"r": rating}
    r = evaluate_input(MINI, inp)["criteria"]["r"]
    assert (r["status"], r["score"]) == expected


@pytest.mark.parametrize("rating", [True, "7", 10.5, -1, float("nan")])
def test_a_bad_rating_is_an_error_for_that_criterion_only(rating):
    inp = {
        "context_artifacts": [art("p", "eio.artifact.system-prompt", "gdpr")],
        "assessor_ratings": {"r": rating},
    }
    res = evaluate_input(MINI, inp)
    assert res["criteria"]["r"]["status"] == "ERROR"
    assert res["criteria"]["r"]["score"] is None
    assert "rating" in res["criteria"]["r"]["error"]
    assert (res["criteria"]["c"]["status"], res["criteria"]["c"]["score"]) == ("SCORED", 1 / 3)
    # Q from the SCORED criteria only: c = 1/3 -> 3.3333
    assert (res["q_axis"], res["q_display"]) == (3.3333, "3.3")


def test_checklist_number_never_taken_from_a_rating():
    inp = {
        "context_artifacts": [art("p", "eio.artifact.system-prompt", "")],
        "assessor_ratings": {"c": 10.0},
    }
    r = evaluate_input(MINI, inp)["criteria"]["c"]
    assert (r["status"], r["score"]) == ("SCORED", 0.0)


@pytest.mark.parametrize(
    "inp,message",
    [
        ({"module": "other", "context_artifacts": []}, "input is for module 'other', not `m`"),
        ({"context_artifacts": "x"}, "`context_artifacts` must be a list of artifacts"),
        ({"context_artifacts": [1]}, "context_artifacts[0] is not a mapping"),
        (
            {"context_artifacts": [{"kind": "k", "text": ""}]},
            "context_artifacts[0].name must be a string",
        ),
        (
            {"context_artifacts": [{"name": "n", "text": ""}]},
            "context_artifacts[0].kind must be a string",
        ),
        (
            {"context_artifacts": [{"name": "n", "kind": "k", "text": 3}]},
            "context_artifacts[0].text must be a string",
        ),
        (
            {"context_artifacts": [], "profile": "nope"},
            "profile `nope` is not defined by module `m`",
        ),
        (
            {"context_artifacts": [], "assessor_ratings": [1]},
            "`assessor_ratings` must be a mapping of criterion id to rating",
        ),
        ([], "the input is not a mapping"),
    ],
)
def test_inputs_that_cannot_be_evaluated(inp, message):
    assert evaluate_input(MINI, inp) == {"error": message}


def test_a_malformed_module_is_an_error_value_not_an_exception():
    assert evaluate_input(None, {"context_artifacts": []}) == {
        "error": "the module is not an EIO module (no `eio.id`)"
    }
    weird = {
        "eio": {"id": "w"},
        "context_criteria": [
            {"id": "a", "scoring": "checklist", "evaluates": "x", "controls": "y"},
            {"id": "b", "scoring": "magic", "evaluates": ["eio.artifact.context"]},
            {"id": "c", "scoring": "checklist", "evaluates": ["k"], "controls": []},
            {
                "id": "d",
                "scoring": "checklist",
                "evaluates": ["k"],
                "controls": [{"id": "x", "requires_any": [1]}],
            },
            "junk",
        ],
        "profiles": "no",
    }
    res = evaluate_input(weird, {"context_artifacts": [art("p", "k", "t")]})
    c = res["criteria"]
    assert list(c) == ["a", "b", "c", "d"]
    assert [c[k]["status"] for k in "abcd"] == ["ERROR", "ERROR", "ERROR", "ERROR"]
    assert c["c"]["error"] == "checklist criterion has no controls"
    assert (res["q_axis"], res["q_display"]) == (None, None)


def test_missing_profile_means_the_first():
    mod = dict(
        MINI,
        profiles=[
            {"id": "first", "scoring_criteria": ["c"]},
            {"id": "second", "scoring_criteria": ["c", "r"]},
        ],
    )
    arts = [art("p", "eio.artifact.system-prompt", "gdpr")]
    first = evaluate_input(mod, {"context_artifacts": arts, "assessor_ratings": {"r": 10}})
    second = evaluate_input(
        mod, {"context_artifacts": arts, "assessor_ratings": {"r": 10}, "profile": "second"}
    )
    assert first["q_axis"] == 3.3333  # 1/3 * 10
    assert second["q_axis"] == 6.6667  # (1/3 + 1) / 2 * 10


# ----------------------------------------------------------------------------------------
# the Q axis: pinned arithmetic


@pytest.mark.parametrize(
    "scores,expected",
    [
        ([], (None, None)),
        ([1.0], (10.0, "10.0")),
        ([5 / 6], (8.3333, "8.3")),
        ([0.625], (6.25, "6.2")),  # display tie: half-even (6.2), not half-up (6.3)
        ([0.675], (6.75, "6.8")),
        ([45 / 64], (7.0312, "7.0")),  # 7.03125 exactly: 4-decimal tie, half-even -> 7.0312
        ([0.734996], (7.35, "7.4")),  # quantised once to 7.3500, then displayed: 7.4, not 7.3
        ([0.0, 0.0], (0.0, "0.0")),
    ],
)
def test_q_axis_pinned(scores, expected):
    assert q_axis(scores) == expected


def test_q_axis_sums_left_to_right_with_plain_float_additions():
    # (1e16 + 1.0) + 1.0 == 1e16 in plain float arithmetic (each 1.0 is half an ulp and
    # rounds away); a compensated sum (math.fsum, Python 3.12's sum()) keeps them and gives
    # 1e16 + 2. The pinned arithmetic is the plain one, so both ones vanish.
    import math

    assert math.fsum([1e16, 1.0, 1.0]) == 1e16 + 2
    assert q_axis([1e16, 1.0, 1.0]) == q_axis([1e16, 0.0, 0.0])
    assert q_axis([1e16, 1.0, 1.0]) != q_axis([1e16 + 2, 0.0, 0.0])


# ----------------------------------------------------------------------------------------
# EIO fixtures: compare_expect


def test_compare_expect_lists_every_difference_in_expect_order(seed):
    inp = load(EIO / "inputs" / "governed.yaml")
    res = evaluate_input(seed, inp)
    expect = {
        GR: {"score": 1.0},
        TS: "NOT_APPLICABLE",
        IC: "FINDINGS",
        "eio.context.nope": "FINDINGS",
        RC: "SCORED",
        "q_axis": 7.4,
    }
    assert compare_expect(res, expect) == [
        (("expect", GR, "score"), f"`{GR}` is SCORED 0.8333333333333334, expected score 1.0"),
        (("expect", TS), f"`{TS}` is SCORED 0.8, expected NOT_APPLICABLE"),
        (("expect", "eio.context.nope"), "module has no criterion `eio.context.nope`"),
        (
            ("expect", RC),
            f"expectation 'SCORED' for `{RC}` is not {{score: x}}, NOT_APPLICABLE or FINDINGS",
        ),
        (("expect", "q_axis"), "Q axis is 7.3667, expected 7.4"),
    ]


def test_compare_expect_scores_compare_exactly_as_floats(seed):
    res = evaluate_input(seed, load(EIO / "inputs" / "governed.yaml"))
    assert compare_expect(res, {GR: {"score": 0.8333}}) != []
    assert compare_expect(res, {GR: {"score": 0.8333333333333334}}) == []
    assert compare_expect(res, {RC: {"score": 0.7}, "q_axis": 7.3667}) == []


def test_compare_expect_on_an_error_result():
    assert compare_expect({"error": "boom"}, {"x": "FINDINGS"}) == [
        (("expect",), "the input cannot be evaluated: boom")
    ]


# ----------------------------------------------------------------------------------------
# the blank-artifact probe


def test_blank_probe_seed_scores_zero_everywhere(seed):
    # the seed's own concepts: guardrail coverage evaluates system-prompt and policy,
    # injection hardening system-prompt (none of them has descendants)
    assert blank_probe(seed, {}) == [
        (1, "eio.artifact.system-prompt", 0.0),
        (1, "eio.artifact.policy", 0.0),
        (5, "eio.artifact.system-prompt", 0.0),
    ]


def test_blank_probe_finds_a_blank_term_through_descendant_kinds():
    mod = {
        "eio": {"id": "m"},
        "concepts": MINI["concepts"],
        "context_criteria": [
            {
                "id": "x",
                "scoring": "checklist",
                "evaluates": ["eio.artifact.policy"],
                "controls": [
                    {"id": "a", "requires_any": ["refuse"]},
                    {"id": "b", "requires_any": [" "]},
                ],
            }
        ],
    }
    # " " occurs in the blank texts " ", " \n\t \n", ...: 1 of 2 controls
    assert blank_probe(mod) == [
        (0, "eio.artifact.policy", 1 / 2),
        (0, "eio.artifact.policy.credit", 1 / 2),
    ]
    # concepts of imported modules take part in descent
    assert blank_probe(mod, {"eio.artifact.policy.extra": "eio.artifact.policy"})[2] == (
        0,
        "eio.artifact.policy.extra",
        1 / 2,
    )


def test_blank_texts_are_blank():
    assert all(t == "" or t.isspace() for t in evaluator.BLANK_TEXTS)
