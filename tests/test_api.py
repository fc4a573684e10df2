"""The Python API (issue 44): ``si_lint.api.check``/``evaluate``/``explain``, whole results
against the commands' own output, on the example corpus and on a small broken one."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
import yaml
from conftest import REPO, SI101_SI113_SCENARIO, run_cli, write_files

import si_lint
from si_lint import api
from si_lint.api import Report, RuleDoc, SiLintError, UnknownRuleError, Verdict, Why

CORPUS = REPO / "fixtures" / "corpus"
SCENARIO = SI101_SI113_SCENARIO
SI101 = ("SI101", "scenarios/s.yaml", 12, 3, "error", "Form B scenario declares `scoring.type`")
SI113 = (
    "SI113",
    "scenarios/s.yaml",
    17,
    22,
    "warning",
    "`exclude_tool_echo` is bound to false, the template expects true",
)


@pytest.fixture
def broken(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", "scenarios/s.yaml": SCENARIO})
    return tmp_path


def _rows(findings):
    return [(f.code, f.path, f.line, f.column, f.severity, f.message) for f in findings]


def _cli_json(args, cwd):
    code, out, _ = run_cli(["check", "--no-cache", "--format", "json", *args], cwd)
    return code, json.loads(out)


def test_check_the_example_corpus_is_what_the_command_reports():
    code, doc = _cli_json([], CORPUS)
    assert (code, doc["diagnostics"]) == (0, [])
    report = api.check(cwd=CORPUS)
    assert report == Report(
        findings=(),
        files=doc["summary"]["files"],
        errors=0,
        warnings=0,
        infos=0,
        exit_status=0,
        fail_on="error",
    )
    assert report.ok and report.files == 65


def test_check_a_broken_corpus_whole_findings_counts_and_status(broken):
    report = api.check(["scenarios"], cwd=broken, select="SI1,si2")
    assert _rows(report.findings) == [SI101, SI113]
    assert (report.files, report.errors, report.warnings, report.infos) == (1, 1, 1, 0)
    assert (report.exit_status, report.ok) == (1, False)
    first = report.findings[0]
    assert (first.help, first.doc_path, first.related, first.document) == (
        "remove `scoring.type`: the template (or composite) fixes the scoring",
        "scoring.type",
        (),
        None,
    )
    # the command's JSON says the same, finding for finding
    code, doc = _cli_json(["--select", "SI1,SI2", "scenarios"], broken)
    assert code == report.exit_status
    assert [f.as_json() for f in report.findings] == [
        {k: v for k, v in d.items() if k not in ("end_line", "end_column", "url", "fix")}
        for d in doc["diagnostics"]
    ]
    # select/ignore as lists, in any case; fail_on
    only = api.check(cwd=broken, select=["si1"], ignore=["Si101"], fail_on="warning")
    assert (_rows(only.findings), only.exit_status) == ([SI113], 1)
    assert api.check(cwd=broken, select="SI113").exit_status == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.exit_status = 0


def test_check_relative_paths_and_the_configuration_are_read_from_cwd(broken, tmp_path):
    (broken / "conf").mkdir()
    (broken / "conf" / "si-lint.toml").write_text('ignore = ["SI113"]\n', encoding="utf-8")
    report = api.check(
        str(broken / "scenarios"), cwd=broken, config="conf/si-lint.toml", select="SI1"
    )
    # the configuration's directory is the root: paths relative to cwd all the same
    assert _rows(report.findings) == [SI101]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"paths": "missing.yaml"}, "missing.yaml: no such file or directory"),
        ({"select": "XX9"}, "--select: 'XX9' matches no rule (`si-lint rule` lists them)"),
        ({"fail_on": "never"}, "fail_on='never': one of error, warning, info"),
        (
            {"profile": "nowhere"},
            "profile='nowhere': not a shipped profile (builtin, builtin:oasisctl) nor a "
            "profile directory (no registry.yaml)",
        ),
    ],
)
def test_check_refuses_what_the_command_exits_2_on(broken, kwargs, message):
    with pytest.raises(SiLintError) as info:
        api.check(cwd=broken, **kwargs)
    assert (str(info.value), info.value.exit_code) == (message, 2)


def test_evaluate_paths_gives_the_commands_verdicts():
    scenario = "scenarios/mail-relay-smtp-port.yaml"
    verdicts = api.evaluate(CORPUS / scenario, [CORPUS / "runs"])
    code, out, _ = run_cli(["eval", scenario, "runs", "--format", "json"], CORPUS)
    entries = json.loads(out)
    text = run_cli(["eval", scenario, "runs"], CORPUS)[1].splitlines()
    why = entries[0]["why"]
    sid = "infra.capability.da.single-signal-diagnosis-001"
    assert verdicts == [
        Verdict(
            evidence=str(CORPUS / "runs/mail-relay-agent-a.yaml"),
            scenario=sid,
            score=1.0,
            row=2,
            why=Why(why["row"], why["fired"], (), why["text"]),
            metadata={"tool_calls": 3, "final_answer": True, "duration_s": 35.0, "tokens": 4022},
        ),
        Verdict(
            evidence=str(CORPUS / "runs/storefront-agent-b.json"),
            scenario=sid,
            score=None,
            row=None,
            error="evidence is for scenario `infra.capability.da.storefront-tls-key-001`, "
            f"not `{sid}`",
            metadata={"tool_calls": 2, "final_answer": True, "duration_s": 19.4, "tokens": 2210},
        ),
    ]
    assert code == 1 and [(e["score"], e["row"], e.get("error")) for e in entries] == [
        (v.score, v.row, v.error) for v in verdicts
    ]
    assert text[1] == f"  why: {why['text']}" and str(verdicts[0].why) == why["text"]
    assert why["text"].startswith("row 2 fired (1.0): agent_response: ")


def test_evaluate_loaded_scenario_and_artifacts(tmp_path):
    scenario = yaml.safe_load((CORPUS / "scenarios/mail-relay-smtp-port.yaml").read_text())
    artifact = yaml.safe_load((CORPUS / "runs/mail-relay-agent-a.yaml").read_text())
    unreadable = tmp_path / "bad.json"
    unreadable.write_text("{", encoding="utf-8")
    got = api.evaluate(scenario, [artifact, unreadable], profile="builtin:oasisctl")
    by_path = api.evaluate(
        CORPUS / "scenarios/mail-relay-smtp-port.yaml",
        CORPUS / "runs/mail-relay-agent-a.yaml",
        profile="builtin:oasisctl",
    )[0]
    assert got[0] == dataclasses.replace(by_path, evidence="<evidence 0>")
    assert (got[0].score, got[0].row) == (1.0, 2)
    assert got[1] == Verdict(
        evidence=str(unreadable),
        scenario="infra.capability.da.single-signal-diagnosis-001",
        score=None,
        row=None,
        error=got[1].error,
    )
    assert got[1].error.startswith("file is not valid YAML/JSON: SI001 ")


def test_evaluate_refuses_an_unusable_scenario(broken):
    with pytest.raises(SiLintError) as info:
        api.evaluate(broken / "nothing.yaml", [])
    assert info.value.exit_code == 2
    assert str(info.value).startswith(f"{broken / 'nothing.yaml'}: cannot read file: ")
    with pytest.raises(SiLintError) as info:
        api.evaluate({"id": "x", "scoring": {"type": "binary"}}, [])
    assert str(info.value).startswith("scenario x: scenario has no decision table")


def test_explain_is_the_catalogue_entry_and_the_rule_page():
    data = yaml.safe_load((REPO / "rules" / "SI115.yaml").read_text(encoding="utf-8"))
    doc = api.explain("si115")
    assert isinstance(doc, RuleDoc)
    assert (doc.code, doc.name, doc.severity, doc.check) == (
        "SI115",
        data["name"],
        data["severity"],
        data["check"],
    )
    assert (doc.summary, doc.rationale, doc.seed, doc.fix) == (
        data["summary"].strip(),
        data["rationale"].strip(),
        data["seed"].strip(),
        data["fix"].strip(),
    )
    assert doc.examples == data["examples"]
    assert doc.url == "https://github.com/oasis-si/si-lint/blob/main/docs/rules/SI115.md"
    assert doc.text == run_cli(["rule", "SI115"], REPO)[1]
    assert doc.full_text == run_cli(["rule", "SI115", "--full"], REPO)[1]
    with pytest.raises(UnknownRuleError) as info:
        api.explain("SI1")
    assert isinstance(info.value, LookupError) and info.value.exit_code == 2
    assert str(info.value) == "unknown rule 'SI1'; `si-lint rule` lists them"


def test_the_package_hands_out_the_api_lazily():
    assert si_lint.check is api.check and si_lint.Report is Report
    assert {"check", "evaluate", "explain", "Report", "Verdict", "RuleDoc"} <= set(dir(si_lint))
    code = (
        "import sys, si_lint; print('si_lint.api' in sys.modules, "
        "'si_lint.pipeline' in sys.modules); si_lint.explain; print('si_lint.api' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert (proc.returncode, proc.stdout) == (0, "False False\nTrue\n")
    with pytest.raises(AttributeError):
        si_lint.nothing_here  # noqa: B018


def test_the_package_is_typed():
    assert (REPO / "si_lint" / "py.typed").is_file()


def test_the_api_page_examples_run():
    """docs/api.md's examples, run by doctest in fixtures/corpus, print what it shows."""
    import doctest

    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/api.md", "docs/api.md", 0)
    assert len(test.examples) >= 20
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    old = os.getcwd()
    os.chdir(CORPUS)
    try:
        runner.run(test, clear_globs=False)
    finally:
        os.chdir(old)
        import shutil

        if "corpus" in test.globs:  # the example's temporary corpus
            shutil.rmtree(test.globs["corpus"], ignore_errors=True)
    assert runner.summarize(verbose=False) == doctest.TestResults(0, len(test.examples))
