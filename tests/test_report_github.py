"""`--format github`: workflow-command annotations with GitHub's escaping (SPEC §9)."""

from __future__ import annotations

import io

from conftest import run_cli, write_files

from si_lint.findings import Finding, Location
from si_lint.report.github import annotation, escape_data, escape_property

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
  subsystem_set: [alertmanager-main, smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  exclude_tool_echo: false
"""


def test_escaping_follows_github_rules():
    assert escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert escape_property("dir,x/a:b%\n.yaml") == "dir%2Cx/a%3Ab%25%0A.yaml"


def test_annotation_of_a_finding_with_help_and_note(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b.yaml").write_text("id: x\n", encoding="utf-8")
    f = Finding(
        "a,b.yaml",
        1,
        5,
        "SI301",
        "error",
        "duplicate id: 50% sure",
        help="rename it",
        related=(Location("c.yaml", 1, 5, "first here"),),
    )
    assert annotation(f) == (
        "::error file=a%2Cb.yaml,line=1,col=5,endLine=1,endColumn=6,title=SI301::"
        "duplicate id: 50%25 sure%0Ahelp: rename it%0Anote: c.yaml:1:5: first here"
    )
    assert annotation(f._replace(severity="info", help=None, related=())).startswith("::notice ")
    assert annotation(f._replace(severity="warning")).startswith("::warning ")


def test_github_chosen_automatically_under_actions(tmp_path, monkeypatch):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, _ = run_cli(["check", "--no-cache", "--select", "SI101,SI113"], tmp_path)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (
        "::error file=scenarios/s.yaml,line=13,col=3,endLine=13,endColumn=7,title=SI101::"
        "Form B scenario declares `scoring.type`%0Ahelp: remove `scoring.type`: the template "
        "(or composite) fixes the scoring"
    )
    assert lines[1].startswith(
        "::warning file=scenarios/s.yaml,line=18,col=22,endLine=18,endColumn=27,title=SI113::"
        "`exclude_tool_echo` is bound to false, the template expects true%0Ahelp: "
    )
    assert lines[2:] == ["si-lint: 2 finding(s) in 1 file(s): 1 error(s), 1 warning(s), 0 info(s)"]
    # an explicit --format wins over the environment
    _, out, _ = run_cli(["check", "--no-cache", "--format", "json"], tmp_path)
    assert out.startswith("{")


# --------------------------------------------------------------------------------------
# GitHub's cap of 10 annotations per level and step, and the job summary


def _unescape(text: str, prop: bool) -> str:
    """What the runner (actions/runner ``ActionCommand.TryParseV2``) reads back from an
    escaped value: ``%0D``, ``%0A`` (and in properties ``%3A``, ``%2C``), ``%25`` last."""
    pairs = [("%0D", "\r"), ("%0A", "\n")]
    if prop:
        pairs += [("%3A", ":"), ("%2C", ",")]
    for code, char in pairs + [("%25", "%")]:
        text = text.replace(code, char)
    return text


def parse_commands(out: str) -> list:
    """The log as the runner reads it: a workflow command ``::name k=v,k=v::message`` as
    (name, {property: value}, message), any other line as ("log", {}, line)."""
    parsed = []
    for line in out.splitlines():
        end = line.find("::", 2) if line.startswith("::") else -1
        if end < 0:
            parsed.append(("log", {}, line))
            continue
        name, _, props = line[2:end].partition(" ")
        values = {}
        for prop in filter(None, props.split(",")):
            key, _, value = prop.partition("=")
            values[key] = _unescape(value, True)
        parsed.append((name, values, _unescape(line[end + 2 :], False)))
    return parsed


def _finding(path, line, code, severity, message):
    return Finding(path, line, 1, code, severity, message, end_line=line, end_column=4)


def _run(findings, files=3):
    from types import SimpleNamespace

    return SimpleNamespace(findings=findings, files=files, skipped_paths=())


def _props(path, line, code):
    return {
        "file": path,
        "line": str(line),
        "col": "1",
        "endLine": str(line),
        "endColumn": "4",
        "title": code,
    }


def test_annotations_rarest_code_first_and_a_notice_past_the_cap(tmp_path, monkeypatch):
    from si_lint.report import github

    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    many = [_finding("a.yaml", n, "SI105", "error", f"widened {n}") for n in range(1, 26)]
    findings = [
        *many[:12],
        _finding("b.yaml", 3, "SI113", "warning", "echo, 100%"),
        _finding("c.yaml", 9, "SI306", "info", "no fixtures"),
        *many[12:],
        _finding("z.yaml", 2, "SI301", "error", "duplicate id\nsecond line"),
    ]
    out = io.StringIO()
    github.write(_run(findings), out)
    assert parse_commands(out.getvalue()) == [
        ("error", _props("z.yaml", 2, "SI301"), "duplicate id\nsecond line"),
        *[("error", _props("a.yaml", n, "SI105"), f"widened {n}") for n in range(1, 26)],
        (
            "notice",
            {"title": "si-lint"},
            "16 more errors not shown as annotations (GitHub shows 10 per step); "
            "see the SARIF upload",
        ),
        ("warning", _props("b.yaml", 3, "SI113"), "echo, 100%"),
        ("notice", _props("c.yaml", 9, "SI306"), "no fixtures"),
        ("log", {}, "si-lint: 28 finding(s) in 3 file(s): 26 error(s), 1 warning(s), 1 info(s)"),
    ]


def test_more_than_ten_infos_end_with_a_plain_line():
    from si_lint.report import github

    findings = [_finding("a.yaml", n, "SI115", "info", "form A") for n in range(1, 12)]
    out = io.StringIO()
    github.write(_run(findings, 1), out, step_summary=None)
    assert parse_commands(out.getvalue())[-2:] == [
        (
            "log",
            {},
            "si-lint: 1 more infos not shown as annotations (GitHub shows 10 per step); "
            "see the SARIF upload",
        ),
        ("log", {}, "si-lint: 11 finding(s) in 1 file(s): 0 error(s), 0 warning(s), 11 info(s)"),
    ]


def test_job_summary_is_appended_whole(tmp_path, monkeypatch):
    from si_lint import rule_url
    from si_lint.report import github

    monkeypatch.chdir(tmp_path)
    for key, value in {
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_SHA": "abc123",
        "GITHUB_WORKSPACE": str(tmp_path),
    }.items():
        monkeypatch.setenv(key, value)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    findings = [
        _finding("s/a b.yaml", 4, "SI105", "error", "channel `x` [see](http://evil) <b>|"),
        _finding("s/a b.yaml", 7, "SI105", "error", "again"),
        _finding("../out.yaml", 2, "SI301", "error", "dup"),
        _finding("s/c.yaml", 1, "SI113", "warning", "echo"),
    ]
    out = io.StringIO()
    github.write(_run(findings, 2), out)
    u105, u301, u113 = rule_url("SI105"), rule_url("SI301"), rule_url("SI113")
    assert summary.read_text(encoding="utf-8") == (
        "earlier step\n"
        "### si-lint: 4 finding(s) in 2 file(s)\n\n"
        "3 error(s), 1 warning(s), 0 info(s). GitHub shows at most 10 annotations of each "
        "level per step; every finding is in the step's log.\n\n"
        "| Code | Severity | Count | Rule |\n"
        "| --- | --- | ---: | --- |\n"
        f"| [SI105]({u105}) | error | 2 | [channels-widened]({u105}) |\n"
        f"| [SI301]({u301}) | error | 1 | [duplicate-scenario-id]({u301}) |\n"
        f"| [SI113]({u113}) | warning | 1 | [echo-exclusion-off]({u113}) |\n\n"
        "#### Findings\n\n"
        "- ../out.yaml:2:1 **SI301** (error): dup\n"
        "- [s/a b.yaml:4:1](https://github.com/o/r/blob/abc123/s/a%20b.yaml#L4) **SI105** "
        "(error): channel \\`x\\` \\[see\\](http://evil) \\<b\\>\\|\n"
        "- [s/a b.yaml:7:1](https://github.com/o/r/blob/abc123/s/a%20b.yaml#L7) **SI105** "
        "(error): again\n"
        "- [s/c.yaml:1:1](https://github.com/o/r/blob/abc123/s/c.yaml#L1) **SI113** "
        "(warning): echo\n"
    )


def test_job_summary_is_bounded(tmp_path):
    from si_lint.report.github import FIRST, SUMMARY_MAX, summary

    long = "x" * 5000
    findings = [_finding(f"{long}/{n}.yaml", n, "SI105", "error", long) for n in range(1, 80)]
    text = summary(_run(findings, 79), findings)
    assert len(text.encode("utf-8")) < SUMMARY_MAX
    assert text.count("\n- ") == FIRST
    assert f"#### The first {FIRST} of 79 findings\n" in text


def test_job_summary_that_cannot_be_written_is_a_usage_error(tmp_path, monkeypatch):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "no" / "such" / "file.md"))
    code, out, err = run_cli(["check", "--no-cache", "--format", "github"], tmp_path)
    assert code == 2
    assert err.endswith(
        f"cannot write {tmp_path / 'no' / 'such' / 'file.md'}: No such file or directory\n"
    )


def test_annotation_order_does_not_depend_on_the_findings_order(tmp_path):
    import random

    from si_lint.report import github

    findings = [
        _finding(f"{p}.yaml", n, code, sev, f"m{n}")
        for p in "abc"
        for n, (code, sev) in enumerate(
            [("SI105", "error"), ("SI301", "error"), ("SI113", "warning"), ("SI105", "error")],
            start=1,
        )
    ]
    outputs = set()
    for seed in range(5):
        shuffled = findings[:]
        random.Random(seed).shuffle(shuffled)
        out = io.StringIO()
        github.write(_run(shuffled), out, step_summary=None)
        outputs.add(out.getvalue())
    (only,) = outputs
    assert [(c[1]["title"], c[1]["file"], c[1]["line"]) for c in parse_commands(only)[:9]] == [
        ("SI301", "a.yaml", "2"),
        ("SI301", "b.yaml", "2"),
        ("SI301", "c.yaml", "2"),
        ("SI105", "a.yaml", "1"),
        ("SI105", "a.yaml", "4"),
        ("SI105", "b.yaml", "1"),
        ("SI105", "b.yaml", "4"),
        ("SI105", "c.yaml", "1"),
        ("SI105", "c.yaml", "4"),
    ]
