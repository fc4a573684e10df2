"""Dry runs inside `check`: fixtures (SI401, SI402, SI408), band coverage (SI403),
untrusted implementations (SI409) and probes (SI404–SI407).

Expected verdicts are derived by hand from SPEC §5 and the C-DA-001 table:
row 1 `not within_step_budget(15)` → 0.0, row 2 `factor_identified` → 1.0,
row 3 `named_in_output(subsystem_set)` → 0.5, row 4 `else` → 0.0.
"""

from __future__ import annotations

import shutil
import textwrap

import pytest
from conftest import REPO, check_json, write_files

SID = "infra.capability.da.single-signal-diagnosis-001"
S = "scenarios/s.yaml"


def scenario(echo="true", subsystem="[mail-relay, SMTP_PORT]", sid=SID):
    return textwrap.dedent(f"""\
        id: {sid}
        archetype: C-DA-001
        injection:
          deviations:
            - id: smtp-port-removed
              deviation_type: absent_key
              resource: configmap/mail-relay
              subject: SMTP_PORT
        scoring:
          archetype_template: C-DA-001
          factor: {{ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}}
          subsystem_set: {subsystem}
          channels: [agent_response]
          step_budget: 15
          exclude_tool_echo: {echo}
        """)


def composite(rows: str, sid=SID):
    return (
        f"id: {sid}\narchetype: C-DA-001\ninjection:\n  deviations:\n"
        "    - id: smtp-port-removed\n      deviation_type: absent_key\n"
        "      resource: configmap/mail-relay\n      subject: SMTP_PORT\n"
        "scoring:\n  composite:\n    reason: local table\n    table:\n" + rows
    )


GATE = "      - when: {not: {within_step_budget: {n: 15}}}\n        score: 0.0\n"  # row 1: line 13
FACTOR_ROW = (
    "      - when:\n          factor_identified:\n"
    "            factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}\n"
    "            channels: [agent_response]\n            exclude_tool_echo: true\n"
    "        score: 1.0\n"
)
NAMED_ROW = (
    "      - when:\n          named_in_output:\n"
    "            identifier_set: [mail-relay, SMTP_PORT]\n"
    "            channels: [agent_response]\n            exclude_tool_echo: true\n"
    "        score: 0.5\n"
)
ELSE_ROW = "      - when: else\n        score: 0.0\n"


def fixture(expect: str, text: str, final: bool = True, calls: int = 0, sid=SID) -> str:
    events = "".join(
        f"  - kind: tool_call\n    tool: t\n    response: ok {i}\n" for i in range(calls)
    )
    events += f"  - kind: agent_response\n    text: {text}\n"
    if final:
        events += "    final: true\n"
    return f"scenario: {sid}\nexpect: {expect}\nevents:\n{events}"


CORRECT = "SMTP_PORT is missing from configmap/mail-relay."
PARTIAL = "Something is wrong with the SMTP_PORT setting."
WRONG = "The DNS resolver is down."
ALL_ROWS = {
    "fixtures/1.yaml": fixture("{score: 0.0, row: 1}", CORRECT, calls=16),
    "fixtures/2.yaml": fixture("{score: 1.0, row: 2}", CORRECT),
    "fixtures/3.yaml": fixture("{score: 0.5, row: 3}", PARTIAL),
    "fixtures/4.yaml": fixture("{score: 0.0, row: 4}", WRONG),
}


def diags(tmp_path, files, *args):
    write_files(tmp_path, files)
    # the minimal scenarios here trip the core scenario rules (SI6xx, tested on their own)
    _, report = check_json(tmp_path, "--ignore", "SI6", *args)
    return report, [
        (d["code"], d["path"], d["line"], d["column"], d["severity"]) for d in report["diagnostics"]
    ]


def messages(report, code):
    return [d["message"] for d in report["diagnostics"] if d["code"] == code]


# ----------------------------------------------------------------------------- fixtures


def test_every_row_covered_and_every_fixture_right(tmp_path):
    _, got = diags(tmp_path, {S: scenario(), **ALL_ROWS})
    assert got == []


def test_the_team_corpus_is_clean_even_under_the_strict_flags(tmp_path):
    shutil.copytree(REPO / "fixtures" / "corpus", tmp_path / "corpus")
    root = tmp_path / "corpus"
    (root / "si-lint.toml").write_text(
        "require-fixtures = true\nrequire-band-coverage = true\n"
        'per-file-ignores = {"scenarios/platform-oncall.yaml" = ["SI115"]}\n'
    )
    _, report = check_json(root)
    assert report["diagnostics"] == []


def test_si401_and_si402_at_the_expect_values(tmp_path):
    files = {
        S: scenario(),
        "fixtures/a.yaml": fixture("{score: 0.5, row: 2}", CORRECT),  # score wrong
        "fixtures/b.yaml": fixture("{score: 0.5, row: 2}", PARTIAL),  # row wrong
        "fixtures/c.yaml": fixture("{score: 1.0, row: 1}", WRONG),  # both wrong
        "fixtures/d.yaml": fixture("{score: 1}", CORRECT),  # 1 == 1.0, no row
        "fixtures/e.yaml": fixture("{score: 0.0}", CORRECT, final=False),
    }
    report, got = diags(tmp_path, files, "--select", "SI401,SI402")
    # `expect: {score: 0.5, row: 2}`: the score value at column 17, the row value at 27
    assert got == [
        ("SI401", "fixtures/a.yaml", 2, 17, "error"),
        ("SI402", "fixtures/b.yaml", 2, 27, "error"),
        ("SI401", "fixtures/c.yaml", 2, 17, "error"),
        ("SI402", "fixtures/c.yaml", 2, 27, "error"),
    ]
    assert messages(report, "SI401") == [
        "fixture scores 1.0 at row 2 (factor_identified → 1.0), but `expect.score` is 0.5",
        "fixture scores 0.0 at row 4 (else → 0.0), but `expect.score` is 1.0",
    ]
    assert messages(report, "SI402") == [
        "fixture fired row 3 (named_in_output → 0.5), but `expect.row` is 2",
        "fixture fired row 4 (else → 0.0), but `expect.row` is 1",
    ]


def test_an_error_verdict_is_si401(tmp_path):
    rows = (
        "      - when: {named_in_output: {identifier_set: [SMTP_PORT], "
        "channels: [agent_response]}}\n        score: 1.0\n"
    )
    files = {S: composite(rows), "fixtures/a.yaml": fixture("{score: 0.0, row: 2}", WRONG)}
    report, got = diags(tmp_path, files, "--select", "SI401,SI402")
    assert got == [("SI401", "fixtures/a.yaml", 2, 17, "error")]
    assert messages(report, "SI401") == [
        "fixture cannot be scored (no row of the decision table holds); `expect.score` is 0.0"
    ]


def test_si408_each_problem_and_no_evaluation(tmp_path):
    bad = (
        "scenario: " + SID + "\nexpect: {score: 0.5, row: 1}\nevents:\n"
        "  - just a string\n"  # line 4: not a mapping
        "  - {kind: agent_response, text: [1, 2]}\n"  # line 5: text not a string
        "  - {text: no kind}\n"
    )  # line 6: no kind
    files = {S: scenario(), "fixtures/bad.yaml": bad}
    report, got = diags(tmp_path, files, "--select", "SI401,SI402,SI408")
    assert got == [
        ("SI408", "fixtures/bad.yaml", 4, 5, "error"),
        ("SI408", "fixtures/bad.yaml", 5, 34, "error"),
        ("SI408", "fixtures/bad.yaml", 6, 5, "error"),
    ]
    assert messages(report, "SI408") == [
        "evidence is malformed for evaluation: event is not a mapping",
        "evidence is malformed for evaluation: `text` is not a string (got list)",
        "evidence is malformed for evaluation: event has no `kind`",
    ]


def test_fixtures_of_an_unusable_scenario_are_not_evaluated(tmp_path):
    files = {
        "a.yaml": "id: a\nscoring: {template: C-NOPE}\n",
        "b.yaml": "id: b\nscoring: {type: graded, rubric: {x: 1}}\n",
        "c.yaml": composite("      - {when: {nope: {}}, score: 1.0}\n", sid="c"),
        "fa.yaml": fixture("{score: 0.3}", CORRECT, sid="a"),
        "fb.yaml": fixture("{score: 0.3}", CORRECT, sid="b"),
        "fc.yaml": fixture("{score: 0.3}", CORRECT, sid="c"),
    }
    _, got = diags(tmp_path, files, "--select", "SI4")
    assert got == []


def test_fixtures_go_to_the_first_definition_of_a_duplicate_id(tmp_path):
    files = {
        "a.yaml": scenario(),
        "b.yaml": scenario(subsystem="[mail-relay]"),
        "f.yaml": fixture("{score: 0.5, row: 3}", PARTIAL),
    }
    _, got = diags(tmp_path, files, "--select", "SI401,SI402")
    assert got == []


def test_lint_only_problems_do_not_stop_a_dry_run(tmp_path):
    # step_budget 14 is SI114 (ratified 15): the dry run still scores with 14
    files = {
        S: scenario().replace("step_budget: 15", "step_budget: 14"),
        "f.yaml": fixture("{score: 1.0, row: 2}", CORRECT, calls=15),
    }
    _, got = diags(tmp_path, files, "--select", "SI114,SI401,SI402")
    assert got == [
        ("SI401", "f.yaml", 2, 17, "error"),
        ("SI402", "f.yaml", 2, 27, "error"),
        ("SI114", S, 14, 16, "error"),
    ]


# ----------------------------------------------------------------------------- SI403


def test_si403_template_rows_at_the_scoring_key(tmp_path):
    files = {
        S: scenario(),
        "fixtures/2.yaml": ALL_ROWS["fixtures/2.yaml"],
        "fixtures/4.yaml": ALL_ROWS["fixtures/4.yaml"],
    }
    report, got = diags(tmp_path, files, "--select", "SI403")
    assert got == [("SI403", S, 9, 1, "info"), ("SI403", S, 9, 1, "info")]
    assert messages(report, "SI403") == [
        f"row 1 (not within_step_budget → 0.0) of template C-DA-001 is exercised by no "
        f"fixture of `{SID}`",
        f"row 3 (named_in_output → 0.5) of template C-DA-001 is exercised by no fixture of `{SID}`",
    ]


def test_si403_composite_rows_at_the_row_and_error_under_the_flag(tmp_path):
    files = {
        S: composite(GATE + FACTOR_ROW + NAMED_ROW + ELSE_ROW),
        "si-lint.toml": "require-band-coverage = true\n",
        "fixtures/3.yaml": ALL_ROWS["fixtures/3.yaml"],
    }
    _, got = diags(tmp_path, files, "--select", "SI403")
    # rows start on lines 13, 15, 21, 27; a row item is located at its first key (col 9)
    assert got == [
        ("SI403", S, 13, 9, "error"),
        ("SI403", S, 15, 9, "error"),
        ("SI403", S, 27, 9, "error"),
    ]


def test_si403_wrong_or_malformed_fixtures_do_not_cover(tmp_path):
    files = {
        S: scenario(),
        **ALL_ROWS,
        "fixtures/3.yaml": "scenario: " + SID + "\nexpect: {score: 0.5}\nevents: [1]\n",
    }
    _, got = diags(tmp_path, files, "--select", "SI403")
    assert got == [("SI403", S, 9, 1, "info")]


def test_si403_without_fixtures_only_under_the_flag(tmp_path):
    _, got = diags(tmp_path, {S: scenario()}, "--select", "SI306,SI403")
    assert got == [("SI306", S, 1, 5, "info")]
    (tmp_path / "si-lint.toml").write_text("require-band-coverage = true\n")
    _, got = diags(tmp_path, {}, "--select", "SI306,SI403")
    assert got == [("SI306", S, 1, 5, "info")] + [("SI403", S, 9, 1, "error")] * 4


# ----------------------------------------------------------------------------- probes


def test_probes_pass_on_the_c_da_001_binding(tmp_path):
    _, got = diags(tmp_path, {S: scenario()}, "--select", "SI404,SI405,SI406,SI407")
    assert got == []


def test_si404_echo_not_excluded(tmp_path):
    report, got = diags(tmp_path, {S: scenario(echo="false")}, "--select", "SI404")
    assert got == [("SI404", S, 9, 1, "error")]
    assert messages(report, "SI404") == [
        "probe: an answer that only repeats verbatim lines of a tool response (the factor "
        "identifiers with a synonym) must not reach a positive band, but it scores 1.0 (row 2)"
    ]


def test_si405_identifiers_alone_reach_the_top(tmp_path):
    rows = (
        GATE
        + (
            "      - when: {named_in_output: {identifier_set: [SMTP_PORT], "
            "channels: [agent_response], exclude_tool_echo: true}}\n        score: 1.0\n"
        )
        + ELSE_ROW
    )
    report, got = diags(tmp_path, {S: composite(rows)}, "--select", "SI404,SI405,SI406,SI407")
    assert got == [("SI405", S, 9, 1, "error")]
    assert messages(report, "SI405") == [
        "probe: an answer naming the identifiers alone, with no characterisation, must not "
        "reach the top band, but it scores 1.0 (row 2), the top band"
    ]


def test_si406_subsystem_set_without_the_key(tmp_path):
    report, got = diags(
        tmp_path, {S: scenario(subsystem="[mail-relay]")}, "--select", "SI404,SI405,SI406,SI407"
    )
    assert got == [("SI406", S, 9, 1, "warning")]
    assert messages(report, "SI406") == [
        "probe: an answer naming the factor identifiers without characterisation should "
        "reach the partial band, but it scores 0.0 (row 4), not the partial band 0.5 (row 3); "
        "`subsystem_set` does not hold SMTP_PORT"
    ]


def test_si407_no_gate_fails_both_probes(tmp_path):
    rows = FACTOR_ROW + NAMED_ROW + ELSE_ROW + GATE  # the gate is last: too late
    report, got = diags(tmp_path, {S: composite(rows)}, "--select", "SI407")
    assert got == [("SI407", S, 9, 1, "error"), ("SI407", S, 9, 1, "error")]
    assert sorted(messages(report, "SI407")) == [
        "probe: a correct, characterised answer after 16 tool calls (over the step budget) "
        "must score 0.0, but it scores 1.0 (row 1)",
        "probe: a correct, characterised answer that is never marked final (no final answer) "
        "must score 0.0, but it scores 1.0 (row 1)",
    ]


# ----------------------------------------------------------------------------- SI409


def profile_files():
    from si_lint.profile import BUILTIN_DIR

    registry = (
        (BUILTIN_DIR / "registry.yaml")
        .read_text()
        .replace(
            "candidates: [ops_against, ops_precede,",
            "  - name: ops_precede\n    evidence: [tool_calls]\n    question: q?\n"
            "    implementation: impl/ops.py:ops_precede\n    params:\n"
            "      - {name: first, type: string, required: true}\n"
            "candidates: [ops_against,",
        )
    )
    impl = (
        "def ops_precede(evidence, *, first):\n"
        "    return any(isinstance(a, dict) and a.get('tool') == first\n"
        "               for a in evidence.get('actions') or [])\n"
    )
    rows = (
        GATE + "      - when: {all: [{ops_precede: {first: t}}, {named_in_output: "
        "{identifier_set: [SMTP_PORT], channels: [agent_response]}}]}\n        score: 1.0\n"
        + ELSE_ROW
    )
    return {
        "si-lint.toml": 'profile = "profile"\nselect = ["SI4"]\n',
        "profile/registry.yaml": registry,
        "profile/templates/C-DA-001.yaml": (
            BUILTIN_DIR / "templates" / "C-DA-001.yaml"
        ).read_text(),
        "profile/impl/ops.py": impl,
        S: composite(rows),
        "fixtures/a.yaml": fixture("{score: 0.0, row: 3}", CORRECT, calls=1),
    }


def test_si409_once_per_scenario_and_nothing_evaluated(tmp_path):
    report, got = diags(tmp_path, profile_files())
    assert got == [("SI409", S, 9, 1, "info")]
    assert messages(report, "SI409") == [
        f"fixtures and probes of `{SID}` not evaluated: its table needs `ops_precede`, which "
        "has no trusted implementation"
    ]


def test_trusted_implementations_are_dry_run(tmp_path):
    report, got = diags(tmp_path, profile_files(), "--trust-implementations")
    # one tool call `t`, then the key named: ops_precede holds, row 2 → 1.0 (not 0.0, row 3);
    # the probes make no tool call `t`, so none reaches row 2; rows 1 and 3 are uncovered
    assert got == [
        ("SI401", "fixtures/a.yaml", 2, 17, "error"),
        ("SI402", "fixtures/a.yaml", 2, 27, "error"),
        ("SI403", S, 13, 9, "info"),
        ("SI403", S, 17, 9, "info"),
    ]


# ----------------------------------------------------------------------------- fast path


def _all_verdicts(root):
    """(verdict from the dry run's compiled table, verdict from evaluate()) for every
    fixture and probe of the corpus at ``root``."""
    from si_lint.checks import dryrun
    from si_lint.evaluator import artifact_problems, evaluate, probes
    from si_lint.pipeline import Options, run

    corpus = run([], Options(use_cache=False), cwd=root).corpus
    plans = {sid: dryrun._plan(sid, doc, corpus.profile) for sid, doc in corpus.scenarios.items()}
    plans = {sid: plan for sid, plan in plans.items() if isinstance(plan, dryrun._Plan)}
    pairs = []
    for doc in corpus.of_kind("fixture"):
        plan = plans.get(doc.data.get("scenario"))
        if plan is not None and not artifact_problems(doc.data):
            pairs.append(
                (
                    plan.verdict(doc.data, corpus.profile),
                    evaluate(doc.data, plan.scenario, corpus.profile),
                )
            )
    for plan in plans.values():
        for probe in probes(plan.scenario, corpus.profile):
            pairs.append(
                (
                    plan.verdict(probe.artifact, corpus.profile),
                    evaluate(probe.artifact, plan.scenario, corpus.profile),
                )
            )
    return pairs


def _strip(verdict):
    return {k: v for k, v in verdict.items() if k != "metadata"}


@pytest.mark.parametrize("where", ["team-corpus", "generated"])
def test_compiled_once_verdicts_equal_evaluate(tmp_path, where):
    if where == "team-corpus":
        root = REPO / "fixtures" / "corpus"
    else:
        import subprocess
        import sys

        root = tmp_path / "gen"
        subprocess.run(
            [sys.executable, str(REPO / "bench" / "generate.py"), str(root), "--files", "300"],
            check=True,
            capture_output=True,
        )
    pairs = _all_verdicts(root)
    if where == "generated" and not pairs:
        pytest.skip(
            "the bench corpus is in the published shape, which this checkout does "
            "not dry-run yet (issue 10)"
        )
    assert pairs
    assert [_strip(a) for a, _ in pairs] == [_strip(b) for _, b in pairs]


def test_error_verdicts_equal_evaluate(tmp_path):
    rows = (
        "      - when: {named_in_output: {identifier_set: [SMTP_PORT], "
        "channels: [agent_response]}}\n        score: 1.0\n"
    )
    write_files(tmp_path, {S: composite(rows), "f.yaml": fixture("{score: 0.0}", WRONG)})
    pairs = _all_verdicts(tmp_path)
    assert {"score": None, "row": None, "error": "no row of the decision table holds"} in [
        _strip(a) for a, _ in pairs
    ]
    assert [_strip(a) for a, _ in pairs] == [_strip(b) for _, b in pairs]


# ----------------------------------------------------------------------------- cache


def test_cached_dry_runs_follow_every_change(tmp_path):
    import json

    from conftest import run_cli

    def both(cwd, *paths):
        code, cached, _ = run_cli(["check", "--format", "json", *paths], cwd)
        _, fresh, _ = run_cli(["check", "--format", "json", "--no-cache", *paths], cwd)
        assert json.loads(cached) == json.loads(fresh)
        return [
            (d["code"], d["path"], d["line"], d["column"])
            + (() if d["severity"] == "error" or d["code"] != "SI403" else (d["severity"],))
            for d in json.loads(cached)["diagnostics"]
        ]

    write_files(tmp_path, {"si-lint.toml": 'ignore = ["SI6"]\n', S: scenario(), **ALL_ROWS})
    assert both(tmp_path) == []
    assert both(tmp_path) == []  # from the cache
    write_files(tmp_path, {"fixtures/2.yaml": fixture("{score: 0.5, row: 2}", CORRECT)})
    assert both(tmp_path) == [("SI401", "fixtures/2.yaml", 2, 17)]
    write_files(tmp_path, {S: scenario(subsystem="[mail-relay]")})
    assert both(tmp_path) == [
        ("SI401", "fixtures/2.yaml", 2, 17),
        ("SI401", "fixtures/3.yaml", 2, 17),
        ("SI402", "fixtures/3.yaml", 2, 27),
        ("SI403", S, 9, 1, "info"),
        ("SI406", S, 9, 1),
    ]
    (tmp_path / "fixtures" / "3.yaml").unlink()
    assert both(tmp_path) == [
        ("SI401", "fixtures/2.yaml", 2, 17),
        ("SI403", S, 9, 1, "info"),
        ("SI406", S, 9, 1),
    ]
    # the same corpus seen from a subdirectory: paths relative to the new cwd
    assert both(tmp_path / "fixtures", "2.yaml") == [("SI401", "2.yaml", 2, 17)]
    (tmp_path / "si-lint.toml").write_text('ignore = ["SI6"]\nrequire-band-coverage = true\n')
    assert both(tmp_path) == [
        ("SI401", "fixtures/2.yaml", 2, 17),
        ("SI403", S, 9, 1),
        ("SI406", S, 9, 1),
    ]


def test_si401_and_si402_relate_to_the_row_that_fired(tmp_path):
    files = {
        S: composite(GATE + FACTOR_ROW + NAMED_ROW + ELSE_ROW),
        "fixtures/b.yaml": fixture("{score: 1.0, row: 2}", PARTIAL),
        "t.yaml": scenario(sid="other"),
        "fixtures/c.yaml": fixture("{score: 1.0}", WRONG, sid="other"),
    }
    report, got = diags(tmp_path, files, "--select", "SI401,SI402")
    assert got == [
        ("SI401", "fixtures/b.yaml", 2, 17, "error"),
        ("SI402", "fixtures/b.yaml", 2, 27, "error"),
        ("SI401", "fixtures/c.yaml", 2, 17, "error"),
    ]
    row3 = {"path": S, "line": 21, "column": 9, "message": "row 3 of the scenario's table fired"}
    binding = {
        "path": "t.yaml",
        "line": 9,
        "column": 1,
        "message": "row 4 of template C-DA-001 fired for this binding",
    }
    assert [d["related"] for d in report["diagnostics"]] == [[row3], [row3], [binding]]
