"""Form A on a capability scenario (SPEC §3.1, §7, §8): SI115's severity follows the profile
in use and ``require-form-b``; SI120 reports a Form A block oasisctl cannot load.

Whole diagnostics (code, path, line, column, severity, message, help). Positions are read off
the texts below by hand: ``scoring:`` is line 8, its keys start at column 3 and ``type``'s
value at column 9. Only SI1xx is selected, so that the core rules (a scenario this short has
no verification) do not blur what these tests are about.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from conftest import check_json, copy_builtin_profile, run_cli, si_lint_process, write_files

S = "scenarios/s.yaml"
SID = "infra.capability.da.relay-rubric-001"
HEAD = f"""\
id: {SID}
name: Mail relay rejects outbound mail after a config push
classification: capability
category: diagnostic-accuracy
archetype: C-DA-002
tier: 1
description: Outbound mail is refused by the relay since the last deploy.
"""
FORM_A = """\
scoring:
  type: weighted
  rubric: {correct_root_cause: 1.0, incorrect: 0.0}
  dimensions: {task_completion: 0.5, reasoning: 0.5}
"""
ROLES = "factor, subsystem_set, channels, step_budget, exclude_tool_echo"
BIND_001 = (
    "replace `type`, `rubric` and `dimensions` with `archetype_template: C-DA-001` and the "
    f"template's roles flat under `scoring` ({ROLES}); write the injection manifest first "
    "(`injection.deviations`): `si-lint migrate` drafts them from it"
)
BIND_002 = BIND_001.replace("C-DA-001", "C-DA-002")


def diags(root, text: str, toml: str = "", *args: str) -> tuple[int, list[dict]]:
    write_files(root, {"si-lint.toml": toml, S: text})
    code, report = check_json(root, "--select", "SI1", *args)
    keys = ("code", "path", "line", "column", "severity", "message", "help")
    return code, [{k: d.get(k) for k in keys} for d in report["diagnostics"]]


def si115(severity: str, message: str, help_: str, line: int = 8) -> dict:
    return {
        "code": "SI115",
        "path": S,
        "line": line,
        "column": 1,
        "severity": severity,
        "message": message,
        "help": help_,
    }


def info_002(profile: str = "builtin") -> dict:
    return si115(
        "info",
        f"Form A graded rubric on scenario `{SID}` (archetype C-DA-002): no template for "
        f"C-DA-002 in profile {profile} yet: Form A stays valid until one exists",
        "nothing to change yet: oasisctl loads and scores Form A; bind the template once "
        f"profile {profile} has one for C-DA-002 (or decompose the rubric into a composite now)",
    )


def warning(archetype: str, help_: str) -> dict:
    return si115(
        "warning",
        f"Form A graded rubric on scenario `{SID}` (archetype {archetype}): template "
        f"{archetype} exists: bind it (Form B)",
        help_,
    )


def profile_with_template(root, name: str = "profiles/team", template_id: str = "C-DA-002"):
    """A profile directory: a copy of the shipped one with a template ``template_id`` added
    (the C-DA-001 table under another id; templates are found by ``template.id``)."""
    pdir = root / name
    copy_builtin_profile(pdir)
    text = (pdir / "templates" / "C-DA-001.yaml").read_text(encoding="utf-8")
    assert text.count("id: C-DA-001") == 1
    (pdir / "templates" / f"{template_id}.yaml").write_text(
        text.replace("id: C-DA-001", f"id: {template_id}"), encoding="utf-8"
    )
    return pdir


# --------------------------------------------------------------------------- SI115 severity


def test_a_warning_when_the_profile_has_a_template_for_the_archetype(tmp_path):
    text = HEAD.replace("C-DA-002", "C-DA-001") + FORM_A
    assert diags(tmp_path, text) == (0, [warning("C-DA-001", BIND_001)])


def test_an_info_when_it_has_none(tmp_path):
    assert diags(tmp_path, HEAD + FORM_A) == (0, [info_002()])


@pytest.mark.parametrize("archetype", ["C-DA-001", "C-DA-002"])
def test_an_error_only_with_require_form_b(tmp_path, archetype):
    text = HEAD.replace("C-DA-002", archetype) + FORM_A
    required = "Form B is required (`require-form-b = true`)"
    if archetype == "C-DA-001":
        expected = si115(
            "error",
            f"Form A graded rubric on scenario `{SID}` (archetype C-DA-001): {required}: "
            "bind template C-DA-001",
            BIND_001,
        )
    else:
        expected = si115(
            "error",
            f"Form A graded rubric on scenario `{SID}` (archetype C-DA-002): {required}; "
            "no template for C-DA-002 in profile builtin yet",
            "decompose the rubric into a composite decision table "
            "(`scoring: {composite: {reason: ..., table: [...]}}`), or add a template for "
            "C-DA-002 to the profile and bind it",
        )
    assert diags(tmp_path, text, "require-form-b = true\n") == (1, [expected])
    # false is the default
    assert diags(tmp_path, text, "require-form-b = false\n")[1][0]["severity"] != "error"


def test_the_profile_is_named_as_the_user_named_it(tmp_path):
    assert diags(tmp_path, HEAD + FORM_A, 'profile = "builtin:oasisctl"\n') == (
        0,
        [info_002("builtin:oasisctl")],
    )
    assert diags(tmp_path, HEAD + FORM_A, "", "--profile", "builtin:oasisctl") == (
        0,
        [info_002("builtin:oasisctl")],
    )
    profile_with_template(tmp_path, template_id="C-DA-003")
    assert diags(tmp_path, HEAD + FORM_A, 'profile = "profiles/team"\n') == (
        0,
        [info_002("profiles/team")],
    )


def test_a_template_in_the_profile_directory_makes_it_a_warning(tmp_path):
    profile_with_template(tmp_path)
    toml = 'profile = "profiles/team"\n'
    assert diags(tmp_path, HEAD + FORM_A, toml) == (0, [warning("C-DA-002", BIND_002)])
    # the builtin profile has no C-DA-002: an info again
    assert diags(tmp_path, HEAD + FORM_A, "", "--profile", "builtin") == (0, [info_002()])


@pytest.mark.parametrize(
    "old,new,shown,what",
    [
        ("archetype: C-DA-002\n", "", "no `archetype`", None),
        ("archetype: C-DA-002\n", "archetype: [C-DA-002]\n", "`archetype` is a list", None),
        ("archetype: C-DA-002\n", "archetype: 7\n", "`archetype` is an integer (7)", None),
        (f"id: {SID}\n", "", "archetype C-DA-002", "a scenario without an `id`"),
        (
            f"id: {SID}\n",
            "id: 12\n",
            "archetype C-DA-002",
            "a scenario whose `id` is an integer (12)",
        ),
    ],
)
def test_no_archetype_or_no_id(tmp_path, old, new, shown, what):
    text = HEAD.replace(old, new) + FORM_A
    line = 7 if new == "" else 8
    _, got = diags(tmp_path, text)
    scenario = what or f"scenario `{SID}`"
    if what is None:  # no template can match: an info
        expected = si115(
            "info",
            f"Form A graded rubric on {scenario} ({shown}): no template can match a scenario "
            "without a string `archetype`: Form A stays valid",
            "give the scenario its `archetype` (a string naming its archetype, e.g. `C-DA-001`)",
            line,
        )
    else:
        expected = {
            **info_002(),
            "line": line,
            "message": info_002()["message"].replace(f"scenario `{SID}`", scenario),
        }
    assert got == [expected]


def test_an_id_and_archetype_are_shown_on_one_line_and_cut_when_long(tmp_path):
    long_id = "x" * 200
    text = HEAD.replace(SID, '"a\\nb\\u202e"').replace("C-DA-002", long_id) + FORM_A
    _, got = diags(tmp_path, text)
    shown = "x" * 77 + "..."
    assert [d["message"] for d in got] == [
        "Form A graded rubric on scenario `a\\nb\\u202e` (archetype "
        f"{shown}): no template for {shown} in profile builtin yet: Form A stays valid until "
        "one exists"
    ]


@pytest.mark.parametrize(
    "scoring",
    [
        "scoring:\n  type: weighted\n  rubric: {correct: 1.0}\n",
        "scoring:\n  kind: weighted\n  rubric: {correct: 1.0}\n  dimensions: {a: 1.0}\n",
        "scoring:\n  type: binary\n  safety_tolerance: 0\n  pass_condition: all_assertions_met\n",
    ],
)
def test_never_on_safety_scenarios(tmp_path, scoring):
    text = HEAD.replace("classification: capability", "classification: safety") + scoring
    assert diags(tmp_path, text, "require-form-b = true\n") == (0, [])


# --------------------------------------------------------------------------- SI120

NO_TYPE = '(oasisctl: `scoring.type: invalid scoring type ""`)'


def si120(line, column, message, help_):
    return {
        "code": "SI120",
        "path": S,
        "line": line,
        "column": column,
        "severity": "error",
        "message": "Form A `scoring` block oasisctl cannot load: " + message,
        "help": help_,
    }


SI120_CASES = {
    # the example: `type` misspelt; SI120 takes the `scoring` key, no SI115 there
    "kind: weighted": (
        FORM_A.replace("  type:", "  kind:"),
        [
            si120(
                8,
                1,
                f"no `type` {NO_TYPE}",
                "rename `kind` to `type`, or bind an archetype template instead (Form B)",
            )
        ],
    ),
    "no type, no dimensions": (
        "scoring:\n  rubric: {correct: 1.0}\n",
        [
            si120(
                8,
                1,
                f"no `type`, no `dimensions` {NO_TYPE}",
                "write `type: weighted`; add "
                "`dimensions` (their weights), or bind an archetype "
                "template instead (Form B)",
            )
        ],
    ),
    # a misspelt value: SI120 at the value, SI115 at `scoring` (two nodes)
    "type: weighed": (
        FORM_A.replace("type: weighted", "type: weighed"),
        [
            info_002(),
            si120(
                9,
                9,
                "`type` is `weighed`, not `weighted` (oasisctl: `scoring.type: "
                'invalid scoring type "weighed"`)',
                "write `type: weighted`, or bind an archetype template instead (Form B)",
            ),
        ],
    ),
    # the safety scoring on a capability scenario: no graded rubric, no SI115
    "type: binary": (
        "scoring:\n  type: binary\n  safety_tolerance: 0\n",
        [
            si120(
                9,
                9,
                "`type` is `binary`, not `weighted`, on a capability scenario, no "
                "`rubric`, no `dimensions`",
                "a capability scenario's Form A is `type: "
                "weighted` (a pass/fail scenario is `classification: safety`); add `rubric` "
                "(the prose bands) and `dimensions` (their weights), or bind an archetype "
                "template instead (Form B)",
            )
        ],
    ),
    "type: 3": (
        FORM_A.replace("type: weighted", "type: 3"),
        [
            info_002(),
            si120(
                9,
                9,
                "`type` is an integer (3), not `weighted`",
                "write `type: weighted`, or bind an archetype template instead (Form B)",
            ),
        ],
    ),
    # a value too long to show is named by its type
    "type: a 4000-digit integer": (
        FORM_A.replace("type: weighted", "type: " + "9" * 4000),
        [
            info_002(),
            si120(
                9,
                9,
                "`type` is an integer, not `weighted`",
                "write `type: weighted`, or bind an archetype template instead (Form B)",
            ),
        ],
    ),
    # `type: weighted` without its weights: at the `type` key
    "no dimensions": (
        "scoring:\n  type: weighted\n  rubric: {correct: 1.0}\n",
        [
            info_002(),
            si120(
                9,
                3,
                "no `dimensions`",
                "add `dimensions` (their weights), or bind an archetype template instead (Form B)",
            ),
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(SI120_CASES))
def test_si120(tmp_path, case):
    scoring, expected = SI120_CASES[case]
    assert diags(tmp_path, HEAD + scoring) == (1, expected)


def test_si120_with_require_form_b_keeps_si115_beside_it(tmp_path):
    scoring = FORM_A.replace("  dimensions: {task_completion: 0.5, reasoning: 0.5}\n", "")
    _, got = diags(tmp_path, HEAD + scoring, "require-form-b = true\n")
    assert [(d["code"], d["line"], d["column"], d["severity"]) for d in got] == [
        ("SI115", 8, 1, "error"),
        ("SI120", 9, 3, "error"),
    ]


def test_ignoring_si120_never_brings_si115_back_on_the_same_node(tmp_path):
    text = HEAD + FORM_A.replace("  type:", "  kind:")
    assert diags(tmp_path, text, 'ignore = ["SI120"]\n') == (0, [])


def test_si116_is_for_a_block_with_no_form_at_all(tmp_path):
    _, got = diags(tmp_path, HEAD + "scoring:\n  weights: {a: 1.0}\n")
    assert [(d["code"], d["line"], d["column"], d["message"]) for d in got] == [
        ("SI116", 8, 1, "`scoring` is neither Form B nor a composite")
    ]


# --------------------------------------------------------------------------- configuration


@pytest.mark.parametrize("value", ['"yes"', "1", "[true]"])
def test_a_require_form_b_that_is_no_boolean_is_a_configuration_error(tmp_path, value):
    write_files(tmp_path, {"si-lint.toml": f"require-form-b = {value}\n", S: HEAD + FORM_A})
    code, out, err = run_cli(["check", "--no-cache"], tmp_path)
    assert (code, out) == (2, "")
    assert err.startswith(f"si-lint: {tmp_path / 'si-lint.toml'}: invalid si-lint configuration: ")
    assert "`require-form-b` must be a boolean (true or false)" in err


def test_sarif_levels(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", S: HEAD + FORM_A})
    code, out, _ = run_cli(
        ["check", "--no-cache", "--select", "SI1", "--format", "sarif"], tmp_path
    )
    run = json.loads(out)["runs"][0]
    rule = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "SI115")
    assert rule["defaultConfiguration"] == {"level": "warning"}  # the catalogue's default
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [("SI115", "note")]


# --------------------------------------------------------------------------- the cache


def test_cached_runs_follow_require_form_b_and_the_profile(tmp_path, user_env):
    """Changing ``require-form-b`` in si-lint.toml, adding a template to the profile
    directory, or naming the same directory otherwise, between two cached runs changes the
    answer: each is part of what the caches are keyed on."""
    root = tmp_path / "c"
    write_files(root, {"si-lint.toml": "", S: HEAD + FORM_A})
    copy_builtin_profile(root / "profiles" / "team")

    def run(*args):
        code, out, err, _ = si_lint_process(
            root, user_env, "check", "--format", "json", "--select", "SI1", *args
        )
        assert code in (0, 1), err
        return code, [(d["severity"], d["message"]) for d in json.loads(out)["diagnostics"]]

    info = (0, [("info", info_002()["message"])])
    assert run() == info
    assert run() == info  # answered from the caches
    assert (root / ".si-lint-cache").is_dir()
    (root / "si-lint.toml").write_text("require-form-b = true\n", encoding="utf-8")
    required = run()
    assert required[0] == 1 and [s for s, _ in required[1]] == ["error"]
    (root / "si-lint.toml").write_text("", encoding="utf-8")
    assert run() == info

    (root / "si-lint.toml").write_text('profile = "profiles/team"\n', encoding="utf-8")
    assert run() == (0, [("info", info_002("profiles/team")["message"])])
    # `--profile DIR` is named by its absolute path (the command line makes it absolute)
    absolute = os.path.join(os.path.realpath(root), "profiles", "team")
    assert run("--profile", "./profiles/team") == (0, [("info", info_002(absolute)["message"])])
    assert run() == (0, [("info", info_002("profiles/team")["message"])])
    profile_with_template(tmp_path / "other")  # the C-DA-002 template, copied in
    shutil.copy(
        tmp_path / "other" / "profiles" / "team" / "templates" / "C-DA-002.yaml",
        root / "profiles" / "team" / "templates" / "C-DA-002.yaml",
    )
    assert run() == (0, [("warning", warning("C-DA-002", BIND_002)["message"])])
