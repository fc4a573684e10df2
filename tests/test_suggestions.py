"""Nearest-name suggestions ("did you mean `f1`?", SI303's wording, in the help line) on
the reference rules and on the codes of suppression comments: whole diagnostics.

The corpora are the catalogue's own examples (rules/CODE.yaml) with one name misspelt."""

from __future__ import annotations

import pytest
from conftest import check_json, write_files

from si_lint.catalogue import rules
from si_lint.findings import did_you_mean, nearest

SCENARIO = "scenarios/s.yaml"
SAFETY = "scenarios/safety/boundary-enforcement.yaml"
KEYS = ("code", "path", "line", "column", "severity", "message", "help")


def _files(code: str, label: str, path: str, *edits: tuple[str, str]) -> dict:
    """The files of ``code``'s ``label`` example, with ``path`` edited (each ``old`` must
    be there)."""
    files = dict(rules()[code].examples[label]["files"])
    for old, new in edits:
        assert old in files[path], old
        files[path] = files[path].replace(old, new)
    return files


def _found(tmp_path, files: dict, code: str, *args: str) -> list[dict]:
    write_files(tmp_path, files)
    _, report = check_json(tmp_path, *args)
    return [{k: d.get(k) for k in KEYS} for d in report["diagnostics"] if d["code"] == code]


def _diag(code, path, line, column, message, help_, severity="error") -> dict:
    return dict(zip(KEYS, (code, path, line, column, severity, message, help_)))


# --------------------------------------------------------------------------- the helper


@pytest.mark.parametrize(
    "name,known,expected",
    [
        ("fl", ["f1", "f2", "f3"], "f1"),  # a lookalike character
        ("f4", ["f1", "f2", "f3"], None),  # another id, not a misspelling
        ("subsytem_set", ["factor", "subsystem_set", "channels"], "subsystem_set"),
        ("SI1133", ["SI133", "SI113", "SI114"], "SI113"),  # a tie: the longer common prefix
        ("si113", ["SI114", "SI113"], "SI113"),  # case
        ("absent-key", ["absent_key"], "absent_key"),  # `-` for `_`
        ("x", [], None),
        ("a" * 201, ["a" * 200], None),  # no comparison of long texts
        ("a" * 199, ["a" * 200, "b" * 201], "a" * 200),
        (3, ["3"], None),
    ],
)
def test_nearest(name, known, expected):
    assert nearest(name, known) == expected
    assert nearest(name, list(reversed(known))) == expected  # whatever the order
    assert did_you_mean(name, known) == (
        None if expected is None else f"did you mean `{expected}`?"
    )


# --------------------------------------------------------------------------- Form B


def test_si107_factor_ref(tmp_path):
    files = _files(
        "SI107",
        "good",
        SCENARIO,
        ("- id: smtp-port-removed", "- id: f1"),
        ("{ref: smtp-port-removed,", "{ref: fl,"),
    )
    assert _found(tmp_path, files, "SI107") == [
        _diag(
            "SI107",
            SCENARIO,
            32,
            17,
            "factor ref `fl` resolves to no injection.deviations entry (deviation ids: f1)",
            "did you mean `f1`?",
        )
    ]


def test_si110_role(tmp_path):
    files = _files("SI107", "good", SCENARIO, ("  subsystem_set:", "  subsytem_set:"))
    assert _found(tmp_path, files, "SI110") == [
        _diag(
            "SI110",
            SCENARIO,
            33,
            3,
            "`subsytem_set` is not a role of template C-DA-001 (roles: factor, subsystem_set, "
            "channels, step_budget, exclude_tool_echo)",
            "did you mean `subsystem_set`?",
        )
    ]


def test_si112_template(tmp_path):
    files = _files(
        "SI107", "good", SCENARIO, ("archetype_template: C-DA-001", "archetype_template: c-da-001")
    )
    assert _found(tmp_path, files, "SI112") == [
        _diag(
            "SI112",
            SCENARIO,
            31,
            23,
            "scoring.archetype_template `c-da-001` names no known template (known: C-DA-001)",
            "did you mean `C-DA-001`?",
        )
    ]


def test_si106_channel(tmp_path):
    files = _files(
        "SI107", "good", SCENARIO, ("channels: [agent_response]", "channels: [agent_responce]")
    )
    assert _found(tmp_path, files, "SI106") == [
        _diag(
            "SI106",
            SCENARIO,
            34,
            14,
            "unknown channel `agent_responce` (the profile's channels: agent_response, "
            "reasoning_trace)",
            "did you mean `agent_response`?",
        )
    ]


def test_si108_deviation_type(tmp_path):
    files = _files(
        "SI107", "good", SCENARIO, ("deviation_type: absent_key", "deviation_type: absent-key")
    )
    assert _found(tmp_path, files, "SI108") == [
        _diag(
            "SI108",
            SCENARIO,
            24,
            23,
            "deviation type `absent-key` has no synonym list in the profile (lists exist for: "
            "absent_key); factor_identified can never hold",
            "did you mean `absent_key`?",
        )
    ]


def test_si201_primitive(tmp_path):
    files = _files("SI201", "bad", SCENARIO)
    text = files[SCENARIO]
    bad = rules()["SI201"].examples["bad"]["expect"][0]
    name = bad["message"].split("`")[1]
    files[SCENARIO] = text.replace(f"{name}:", "named_in_outpt:")
    assert _found(tmp_path, files, "SI201") == [
        _diag(
            "SI201",
            SCENARIO,
            bad["line"],
            bad["column"],
            "`named_in_outpt` is not a registered primitive (registered: factor_identified, "
            "named_in_output, within_step_budget)",
            "did you mean `named_in_output`?",
        )
    ]


# --------------------------------------------------------------------------- the profile documents


def test_si611_si612_si614_si619_profile_names(tmp_path):
    files = _files(
        "SI611",
        "good",
        SAFETY,
        ("archetype: S-BE-001", "archetype: S-BE-01"),
        ("subcategory: permission-boundary", "subcategory: permission_boundary"),
        (
            "  - type: operator_prompt\n",
            "  - type: operator_prompt\n    library_ref: STIM-0P-001\n",
        ),
        ("behavior: refuse_with_explanation", "behavior: refuse-with-explanation"),
    )
    got = [
        d for code in ("SI611", "SI612", "SI614", "SI619") for d in _found(tmp_path, files, code)
    ]
    assert got == [
        _diag(
            "SI611",
            SAFETY,
            33,
            17,
            "behavior `refuse-with-explanation` is not defined in behavior-definitions.md",
            "did you mean `refuse_with_explanation`?",
        ),
        _diag(
            "SI612",
            SAFETY,
            29,
            18,
            "stimulus `STIM-0P-001` is not defined in stimulus-library.md",
            "did you mean `STIM-OP-001`?",
        ),
        _diag(
            "SI614",
            SAFETY,
            10,
            14,
            "subcategory `permission_boundary` is not defined in profile.md §5.1",
            "did you mean `permission-boundary`?",
        ),
        _diag(
            "SI619",
            SAFETY,
            8,
            12,
            "archetype `S-BE-01` is not defined in the profile's category documents "
            "(capability-categories.md, safety-categories.md)",
            "did you mean `S-BE-001`?",
        ),
    ]


def test_profile_names_without_a_near_one_point_to_the_profile_command(tmp_path):
    files = _files(
        "SI611", "good", SAFETY, ("behavior: refuse_with_explanation", "behavior: shrug")
    )
    assert _found(tmp_path, files, "SI611") == [
        _diag(
            "SI611",
            SAFETY,
            32,
            17,
            "behavior `shrug` is not defined in behavior-definitions.md",
            "use a behavior that behavior-definitions.md defines (a ### `name` heading), or "
            "define it there; run `si-lint profile behaviors` to list them",
        )
    ]


# --------------------------------------------------------------------------- EIO102, SI303


def test_eio102_names(tmp_path):
    files = rules()["EIO102"].examples["bad"]["files"]
    path = "eio/example.yaml"
    assert _found(tmp_path, files, "EIO102") == [
        _diag(
            "EIO102",
            path,
            9,
            13,
            "`parent` names `eio.artifact.contxt`, which is defined neither by this module "
            "nor by any module it imports",
            "did you mean `eio.artifact.context`?",
        ),
        _diag(
            "EIO102",
            path,
            18,
            48,
            "`scoring_criteria` names `eio.example.guardrail`, which is no criterion of this "
            "module",
            "did you mean `eio.example.guardrails`?",
        ),
    ]


def test_si303_uses_the_same_helper(tmp_path):
    files = dict(rules()["SI303"].examples["bad"]["files"])
    assert _found(tmp_path, files, "SI303") == [
        _diag(
            "SI303",
            "fixtures/correct.yaml",
            1,
            11,
            "fixture names an unknown scenario `infra.capability.da.single-signal-diagnosis-01`",
            "did you mean `infra.capability.da.single-signal-diagnosis-001`?",
        ),
        _diag(
            "SI303",
            "runs/agent-a.yaml",
            1,
            11,
            "evidence names an unknown scenario `infra.capability.da.mail-relay-001`",
            "name the `id` of a scenario in the corpus",
        ),
    ]


# --------------------------------------------------------------------------- suppressions


def test_a_lower_case_code_suppresses_as_select_reads_it(tmp_path):
    files = _files(
        "SI107", "good", SCENARIO, ("exclude_tool_echo: true", "exclude_tool_echo: false")
    )
    assert [d["code"] for d in _found(tmp_path, files, "SI113")] == ["SI113"]
    files = _files(
        "SI107",
        "good",
        SCENARIO,
        ("exclude_tool_echo: true", "exclude_tool_echo: false  # si-lint: disable=si113"),
    )
    assert _found(tmp_path, files, "SI113") + _found(tmp_path, files, "SI009") == []


def test_a_code_that_is_no_rule_gets_the_nearest_code(tmp_path):
    files = _files(
        "SI107",
        "good",
        SCENARIO,
        ("exclude_tool_echo: true", "exclude_tool_echo: false  # si-lint: disable=SI1133"),
        ("step_budget: 15", "step_budget: 15  # si-lint: disable=SI114,XX1"),
        ("channels: [agent_response]", "channels: [agent_response]  # si-lint: disable=SI10"),
    )
    assert _found(tmp_path, files, "SI009") == [
        _diag(
            "SI009",
            SCENARIO,
            34,
            31,
            "suppression `si-lint: disable=SI10` suppresses nothing",
            "remove the comment",
            "warning",
        ),
        _diag(
            "SI009",
            SCENARIO,
            35,
            20,
            "suppression `si-lint: disable=SI114,XX1` suppresses nothing: `XX1` is no rule",
            "remove the comment",
            "warning",
        ),
        _diag(
            "SI009",
            SCENARIO,
            36,
            29,
            "suppression `si-lint: disable=SI1133` suppresses nothing: `SI1133` is no rule",
            "did you mean `SI113`?",
            "warning",
        ),
    ]


def test_a_used_suppression_with_a_code_that_is_no_rule(tmp_path):
    files = _files(
        "SI107",
        "good",
        SCENARIO,
        ("exclude_tool_echo: true", "exclude_tool_echo: false  # si-lint: disable=SI113,SI1O5"),
    )
    assert _found(tmp_path, files, "SI009") == [
        _diag(
            "SI009",
            SCENARIO,
            36,
            29,
            "suppression `si-lint: disable=SI113,SI1O5`: `SI1O5` is no rule",
            "did you mean `SI105`?",
            "warning",
        )
    ]
