"""CLI conventions (issue 14, SPEC §7 and §9), each through the CLI: unknown codes are usage
errors, --config, --quiet, --color with NO_COLOR/FORCE_COLOR, the one output writer,
--format gitlab, JSON end positions, the baseline, the error vocabulary."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, run_cli, write_files

SCENARIO = """\
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: On-call stops receiving alert e-mails
description: no alert e-mail reaches the on-call mailbox
injection:
  deviations:
    - {id: smarthost-removed, deviation_type: absent_key,
       resource: secret/alertmanager-main, subject: smtp_smarthost}
  counterfactual: restoring all deviations clears the symptom
scoring:
  archetype_template: C-DA-001
  type: graded
  factor: {ref: smarthost-removed, required_identifiers: [smtp_smarthost]}
  subsystem_set: [alertmanager-main, smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  # the echo exclusion is bound on the next line
  exclude_tool_echo: false  # keep
"""
SELECT = ["--select", "SI101,SI113"]


@pytest.fixture
def corpus(tmp_path):
    write_files(tmp_path, {"scenarios/s.yaml": SCENARIO})
    return tmp_path


# -- unknown codes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,bad",
    [
        (["--select", "SI10l"], "'SI10L'"),
        (["--ignore", "SI306,XX1"], "'XX1'"),
        (["--select", "si1,si10x"], "'SI10X'"),
    ],
)
def test_a_code_matching_no_rule_on_the_command_line_is_a_usage_error(corpus, args, bad):
    code, out, err = run_cli(["check", "--no-cache", *args], corpus)
    assert (code, out) == (2, "")
    assert err == f"si-lint: {args[0]}: {bad} matches no rule (`si-lint rule` lists them)\n"


def test_select_and_ignore_take_codes_and_prefixes_in_any_case(corpus):
    json_ = ["check", "--no-cache", "--format", "json"]
    upper = run_cli([*json_, "--select", "SI1", "--ignore", "SI113"], corpus)
    lower = run_cli([*json_, "--select", "si1", "--ignore", "Si113"], corpus)
    assert lower == upper
    code, out, _ = upper
    diags = json.loads(out)["diagnostics"]
    assert code == 1 and [
        (d["code"], d["path"], d["line"], d["column"], d["severity"], d["message"]) for d in diags
    ] == [("SI101", "scenarios/s.yaml", 12, 3, "error", "Form B scenario declares `scoring.type`")]


@pytest.mark.parametrize(
    "table,where",
    [
        ('select = ["SI99"]\n', "`select`"),
        (
            'ignore = ["SI30"]\n[per-file-ignores]\n"a/*.yaml" = ["EIO9"]\n',
            "`per-file-ignores` 'a/*.yaml'",
        ),
    ],
)
def test_a_code_matching_no_rule_in_the_config_is_a_usage_error(corpus, table, where):
    (corpus / "si-lint.toml").write_text(table, encoding="utf-8")
    code, out, err = run_cli(["check", "--no-cache"], corpus)
    assert code == 2 and out == ""
    assert (
        err.startswith(f"si-lint: {corpus / 'si-lint.toml'}: {where}: ")
        and "matches no rule" in err
    )


def test_prefixes_that_match_rules_are_fine(corpus):
    code, out, _ = run_cli(
        ["check", "--no-cache", "--select", "SI1,EIO", "--ignore", "SI11"], corpus
    )
    assert code == 1 and " SI101 " in out and " SI113 " not in out


# -- --config ----------------------------------------------------------------------------


def test_config_file_names_the_root_and_the_settings(tmp_path):
    write_files(
        tmp_path, {"corpus/scenarios/s.yaml": SCENARIO, "conf/lint.toml": 'select = ["SI113"]\n'}
    )
    # the config's directory is the corpus root: its settings apply, and with it the corpus
    (tmp_path / "corpus" / "si-lint.toml").write_text('select = ["SI101"]\n', encoding="utf-8")
    code, out, err = run_cli(
        ["check", "--no-cache", "--config", "corpus/si-lint.toml", "-v", "corpus"], tmp_path
    )
    assert code == 1
    assert [
        ln.split(" ")[1] for ln in out.splitlines() if ln.startswith("corpus/scenarios/s.yaml:")
    ] == ["SI101"]
    assert (
        f"si-lint: corpus root: corpus (config); configuration: {tmp_path / 'corpus' / 'si-lint.toml'}"
        in err
    )
    code, out, err = run_cli(
        ["check", "--no-cache", "--config", "corpus/si-lint.toml", "--select", "SI113", "corpus"],
        tmp_path,
    )
    assert [
        ln.split(" ")[1] for ln in out.splitlines() if ln.startswith("corpus/scenarios/s.yaml:")
    ] == ["SI113"]


def test_config_pyproject_and_missing_file(corpus):
    (corpus / "pyproject.toml").write_text('[tool.si-lint]\nselect = ["SI113"]\n', encoding="utf-8")
    code, out, _ = run_cli(["check", "--no-cache", "--config", "pyproject.toml"], corpus)
    assert code == 0 and " SI113 " in out and " SI101 " not in out
    code, out, err = run_cli(["check", "--no-cache", "--config", "nope.toml"], corpus)
    assert (
        code == 2
        and err
        == f"si-lint: {corpus / 'nope.toml'}: cannot read configuration: No such file or directory\n"
    )
    (corpus / "other.toml").write_text('ignore = ["SI1"]\n', encoding="utf-8")
    code, out, err = run_cli(
        ["check", "--no-cache", "--config", "other.toml", "--select", "SI1"], corpus
    )
    assert (code, out) == (
        0,
        "All checks passed (1 file(s)).\n",
    )  # si-lint.toml style: top-level keys


# -- --quiet, --color --------------------------------------------------------------------


def test_quiet_prints_findings_only(corpus):
    code, out, err = run_cli(["check", "--no-cache", "-q", *SELECT], corpus)
    assert code == 1
    assert out.startswith(
        "scenarios/s.yaml:12:3: SI101 [error] Form B scenario declares `scoring.type`\n"
    )
    assert "Found" not in out and "fixable" not in out and err == ""
    code, out, err = run_cli(["check", "--no-cache", "-q", "--select", "SI0"], corpus)
    assert (code, out) == (0, "")


ESC = "\x1b["


@pytest.mark.parametrize(
    "env,args,coloured",
    [
        ({}, [], False),  # not a terminal
        ({}, ["--color", "always"], True),
        ({"FORCE_COLOR": "1"}, [], True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, [], False),
        ({"NO_COLOR": "1"}, ["--color", "always"], True),
        ({"FORCE_COLOR": "1"}, ["--color", "never"], False),
        ({"NO_COLOR": ""}, ["--color", "auto"], False),
    ],
)
def test_colour_follows_flag_then_no_color_then_force_color_then_terminal(
    corpus, monkeypatch, env, args, coloured
):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, _ = run_cli(["check", "--no-cache", *SELECT, *args], corpus)
    assert code == 1
    assert (ESC in out) is coloured
    if coloured:  # the colours are styles only: stripped, the text is the plain report
        import click

        plain = run_cli(["check", "--no-cache", *SELECT, "--color", "never"], corpus)[1]
        assert click.unstyle(out) == plain


def test_colour_never_goes_into_an_output_file(corpus):
    code, out, _ = run_cli(
        ["check", "--no-cache", *SELECT, "--color", "always", "-o", "r.txt"], corpus
    )
    assert (code, out) == (1, "")
    assert ESC not in (corpus / "r.txt").read_text(encoding="utf-8")


def test_control_characters_of_the_source_are_escaped(tmp_path):
    write_files(
        tmp_path,
        {
            "scenarios/s.yaml": SCENARIO.replace(
                "type: graded", "type: graded  # \x1b[31mred\x1b[0m"
            )
        },
    )
    code, out, _ = run_cli(
        ["check", "--no-cache", "--select", "SI0,SI101", "--color", "always"], tmp_path
    )
    import click

    out = click.unstyle(out)
    assert code == 1 and "\x1b" not in out
    assert " 12 |   type: graded  # \\x1b[31mred\\x1b[0m" in out


# -- one output writer, one error vocabulary ---------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "gitlab"])
def test_unwritable_output_is_a_usage_error_not_an_internal_error(corpus, fmt):
    code, out, err = run_cli(
        ["check", "--no-cache", "--format", fmt, "-o", "/missing/dir/x.json"], corpus
    )
    assert (code, out) == (2, "")
    assert err == "si-lint: cannot write /missing/dir/x.json: No such file or directory\n"


def test_usage_errors_are_printed_once_by_the_cli(corpus):
    for args, message in (
        (["check", "missing.yaml"], "si-lint: missing.yaml: no such file or directory\n"),
        (["rule", "XX999"], "si-lint: unknown rule 'XX999'; `si-lint rule` lists them\n"),
        (
            ["check", "-", "x.yaml"],
            "si-lint: `-` (read stdin) cannot be combined with other paths\n",
        ),
        (
            ["check", "-"],
            "si-lint: `-` (read stdin) needs --stdin-filename PATH (the file it stands for)\n",
        ),
        (
            ["check", "--stdin-filename", "x.yaml"],
            "si-lint: --stdin-filename is used with the path `-` only\n",
        ),
    ):
        code, out, err = run_cli(args, corpus)
        assert (code, out, err) == (2, "", message), args


def test_error_classes_carry_their_exit_code():
    from si_lint.errors import ConfigError, OutputError, SiLintError
    from si_lint.pipeline import UsageError

    for cls in (UsageError, ConfigError, OutputError):
        assert issubclass(cls, SiLintError) and cls("x").exit_code == 2
    assert SiLintError("x", exit_code=3).exit_code == 3


# -- formats -----------------------------------------------------------------------------


def test_gitlab_code_quality_report(corpus):
    code, out, _ = run_cli(["check", "--no-cache", "--format", "gitlab", *SELECT], corpus)
    assert code == 1
    report = json.loads(out)
    sarif = json.loads(run_cli(["check", "--no-cache", "--format", "sarif", *SELECT], corpus)[1])
    prints = [r["partialFingerprints"]["siLint/v1"] for r in sarif["runs"][0]["results"]]
    assert report == [
        {
            "type": "issue",
            "check_name": "SI101",
            "description": "SI101: Form B scenario declares `scoring.type`",
            "categories": ["Bug Risk"],
            "severity": "major",
            "fingerprint": prints[0],
            "location": {"path": "scenarios/s.yaml", "lines": {"begin": 12}},
            "content": {"body": report[0]["content"]["body"]},
        },
        {
            "type": "issue",
            "check_name": "SI113",
            "description": report[1]["description"],
            "categories": ["Style"],
            "severity": "minor",
            "fingerprint": prints[1],
            "location": {"path": "scenarios/s.yaml", "lines": {"begin": 18}},
            "content": {"body": report[1]["content"]["body"]},
        },
    ]
    # GitLab's required fields, each of the documented type
    for item in report:
        assert isinstance(item["description"], str) and isinstance(item["check_name"], str)
        assert isinstance(item["fingerprint"], str) and len(item["fingerprint"]) == 64
        assert item["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(item["location"]["path"], str) and isinstance(
            item["location"]["lines"]["begin"], int
        )


def test_gitlab_clean_corpus_is_an_empty_array():
    code, out, _ = run_cli(
        ["check", "--no-cache", "--format", "gitlab"], REPO / "fixtures" / "corpus"
    )
    assert (code, out) == (0, "[]\n")


def test_json_diagnostics_carry_end_positions(corpus):
    code, out, _ = run_cli(["check", "--no-cache", "--format", "json", *SELECT], corpus)
    diags = json.loads(out)["diagnostics"]
    assert [(d["line"], d["column"], d["end_line"], d["end_column"]) for d in diags] == [
        (12, 3, 12, 7),  # the key `type`
        (18, 22, 18, 27),  # the value `false`, not its comment
    ]


# -- baseline ----------------------------------------------------------------------------


def test_baseline_hides_known_findings_reports_new_ones_and_counts_stale(corpus):
    # a configuration fixes the corpus root (fingerprints name paths relative to it)
    (corpus / "si-lint.toml").write_text("", encoding="utf-8")
    written = run_cli(["check", "--no-cache", *SELECT, "--write-baseline", "base.json"], corpus)
    assert written == (0, "", "Wrote 2 baseline entries to base.json\n")
    base = json.loads((corpus / "base.json").read_text(encoding="utf-8"))
    assert base["format"] == "si-lint-baseline" and base["version"] == 1
    assert [(e["code"], e["path"], e["document"], e["node"]) for e in base["findings"]] == [
        (
            "SI101",
            "scenarios/s.yaml",
            "id:infra.capability.da.alertmanager-smarthost-001",
            "path:scoring.type",
        ),
        (
            "SI113",
            "scenarios/s.yaml",
            "id:infra.capability.da.alertmanager-smarthost-001",
            "path:scoring.exclude_tool_echo",
        ),
    ]
    code, out, err = run_cli(["check", "--no-cache", *SELECT, "--baseline", "base.json"], corpus)
    assert (code, out) == (0, "All checks passed (2 file(s)).\n")  # base.json is a JSON file too
    assert (
        "si-lint: baseline base.json: 2 finding(s) hidden, 0 stale entries (no longer found)" in err
    )

    # lines inserted above: still known. A second scenario with the same mistake: new.
    shifted = "# header\n\n" + SCENARIO
    other = SCENARIO.replace("-001", "-002")
    write_files(corpus, {"scenarios/s.yaml": shifted, "scenarios/t.yaml": other})
    code, out, err = run_cli(["check", "--no-cache", *SELECT, "--baseline", "base.json"], corpus)
    assert code == 1
    everything = run_cli(["check", "--no-cache", *SELECT], corpus)[1]
    heads = [ln for ln in everything.splitlines() if ln.startswith("scenarios/")]
    assert [ln for ln in out.splitlines() if ln.startswith("scenarios/")] == [
        ln for ln in heads if ln.startswith("scenarios/t.yaml:")
    ]
    assert any(ln.startswith("scenarios/s.yaml:14:3: SI101") for ln in heads)

    # fixing one: its entry is stale
    write_files(corpus, {"scenarios/s.yaml": shifted.replace("  type: graded\n", "")})
    code, out, err = run_cli(
        ["check", "--no-cache", *SELECT, "--baseline", "base.json", "scenarios/s.yaml"], corpus
    )
    assert code == 0
    assert "1 finding(s) hidden, 1 stale entry (no longer found)" in err
    # the same fingerprints as SARIF
    sarif = json.loads(
        run_cli(["check", "--no-cache", "--format", "sarif", *SELECT, "scenarios/t.yaml"], corpus)[
            1
        ]
    )
    assert [r["partialFingerprints"]["siLint/v1"] for r in sarif["runs"][0]["results"]] != [
        e["fingerprint"] for e in base["findings"]
    ]  # another scenario id: other fingerprints


def test_write_baseline_says_how_many_entries_on_one_line_and_exits_0(corpus):
    # one finding: singular; the report is not printed (stdout empty), the status is 0
    args = ["check", "--no-cache", "--select", "SI113", "--write-baseline", "b.json"]
    assert run_cli(args, corpus) == (0, "", "Wrote 1 baseline entry to b.json\n")
    base = json.loads((corpus / "b.json").read_text(encoding="utf-8"))
    assert [(e["code"], e["path"], e["message"]) for e in base["findings"]] == [
        (
            "SI113",
            "scenarios/s.yaml",
            "`exclude_tool_echo` is bound to false, the template expects true",
        )
    ]
    assert run_cli([*args, "--quiet"], corpus) == (0, "", "")
    # a clean run writes an empty baseline, and says so
    clean = ["check", "--no-cache", "--select", "SI118", "--write-baseline", "c.json"]
    assert run_cli(clean, corpus) == (0, "", "Wrote 0 baseline entries to c.json\n")
    assert json.loads((corpus / "c.json").read_text(encoding="utf-8"))["findings"] == []
    # a file that cannot be written is a usage error, as --output's
    bad = ["check", "--no-cache", "--write-baseline", "/missing/dir/b.json"]
    assert run_cli(bad, corpus) == (
        2,
        "",
        "si-lint: cannot write /missing/dir/b.json: No such file or directory\n",
    )


def test_baseline_fingerprints_equal_sarif_fingerprints(corpus):
    run_cli(["check", "--no-cache", *SELECT, "--write-baseline", "base.json"], corpus)
    base = json.loads((corpus / "base.json").read_text(encoding="utf-8"))
    sarif = json.loads(run_cli(["check", "--no-cache", "--format", "sarif", *SELECT], corpus)[1])
    assert sorted(
        r["partialFingerprints"]["siLint/v1"] for r in sarif["runs"][0]["results"]
    ) == sorted(e["fingerprint"] for e in base["findings"])


@pytest.mark.parametrize(
    "content,message",
    [
        (None, "cannot read it: No such file or directory"),
        ("{", "not a si-lint baseline (invalid JSON"),
        ('{"format": "other"}', "not a si-lint baseline (write one with --write-baseline)"),
    ],
)
def test_bad_baseline_is_a_usage_error(corpus, content, message):
    if content is not None:
        (corpus / "b.json").write_text(content, encoding="utf-8")
    code, out, err = run_cli(["check", "--no-cache", "--baseline", "b.json"], corpus)
    assert code == 2 and out == "" and err.startswith("si-lint: --baseline b.json: " + message)


# -- stdin -------------------------------------------------------------------------------


def _stdin_cli(args, cwd, data: bytes):
    import os

    from click.testing import CliRunner

    from si_lint.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        res = CliRunner().invoke(cli, args, input=data, catch_exceptions=False)
    finally:
        os.chdir(old)
    return res.exit_code, res.stdout, res.stderr


def test_stdin_stands_for_the_named_file_against_the_corpus_on_disk(tmp_path):
    good = SCENARIO.replace("  type: graded\n", "").replace("false  # keep", "true")
    write_files(
        tmp_path,
        {
            "si-lint.toml": "",
            "scenarios/s.yaml": good,
            "scenarios/other.yaml": good.replace("-001", "-002"),
        },
    )
    buffer = SCENARIO.replace("-001", "-002").encode("utf-8")  # unsaved: duplicates other.yaml's id
    code, out, err = _stdin_cli(
        [
            "check",
            "--no-cache",
            "--format",
            "json",
            "--select",
            "SI101,SI301",
            "-",
            "--stdin-filename",
            "scenarios/s.yaml",
        ],
        tmp_path,
        buffer,
    )
    assert code == 1, err
    got = [(d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]]
    # the buffer's own finding, and SI301 against other.yaml on disk (s.yaml sorts later)
    assert got == [("SI301", "scenarios/s.yaml", 1, 5), ("SI101", "scenarios/s.yaml", 12, 3)]
    assert (tmp_path / "scenarios/s.yaml").read_text(encoding="utf-8") == good
    code, out, err = _stdin_cli(
        ["check", "--no-cache", "-", "--stdin-filename", "scenarios/s.yaml", "--fix"],
        tmp_path,
        buffer,
    )
    assert (code, err) == (2, "si-lint: --fix and --diff work on files, not on stdin\n")
