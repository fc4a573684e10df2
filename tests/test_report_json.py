"""`--format json`: the published schema (`si-lint schema report`), each finding's `url`
and `fix` (the edits `--fix` would make, as ruff writes them), `--statistics` in JSON
(issue 44). Every JSON report a test makes through ``run_cli`` is validated against the
schema by ``conftest.run_cli``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, assert_report, run_cli, write_files

from si_lint import rule_url
from si_lint.report.json import edits

SCENARIO = """\
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: On-call stops receiving alert e-mails
description: no alert e-mail reaches the on-call mailbox
injection:
  deviations:
    - id: smarthost-removed
      deviation_type: absent_key
      resource: secret/alertmanager-main
      subject: smtp_smarthost
scoring:
  archetype_template: C-DA-001
  type: graded
  factor: {ref: smarthost-removed, required_identifiers: [smtp_smarthost]}
  subsystem_set: [" alertmanager-main", smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  exclude_tool_echo: false
"""


def _check(root: Path, *args: str) -> tuple[int, dict]:
    code, out, err = run_cli(["check", "--no-cache", "--format", "json", *args], root)
    assert code in (0, 1), err
    return code, json.loads(out)


def _edit(row, col, end_row, end_col, content):
    return {
        "content": content,
        "location": {"row": row, "column": col},
        "end_location": {"row": end_row, "column": end_col},
    }


def test_schema_command_prints_the_report_schema(tmp_path):
    code, out, _ = run_cli(["schema", "report"], tmp_path)
    assert code == 0
    assert out == (REPO / "schemas" / "report.schema.json").read_text(encoding="utf-8")


def test_findings_carry_url_and_the_fix_as_edits(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code, report = _check(tmp_path, "--select", "SI101,SI113,SI117")
    assert code == 1
    assert report["diagnostics"] == [
        {
            "code": "SI101",
            "severity": "error",
            "path": "scenarios/s.yaml",
            "line": 13,
            "column": 3,
            "message": "Form B scenario declares `scoring.type`",
            "json_path": "scoring.type",
            "help": "remove `scoring.type`: the template (or composite) fixes the scoring",
            "end_line": 13,
            "end_column": 7,
            "url": rule_url("SI101"),
            "fix": {
                "applicability": "unsafe",
                "message": "remove `scoring.type`: the template (or composite) fixes the scoring",
                "edits": [_edit(13, 1, 14, 1, "")],
            },
        },
        {
            "code": "SI117",
            "severity": "error",
            "path": "scenarios/s.yaml",
            "line": 15,
            "column": 19,
            "message": 'identifier " alertmanager-main" has surrounding whitespace',
            "json_path": "scoring.subsystem_set[0]",
            "help": 'write "alertmanager-main"',
            "end_line": 15,
            "end_column": 39,
            "url": rule_url("SI117"),
            "fix": {
                "applicability": "safe",
                "message": 'write "alertmanager-main"',
                "edits": [_edit(15, 20, 15, 21, "")],
            },
        },
        {
            "code": "SI113",
            "severity": "warning",
            "path": "scenarios/s.yaml",
            "line": 18,
            "column": 22,
            "message": "`exclude_tool_echo` is bound to false, the template expects true",
            "json_path": "scoring.exclude_tool_echo",
            "help": "set `exclude_tool_echo: true` (without echo exclusion an agent that dumps "
            "tool output scores as if it had named the factor)",
            "end_line": 18,
            "end_column": 27,
            "url": rule_url("SI113"),
            "fix": {
                "applicability": "unsafe",
                "message": "set `exclude_tool_echo: true` (without echo exclusion an agent that "
                "dumps tool output scores as if it had named the factor)",
                "edits": [_edit(18, 22, 18, 27, "true")],
            },
        },
    ]


def _apply(text: str, fix_edits: list[dict]) -> str:
    """The edits applied to ``text`` (rows and columns 1-based, ends exclusive)."""
    lines = text.split("\n")

    def offset(loc):
        return sum(len(x) + 1 for x in lines[: loc["row"] - 1]) + loc["column"] - 1

    for e in sorted(fix_edits, key=lambda e: offset(e["location"]), reverse=True):
        text = text[: offset(e["location"])] + e["content"] + text[offset(e["end_location"]) :]
    return text


@pytest.mark.parametrize("code", ["SI101", "SI113", "SI117"])
def test_the_edits_make_what_fix_writes(tmp_path, code):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    _, report = _check(tmp_path, "--select", code)
    (diag,) = report["diagnostics"]
    expected = _apply(SCENARIO, diag["fix"]["edits"])
    assert expected != SCENARIO
    run_cli(["check", "--no-cache", "--select", code, "--fix", "--unsafe-fixes"], tmp_path)
    assert (tmp_path / "scenarios/s.yaml").read_text(encoding="utf-8") == expected


def test_edits_replace_whole_words_and_count_rows_by_newline():
    assert edits("a: false\nb: 1\n", "a: true\nb: 1\n") == [_edit(1, 4, 1, 9, "true")]
    assert edits("a: [x, y]\n", "a: [x, y, z]\n") == [_edit(1, 9, 1, 9, ", z")]
    assert edits("a: 1\nt: g\nb: 2\n", "a: 1\nb: 2\n") == [_edit(2, 1, 3, 1, "")]
    assert edits("k: x\u2028y\nz: 1\n", "k: x\u2028y\nz: 2\n") == [_edit(2, 4, 2, 5, "2")]
    assert edits("same\n", "same\n") == []


def test_statistics_in_json(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code, report = _check(tmp_path, "--select", "SI101,SI113,SI117", "--statistics")
    assert code == 1
    assert report == {
        "version": 1,
        "statistics": [
            {"code": "SI101", "name": "form-b-declares-type", "count": 1, "fixable": False},
            {"code": "SI113", "name": "echo-exclusion-off", "count": 1, "fixable": False},
            {"code": "SI117", "name": "bad-identifier", "count": 1, "fixable": True},
        ],
        "summary": {"files": 1, "errors": 2, "warnings": 1, "infos": 0},
    }
    _, report = _check(tmp_path, "--select", "SI113", "--statistics", "--unsafe-fixes")
    assert report["statistics"] == [
        {"code": "SI113", "name": "echo-exclusion-off", "count": 1, "fixable": True}
    ]


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--statistics"],
        ["--quiet"],
        ["--verbose"],
        ["--diff", "--unsafe-fixes"],
        ["--fix"],
        ["--select", "SI9"],
        ["scenarios/nothing-here.yaml"],
    ],
)
def test_every_option_gives_a_report_the_schema_accepts(tmp_path, args):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO, "b.yaml": "a: 1\na: 2\n"})
    code, out, err = run_cli(["check", "--no-cache", "--format", "json", *args], tmp_path)
    assert code in (0, 1, 2), err
    text = err[err.index('{\n  "version"') :] if "--diff" in args else out
    if code != 2:
        assert_report(json.loads(text))


def test_a_report_that_breaks_the_schema_is_caught():
    with pytest.raises(AssertionError):
        assert_report({"version": 1, "diagnostics": [{"code": "SI101"}], "summary": {}})
    with pytest.raises(AssertionError):
        assert_report(
            {
                "version": 1,
                "diagnostics": [],
                "statistics": [],
                "summary": {"files": 0, "errors": 0, "warnings": 0, "infos": 0},
            }
        )


def test_no_fix_for_text_read_from_stdin(tmp_path):
    """The edits are of the text checked: stdin's text is not the file's, so no `fix`."""
    import os

    from click.testing import CliRunner

    from si_lint.cli import cli

    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO.replace("false", "true")})
    args = ["check", "--no-cache", "--format", "json", "--select", "SI113", "-"]
    args += ["--stdin-filename", "scenarios/s.yaml"]
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(cli, args, input=SCENARIO, catch_exceptions=False)
    finally:
        os.chdir(old)
    (diag,) = json.loads(result.stdout)["diagnostics"]
    assert_report(json.loads(result.stdout))
    assert (diag["code"], diag["line"], "fix" in diag) == ("SI113", 18, False)
