"""`--format junit` (SPEC §9): valid against Jenkins' junit-10.xsd (vendored in
tests/data/ with its licence); one testsuite per file; one testcase per finding named by
its code and location; a passing testcase per rule that ran clean; `failures` counts what
`--fail-on` counts; junitparser (the parser GitLab-style tools use) reads one testcase per
finding with its message.

The XSD is validated with xmlschema (pure Python, full XSD 1.0, error paths in its
messages; lxml would need libxml2 bindings for the same check)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import run_cli, write_files

XSD = Path(__file__).resolve().parent / "data" / "junit-10.xsd"

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
    from si_lint.checks import all_checks
    from si_lint.loader import CODES

    codes = set(CODES)
    for c in all_checks():
        if c.scope == "file" and (c.kinds is None or kind in c.kinds):
            codes.update(c.codes)
    return codes


def _expected_codes(kind):
    from si_lint.checks import all_checks
    from si_lint.loader import CODES

    codes = set(CODES)
    for c in all_checks():
        if c.scope == "file" and (c.kinds is None or kind in c.kinds):
            codes.update(c.codes)
    return codes


def assert_valid(xml: str) -> None:
    xmlschema = pytest.importorskip(
        "xmlschema", reason="xmlschema is a test extra (pip install -e '.[test]')"
    )
    schema = xmlschema.XMLSchema(str(XSD))
    errors = list(schema.iter_errors(xml))
    assert not errors, [str(e)[:300] for e in errors[:3]]


def junit(tmp_path, *args):
    code, out, err = run_cli(["check", "--format", "junit", "--no-cache", *args], tmp_path)
    assert code in (0, 1), err
    return code, out


def test_junit_validates_against_jenkins_xsd_one_case_per_finding(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO, "notes/readme.yaml": "title: notes\n"})
    # corpus-level rules (SI3xx graph, SI4xx dry runs and probes) and the core scenario rules
    # (SI6xx, which a minimal scenario trips) are left out: this test is about the others
    code, out = junit(tmp_path, "--ignore", "SI3,SI4,SI6")
    assert code == 1
    assert_valid(out)
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert sorted(suites) == ["notes/readme.yaml", "scenarios/s.yaml"]
    assert all(s.get("file") == name for name, s in suites.items())

    s = suites["scenarios/s.yaml"]
    cases = [c.get("name") for c in s.findall("testcase")]
    # first one testcase per finding (code and location), then one per rule that ran clean
    assert cases[:2] == ["SI101 scenarios/s.yaml:13:3", "SI113 scenarios/s.yaml:18:22"]
    clean = {c for c in _expected_codes("scenario") if not c.startswith(("SI3", "SI4", "SI6"))} - {
        "SI101",
        "SI113",
    }
    assert {c.split(" ")[0] for c in cases[2:]} == clean
    first, second = s.findall("testcase")[:2]
    (failure,) = first.findall("failure")
    assert failure.get("type") == "SI101"
    assert failure.get("message") == "[error] Form B scenario declares `scoring.type`"
    assert failure.text.startswith("scenarios/s.yaml:13:3: SI101 [error] Form B scenario declares")
    # under the default --fail-on error the warning passes, with the finding in system-out
    assert not second.findall("failure")
    assert second.find("system-out").text.startswith("scenarios/s.yaml:18:22: SI113 [warning] ")
    assert (s.get("tests"), s.get("failures"), s.get("errors")) == (str(len(cases)), "1", "0")
    assert root.get("failures") == "1"

    n = suites["notes/readme.yaml"]
    assert n.get("failures") == "0"
    assert {c.get("name").split(" ")[0] for c in n.findall("testcase")} == {
        c for c in _expected_codes(None) if not c.startswith(("SI3", "SI4", "SI6"))
    }


def test_failures_count_what_fail_on_counts(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    for fail_on, failures, status in (("error", "1", 1), ("warning", "2", 1), ("info", "2", 1)):
        code, out = junit(tmp_path, "--select", "SI101,SI113", "--fail-on", fail_on)
        assert_valid(out)
        root = ET.fromstring(out)
        assert (code, root.get("failures"), root.find("testsuite").get("failures")) == (
            status,
            failures,
            failures,
        )
    code, out = junit(tmp_path, "--select", "SI113", "--fail-on", "warning")
    assert (code, ET.fromstring(out).get("failures")) == (1, "1")
    code, out = junit(tmp_path, "--select", "SI113")
    assert (code, ET.fromstring(out).get("failures")) == (0, "0")


def test_two_failures_of_one_rule_are_two_testcases_junitparser_reads_them(tmp_path):
    """junit2html and GitLab keep one failure per testcase: each finding is its own case."""
    junitparser = pytest.importorskip("junitparser", reason="junitparser is a test extra")
    two = SCENARIO.replace(
        "channels: [agent_response]", "channels: [agent_response, reasoning_trace, tool_output]"
    )
    write_files(tmp_path, {"scenarios/s.yaml": two})
    _, out = junit(tmp_path, "--select", "SI105,SI106,SI101")
    assert_valid(out)
    (tmp_path / "r.xml").write_text(out, encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(tmp_path / "r.xml"))
    failed = []
    for suite in xml:
        for case in suite:
            for res in case.result:
                if isinstance(res, junitparser.Failure):
                    failed.append((case.name, res.type, res.message))
    report = run_cli(
        ["check", "--format", "json", "--no-cache", "--select", "SI105,SI106,SI101"], tmp_path
    )[1]
    import json

    diags = json.loads(report)["diagnostics"]
    assert failed == [
        (
            f"{d['code']} {d['path']}:{d['line']}:{d['column']}",
            d["code"],
            f"[{d['severity']}] {d['message']}",
        )
        for d in diags
    ]
    assert len(failed) == 3


def test_junit_names_only_the_named_files_and_is_deterministic(tmp_path):
    write_files(
        tmp_path,
        {"scenarios/s.yaml": SCENARIO, "scenarios/t.yaml": SCENARIO.replace("-001", "-002")},
    )
    args = ["--select", "SI101", "scenarios/t.yaml"]
    _, out1 = junit(tmp_path, *args)
    _, out2 = junit(tmp_path, *args)
    assert out1 == out2
    assert_valid(out1)
    root = ET.fromstring(out1)
    assert [s.get("name") for s in root.findall("testsuite")] == ["scenarios/t.yaml"]
    assert [c.get("name") for c in root.iter("testcase")] == ["SI101 scenarios/t.yaml:13:3"]


def test_fixture_corpus_junit_is_valid(tmp_path):
    from conftest import REPO

    code, out, err = run_cli(
        ["check", "--format", "junit", "--no-cache"], REPO / "fixtures" / "corpus"
    )
    assert code == 0, err
    assert_valid(out)
    root = ET.fromstring(out)
    assert root.get("failures") == "0" and len(root.findall("testsuite")) > 10


def test_no_junit_passing_keeps_the_findings_testcases_only(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO, "notes/readme.yaml": "title: notes\n"})
    args = ["--select", "SI002,SI101,SI113", "--fail-on", "warning"]
    code, out = junit(tmp_path, *args, "--no-junit-passing")
    assert code == 1
    assert_valid(out)
    assert out == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="si-lint" tests="2" failures="2" errors="0">\n'
        '  <testsuite name="notes/readme.yaml" tests="0" failures="0" errors="0" skipped="0" '
        'file="notes/readme.yaml">\n'
        "  </testsuite>\n"
        '  <testsuite name="scenarios/s.yaml" tests="2" failures="2" errors="0" skipped="0" '
        'file="scenarios/s.yaml">\n'
        '    <testcase classname="scenarios/s.yaml" name="SI101 scenarios/s.yaml:13:3">\n'
        '      <failure type="SI101" message="[error] Form B scenario declares `scoring.type`">'
        "scenarios/s.yaml:13:3: SI101 [error] Form B scenario declares `scoring.type`\n"
        "help: remove `scoring.type`: the template (or composite) fixes the scoring</failure>\n"
        "    </testcase>\n"
        '    <testcase classname="scenarios/s.yaml" name="SI113 scenarios/s.yaml:18:22">\n'
        '      <failure type="SI113" message="[warning] `exclude_tool_echo` is bound to false, '
        'the template expects true">scenarios/s.yaml:18:22: SI113 [warning] `exclude_tool_echo`'
        " is bound to false, the template expects true\nhelp: set `exclude_tool_echo: true` "
        "(without echo exclusion an agent that dumps tool output scores as if it had named the "
        "factor)</failure>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n"
    )
    # the default (and --junit-passing) adds a passing testcase per selected rule that ran
    # clean: SI002 (a loader rule, run on every file) on each file
    for extra in ((), ("--junit-passing",)):
        _, out = junit(tmp_path, *args, *extra)
        assert_valid(out)
        root = ET.fromstring(out)
        assert root.get("tests") == "4"
        assert [
            (s.get("name"), s.get("tests"), [c.get("name") for c in s.findall("testcase")])
            for s in root.findall("testsuite")
        ] == [
            ("notes/readme.yaml", "1", ["SI002 duplicate-key"]),
            (
                "scenarios/s.yaml",
                "3",
                [
                    "SI101 scenarios/s.yaml:13:3",
                    "SI113 scenarios/s.yaml:18:22",
                    "SI002 duplicate-key",
                ],
            ),
        ]


def test_junit_passing_is_refused_with_another_format(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    code, out, err = run_cli(["check", "--no-cache", "--no-junit-passing"], tmp_path)
    assert (code, out) == (2, "")
    assert err == ("si-lint: --no-junit-passing is a JUnit setting (use it with --format junit)\n")
