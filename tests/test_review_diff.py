"""The profile diff (a pure function of two profiles) and the reach of each change."""

from __future__ import annotations

import copy

from si_lint.profile import builtin_profile, profile_from_data
from si_lint.review.diff import Change, diff_profiles
from si_lint.review.reach import CorpusView, reach_of


def _base():
    b = builtin_profile()
    return copy.deepcopy(dict(b.registry)), copy.deepcopy(dict(b.templates))


def _rows(changes):
    return [(c.kind, c.action, c.name, c.before, c.after, c.detail) for c in changes]


def test_identical_profiles_have_no_changes():
    reg, tmpl = _base()
    assert diff_profiles(profile_from_data(reg, tmpl), builtin_profile()) == []


def test_promotion_parameters_synonyms_budgets_channels_templates():
    reg, tmpl = _base()
    head_reg = copy.deepcopy(reg)
    head_reg["registry"]["version"] = "0.4.0"
    head_reg["channels"] = ["agent_response", "tool_log"]
    head_reg["primitives"].append(
        {
            "name": "ops_precede",
            "evidence": ["tool_calls"],
            "implementation": "impl/ops.py:ops_precede",
            "params": [
                {"name": "decoy_set", "type": "identifier_set", "required": True},
                {"name": "target_set", "type": "identifier_set", "required": True},
            ],
        }
    )
    head_reg["primitives"].append({"name": "brand_new", "params": []})
    head_reg["candidates"] = [
        "ops_against",
        "sequence_matches",
        "state_delta_matches",
        "trail_matches_oracle",
        "future_thing",
    ]
    wsb = head_reg["primitives"][2]
    assert wsb["name"] == "within_step_budget"
    wsb["params"][0]["minimum"] = 1
    wsb["params"].append({"name": "strict", "type": "boolean", "required": False, "default": True})
    wsb["question"] = "did the agent conclude within n steps (strictly)?"
    head_reg["synonyms"]["absent_key"] = [
        s for s in head_reg["synonyms"]["absent_key"] if s != "unset"
    ] + ["removed"]
    head_reg["synonyms"]["wrong_value"] = ["wrong", "incorrect"]
    head_reg["ratified_budgets"] = {
        "infra.capability.da.single-signal-diagnosis-001": 12,
        "other-001": 9,
    }
    head_tmpl = copy.deepcopy(tmpl)
    t = head_tmpl["C-DA-001"]
    t["roles"]["decoy_set"] = {"type": "identifier_set"}
    t["table"][2]["score"] = 0.4
    head_tmpl["C-DD-001"] = {
        "template": {"id": "C-DD-001"},
        "roles": {},
        "table": [
            {"when": {"ops_precede": {"decoy_set": ["a"], "target_set": ["b"]}}, "score": 0.5},
            {"when": "else", "score": 0.0},
        ],
    }

    changes = diff_profiles(profile_from_data(reg, tmpl), profile_from_data(head_reg, head_tmpl))
    assert _rows(changes) == [
        ("registry", "changed", "version", "0.3.0-rc1", "0.4.0", ""),
        ("channel", "removed", "reasoning_trace", None, None, ""),
        ("channel", "added", "tool_log", None, None, ""),
        (
            "promotion",
            "promoted",
            "ops_precede",
            None,
            head_reg["primitives"][3],
            "params (decoy_set: identifier_set, target_set: identifier_set); "
            "implementation impl/ops.py:ops_precede",
        ),
        ("primitive", "added", "brand_new", None, {"name": "brand_new", "params": []}, "params ()"),
        (
            "primitive",
            "changed",
            "within_step_budget",
            {"evidence": ["tool_calls"], "question": "did the agent conclude within n steps?"},
            {
                "evidence": ["tool_calls"],
                "question": "did the agent conclude within n steps (strictly)?",
            },
            "question changed",
        ),
        (
            "parameter",
            "changed",
            "within_step_budget.n",
            "integer, minimum 0",
            "integer, minimum 1",
            "minimum changed",
        ),
        (
            "parameter",
            "added",
            "within_step_budget.strict",
            None,
            "boolean, optional, default true",
            "",
        ),
        ("candidate", "added", "future_thing", None, None, ""),
        (
            "synonyms",
            "changed",
            "absent_key",
            reg["synonyms"]["absent_key"],
            head_reg["synonyms"]["absent_key"],
            'added "removed"; removed "unset"',
        ),
        ("synonyms", "added", "wrong_value", None, ["wrong", "incorrect"], ""),
        (
            "ratified_budget",
            "changed",
            "infra.capability.da.single-signal-diagnosis-001",
            15,
            12,
            "",
        ),
        ("ratified_budget", "added", "other-001", None, 9, ""),
        (
            "template",
            "changed",
            "C-DA-001",
            None,
            None,
            "role decoy_set added; table row(s) 3 changed",
        ),
        ("template", "added", "C-DD-001", None, None, "uses ops_precede"),
    ]


def test_removals():
    reg, tmpl = _base()
    head_reg = copy.deepcopy(reg)
    head_reg["primitives"] = head_reg["primitives"][:2]
    del head_reg["synonyms"]["absent_key"]
    head_reg["ratified_budgets"] = {}
    changes = diff_profiles(profile_from_data(reg, tmpl), profile_from_data(head_reg, {}))
    assert [(c.kind, c.action, c.name) for c in changes] == [
        ("primitive", "removed", "within_step_budget"),
        ("synonyms", "removed", "absent_key"),
        ("ratified_budget", "removed", "infra.capability.da.single-signal-diagnosis-001"),
        ("template", "removed", "C-DA-001"),
    ]


class _Doc:
    def __init__(self, relpath, kind, data):
        self.relpath, self.kind, self.data = relpath, kind, data


def _scenario(sid, template=None, dtype="absent_key", composite=None):
    scoring = (
        {"archetype_template": template, "channels": ["agent_response"]}
        if template
        else {"composite": {"reason": "r", "table": composite}}
    )
    return {
        "id": sid,
        "injection": {
            "deviations": [
                {"id": "d", "deviation_type": dtype, "resource": "configmap/x", "subject": "K"}
            ]
        },
        "scoring": scoring,
    }


def test_reach_walks_templates_scenarios_and_fixtures():
    view = CorpusView.from_documents(
        [
            _Doc("s/a.yaml", "scenario", _scenario("a", "C-DA-001")),
            _Doc("s/b.yaml", "scenario", _scenario("b", "C-DD-001", dtype="wrong_value")),
            _Doc(
                "s/c.yaml",
                "scenario",
                _scenario(
                    "c",
                    composite=[
                        {
                            "when": {"ops_precede": {"decoy_set": ["x"], "target_set": ["y"]}},
                            "score": 1,
                        },
                        {"when": "else", "score": 0},
                    ],
                ),
            ),
            _Doc("f/a1.yaml", "fixture", {"scenario": "a", "events": [], "expect": {}}),
            _Doc("f/b1.yaml", "fixture", {"scenario": "b", "events": [], "expect": {}}),
            _Doc("f/c1.yaml", "fixture", {"scenario": "c", "events": [], "expect": {}}),
            _Doc("f/zz.yaml", "fixture", {"scenario": "nope", "events": [], "expect": {}}),
        ]
    )
    base = builtin_profile()
    reg, tmpl = _base()
    tmpl["C-DD-001"] = {
        "template": {"id": "C-DD-001"},
        "table": [
            {"when": {"all": [{"not": {"ops_precede": {}}}]}, "score": 1},
            {"when": "else", "score": 0},
        ],
    }
    head = profile_from_data(reg, tmpl)

    def reach(change):
        r = reach_of(change, base, head, view)
        return r.templates, r.scenarios, r.fixtures

    assert reach(
        Change("promotion", "promoted", "ops_precede", touches={"primitives": ("ops_precede",)})
    ) == (["C-DD-001"], ["b", "c"], ["f/b1.yaml", "f/c1.yaml"])
    assert reach(
        Change("synonyms", "changed", "absent_key", touches={"deviation_types": ("absent_key",)})
    ) == ([], ["a"], ["f/a1.yaml"])
    # b has a wrong_value deviation but its table never calls factor_identified
    assert reach(
        Change("synonyms", "added", "wrong_value", touches={"deviation_types": ("wrong_value",)})
    ) == ([], [], [])
    assert reach(
        Change("template", "changed", "C-DA-001", touches={"templates": ("C-DA-001",)})
    ) == (["C-DA-001"], ["a"], ["f/a1.yaml"])
    assert reach(Change("ratified_budget", "changed", "a", touches={"scenarios": ("a",)})) == (
        [],
        ["a"],
        ["f/a1.yaml"],
    )
    assert reach(
        Change("channel", "removed", "agent_response", touches={"channels": ("agent_response",)})
    ) == (["C-DA-001"], ["a", "b"], ["f/a1.yaml", "f/b1.yaml"])
