"""`--format junit`: one testsuite per file, one testcase per rule that ran on it, a
failure per error-severity finding (SPEC §9)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conftest import run_cli, write_files

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
  exclude_tool_echo: false  # keep <&> "quoted"
"""


def _expected_codes(kind):
    from si_lint.checks.base import all_checks
    from si_lint.loader import CODES

    codes = set(CODES)
    for c in all_checks():
        if c.scope == "file" and (c.kinds is None or kind in c.kinds):
            codes.update(c.codes)
    return codes


def test_junit_suites_cases_and_failures(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO, "notes/readme.yaml": "title: notes\n"})
    # corpus-level rules (SI3xx graph, SI4xx dry runs and probes) are left out: this test is
    # about the per-file rules and the one testcase per rule that ran
    code, out, err = run_cli(["check", "--format", "junit", "--no-cache", "--ignore", "SI3,SI4"], tmp_path)
    assert code == 1, err
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert sorted(suites) == ["notes/readme.yaml", "scenarios/s.yaml"]

    s = suites["scenarios/s.yaml"]
    cases = {c.get("name").split(" ")[0]: c for c in s.findall("testcase")}
    expected = {c for c in _expected_codes("scenario") if not c.startswith(("SI3", "SI4"))}
    assert set(cases) == expected
    failing = {code: [f.get("message") for f in c.findall("failure")] for code, c in cases.items()
               if c.findall("failure")}
    assert failing == {"SI101": ["13:3: Form B scenario declares `scoring.type`"]}
    # the warning is reported, but does not fail its testcase
    (out_el,) = cases["SI113"].findall("system-out")
    assert out_el.text.startswith("scenarios/s.yaml:18:22: SI113 [warning] ")
    assert (s.get("tests"), s.get("failures"), s.get("errors")) == (str(len(expected)), "1", "0")
    assert root.get("failures") == "1"

    # a document with no kind still ran the loader rules (and the kind-less checks)
    n = suites["notes/readme.yaml"]
    assert {c.get("name").split(" ")[0] for c in n.findall("testcase")} == {
        c for c in _expected_codes(None) if not c.startswith(("SI3", "SI4"))}
    assert n.get("failures") == "0"


def test_junit_names_only_the_named_files_and_is_deterministic(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO, "scenarios/t.yaml": SCENARIO.replace("-001", "-002")})
    args = ["check", "--format", "junit", "--no-cache", "--select", "SI101", "scenarios/t.yaml"]
    _, out1, _ = run_cli(args, tmp_path)
    _, out2, _ = run_cli(args, tmp_path)
    assert out1 == out2
    root = ET.fromstring(out1)
    assert [s.get("name") for s in root.findall("testsuite")] == ["scenarios/t.yaml"]
    assert [c.get("name") for c in root.iter("testcase")] == ["SI101 " + _rule_name("SI101")]


def _rule_name(code):
    from si_lint.catalogue import rules

    return rules()[code].name
