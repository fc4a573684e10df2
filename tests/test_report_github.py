"""`--format github`: workflow-command annotations with GitHub's escaping (SPEC §9)."""

from __future__ import annotations

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
