"""ruff's everyday `check` options with ruff's meaning (issue 44), each through the CLI
with its whole output: exit status, stdout and stderr. The `concise` format, the
SI_LINT_OUTPUT_FORMAT variable, --extend-select/--extend-ignore, --fix-only, --no-fix,
--exit-non-zero-on-fix, --silent, --isolated, --show-settings, --show-files, the ruff
options refused with their si-lint equivalent. (--watch and `extend`: their own files.)"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli, write_files
from test_cli_conventions import SCENARIO

S101 = "scenarios/s.yaml:12:3: SI101 [error] Form B scenario declares `scoring.type`\n"
S113 = (
    "scenarios/s.yaml:18:22: SI113 [warning] `exclude_tool_echo` is bound to false, "
    "the template expects true\n"
)
TWO = ["--select", "SI101,SI113"]
FIXED = SCENARIO.replace("  type: graded\n", "").replace(
    "exclude_tool_echo: false  # keep", "exclude_tool_echo: true  # keep"
)


@pytest.fixture
def corpus(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", "scenarios/s.yaml": SCENARIO})
    return tmp_path


def check(corpus, *args):
    return run_cli(["check", "--no-cache", *args], corpus)


# -- formats -----------------------------------------------------------------------------


def test_concise_is_one_line_per_finding_and_nothing_else(corpus):
    assert check(corpus, "--format", "concise", *TWO) == (1, S101 + S113, "")
    assert check(corpus, "--format", "concise", "--select", "SI0") == (0, "", "")


def test_concise_statistics_count_per_code(corpus):
    assert check(corpus, "--format", "concise", "--statistics", *TWO) == (
        1,
        "    1  SI101   form-b-declares-type\n    1  SI113   echo-exclusion-off\n",
        "",
    )


def test_concise_escapes_control_characters(tmp_path):
    bad = SCENARIO.replace("archetype_template: C-DA-001", 'archetype_template: "C-\\e[2J"')
    write_files(tmp_path, {"si-lint.toml": "", "scenarios/s.yaml": bad})
    assert check(tmp_path, "--format", "concise", "--select", "SI112") == (
        1,
        "scenarios/s.yaml:11:23: SI112 [error] scoring.archetype_template `C-\\x1b[2J` names "
        "no known template (known: C-DA-001)\n",
        "",
    )


def test_output_format_and_output_file_are_ruffs_names_for_format_and_output(corpus):
    alias = ("--output-format", "json", "--output-file", "a.json")
    assert check(corpus, *alias, *TWO, "scenarios")[:2] == (1, "")
    assert check(corpus, "--format", "json", "-o", "b.json", *TWO, "scenarios")[:2] == (1, "")
    a = (corpus / "a.json").read_text(encoding="utf-8")
    assert a == (corpus / "b.json").read_text(encoding="utf-8")
    assert [d["code"] for d in json.loads(a)["diagnostics"]] == ["SI101", "SI113"]


def test_ruffs_full_format_is_the_text_format(corpus):
    assert check(corpus, "--output-format", "full", *TWO) == check(corpus, *TWO)


@pytest.mark.parametrize(
    "value,use",
    [
        ("pylint", "concise (`path:line:col: CODE [severity] message`)"),
        ("json-lines", "json (one object holding every finding)"),
        ("azure", "concise, or sarif for a code-scanning upload"),
    ],
)
def test_ruff_formats_si_lint_has_not_are_refused_naming_the_one_to_use(corpus, value, use):
    code, out, err = check(corpus, "--output-format", value)
    assert (code, out) == (2, "")
    assert err.endswith(
        "check --help' for help.\n\n"
        "Error: Invalid value for '--format' / '--output-format' (env var: "
        f"'SI_LINT_OUTPUT_FORMAT'): {value!r} is a ruff format si-lint does not write: "
        f"use {use}\n",
    )


def test_the_environment_sets_the_format_the_command_line_wins(corpus, monkeypatch):
    monkeypatch.setenv("SI_LINT_OUTPUT_FORMAT", "concise")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")  # the variable wins over the CI default
    assert check(corpus, *TWO) == (1, S101 + S113, "")
    code, out, _ = check(corpus, "--format", "json", *TWO)
    assert code == 1 and json.loads(out)["summary"]["errors"] == 1
    monkeypatch.setenv("SI_LINT_OUTPUT_FORMAT", "yaml")
    code, out, err = check(corpus, *TWO)
    assert (code, out) == (2, "")
    assert err.endswith(
        "Error: Invalid value for '--format' / '--output-format' (env var: "
        "'SI_LINT_OUTPUT_FORMAT'): 'yaml' is not one of 'text', 'concise', 'json', "
        "'sarif', 'junit', 'github', 'gitlab'.\n"
    )


# -- selection ---------------------------------------------------------------------------


def test_extend_select_adds_to_the_configured_select_select_replaces_it(corpus):
    (corpus / "si-lint.toml").write_text('select = ["SI101"]\n', encoding="utf-8")
    concise = ("--format", "concise")
    assert check(corpus, *concise) == (1, S101, "")
    assert check(corpus, *concise, "--extend-select", "si113") == (1, S101 + S113, "")
    assert check(corpus, *concise, "--select", "SI113") == (0, S113, "")
    both = ("--select", "SI113", "--extend-select", "SI101")
    assert check(corpus, *concise, *both) == (1, S101 + S113, "")


def test_extend_ignore_adds_to_ignore(corpus):
    (corpus / "si-lint.toml").write_text('ignore = ["SI101"]\n', encoding="utf-8")
    concise = ("--format", "concise", *TWO)
    assert check(corpus, *concise) == (0, S113, "")
    assert check(corpus, *concise, "--extend-ignore", "SI113") == (0, "", "")


@pytest.mark.parametrize("option", ["--extend-select", "--extend-ignore"])
def test_an_unknown_code_in_an_extend_option_is_a_usage_error(corpus, option):
    assert check(corpus, option, "SI1,XX9") == (
        2,
        "",
        f"si-lint: {option}: 'XX9' matches no rule (`si-lint rule` lists them)\n",
    )


# -- exit status -------------------------------------------------------------------------


def test_e_is_exit_zero(corpus):
    assert check(corpus, "-e", "--format", "concise", *TWO) == (0, S101 + S113, "")


# -- fixes -------------------------------------------------------------------------------


def _text(corpus):
    return (corpus / "scenarios/s.yaml").read_text(encoding="utf-8")


def test_fix_only_fixes_and_prints_only_the_count(corpus):
    args = ("--fix-only", "--unsafe-fixes", *TWO)
    assert check(corpus, *args) == (0, "Fixed 2 finding(s) in 1 file(s).\n", "")
    assert _text(corpus) == FIXED
    assert check(corpus, *args) == (0, "No fixes applied.\n", "")


def test_fix_only_leaves_the_unfixable_findings_unreported_and_exits_0(corpus):
    # SI601 (missing keys) has no fix: --fix-only neither reports it nor fails on it
    args = ("--fix-only", "--unsafe-fixes", "--select", "SI101,SI601")
    assert check(corpus, *args) == (0, "Fixed 1 finding(s) in 1 file(s).\n", "")


def test_exit_non_zero_on_fix(corpus):
    args = ("--exit-non-zero-on-fix", "--unsafe-fixes", "--format", "concise", *TWO)
    assert check(corpus, "--fix", *args) == (
        1,
        "",
        "si-lint: fixed 2 finding(s) in 1 file(s)\n",
    )
    assert _text(corpus) == FIXED
    assert check(corpus, "--fix", *args) == (0, "", "")  # nothing left, nothing fixed
    (corpus / "scenarios/s.yaml").write_text(SCENARIO, encoding="utf-8")
    fix_only = ("--fix-only", "--exit-non-zero-on-fix", "--unsafe-fixes", *TWO)
    assert check(corpus, *fix_only) == (1, "Fixed 2 finding(s) in 1 file(s).\n", "")
    (corpus / "scenarios/s.yaml").write_text(SCENARIO, encoding="utf-8")
    assert check(corpus, "-e", *fix_only)[0] == 0  # --exit-zero wins, as in ruff


def test_no_fix_overrides_fix(corpus):
    args = ("--unsafe-fixes", "--format", "concise", *TWO)
    assert check(corpus, "--fix", "--no-fix", *args) == (1, S101 + S113, "")
    assert _text(corpus) == SCENARIO
    assert check(corpus, "--no-fix", "--fix", *args) == (
        0,
        "",
        "si-lint: fixed 2 finding(s) in 1 file(s)\n",
    )


def test_fix_only_and_diff_cannot_go_together(corpus):
    assert check(corpus, "--fix-only", "--diff") == (
        2,
        "",
        "si-lint: --fix-only writes the fixes, --diff writes nothing: use one\n",
    )


# -- --silent, --isolated ----------------------------------------------------------------


def test_silent_prints_nothing_the_status_tells(corpus):
    assert check(corpus, "--silent", *TWO) == (1, "", "")
    assert check(corpus, "-s", "--select", "SI0") == (0, "", "")
    # the report file asked for is still written; the fix line is not printed
    assert check(corpus, "-s", "--format", "concise", "-o", "r.txt", *TWO) == (1, "", "")
    assert (corpus / "r.txt").read_text(encoding="utf-8") == S101 + S113
    # an error is still said
    assert check(corpus, "-s", "--select", "XX1") == (
        2,
        "",
        "si-lint: --select: 'XX1' matches no rule (`si-lint rule` lists them)\n",
    )


def test_isolated_ignores_every_configuration_file(corpus):
    (corpus / "si-lint.toml").write_text('ignore = ["SI101"]\n', encoding="utf-8")
    concise = ("--format", "concise", *TWO)
    assert check(corpus, *concise) == (0, S113, "")
    assert check(corpus, "--isolated", *concise) == (1, S101 + S113, "")
    assert check(corpus, "--isolated", "--config", "si-lint.toml") == (
        2,
        "",
        "si-lint: --isolated ignores every configuration file: leave out --config\n",
    )


def test_isolated_ignores_a_broken_configuration_too(corpus):
    (corpus / "si-lint.toml").write_text("select = [\n", encoding="utf-8")
    assert check(corpus, *TWO)[0] == 2
    assert check(corpus, "--isolated", "--format", "concise", *TWO) == (1, S101 + S113, "")


# -- --show-settings, --show-files -------------------------------------------------------

DEFAULTS = (
    'include = ["**/*.yaml", "**/*.yml", "**/*.json"]\n'
    "exclude = []\n"
    "require-fixtures = false\n"
    "require-band-coverage = false\n"
    "require-form-b = false\n"
)


def test_show_settings_prints_each_roots_effective_configuration(tmp_path):
    write_files(
        tmp_path,
        {
            "a/si-lint.toml": 'ignore = ["SI306"]\nprofile = "builtin:oasisctl"\n',
            "a/scenarios/s.yaml": SCENARIO,
            "b/pyproject.toml": '[tool.si-lint]\nselect = ["SI1"]\n'
            '[tool.si-lint.per-file-ignores]\n"old/*.yaml" = ["SI115"]\n',
            "b/scenarios/s.yaml": SCENARIO,
        },
    )
    code, out, err = run_cli(
        ["check", "--show-settings", "--extend-ignore", "SI113", "a/scenarios", "b"], tmp_path
    )
    assert (code, err) == (0, "")
    assert out == (
        "# corpus root: a (found by: config)\n"
        "# configuration file: a/si-lint.toml\n"
        "# named: a/scenarios\n"
        'profile = "builtin:oasisctl"\n'
        'select = ["SI", "EIO"]\n'
        'ignore = ["SI306", "SI113"]\n'
        "per-file-ignores = {}\n" + DEFAULTS + "\n"
        "# corpus root: b (found by: config)\n"
        "# configuration file: b/pyproject.toml\n"
        "# named: b\n"
        'profile = "builtin"\n'
        'select = ["SI1"]\n'
        'ignore = ["SI113"]\n'
        'per-file-ignores = { "old/*.yaml" = ["SI115"] }\n' + DEFAULTS
    )
    assert not (tmp_path / "a/.si-lint-cache").exists()  # nothing was checked


def test_show_settings_is_toml_that_reads_back(corpus):
    import tomllib

    (corpus / "si-lint.toml").write_text('exclude = ["drafts/"]\nrequire-fixtures = true\n')
    code, out, _ = check(corpus, "--show-settings", "--profile", "builtin:oasisctl")
    assert code == 0
    assert tomllib.loads(out) == {
        "profile": "builtin:oasisctl",
        "select": ["SI", "EIO"],
        "ignore": [],
        "per-file-ignores": {},
        "include": ["**/*.yaml", "**/*.yml", "**/*.json"],
        "exclude": ["drafts/"],
        "require-fixtures": True,
        "require-band-coverage": False,
        "require-form-b": False,
    }


def test_show_settings_isolated(corpus):
    (corpus / "si-lint.toml").write_text('ignore = ["SI101"]\n', encoding="utf-8")
    assert check(corpus, "--show-settings", "--isolated", "scenarios") == (
        0,
        "# corpus root: scenarios (found by: dir)\n"
        "# configuration file: none (--isolated)\n"
        "# named: scenarios\n"
        'profile = "builtin"\n'
        'select = ["SI", "EIO"]\n'
        "ignore = []\n"
        "per-file-ignores = {}\n" + DEFAULTS,
        "",
    )


def test_show_files_lists_the_files_a_check_would_report_on(tmp_path):
    write_files(
        tmp_path,
        {
            "si-lint.toml": 'exclude = ["drafts/"]\n',
            "scenarios/b.yaml": SCENARIO,
            "scenarios/a.yml": SCENARIO.replace("-001", "-002"),
            "scenarios/notes.txt": "not yaml\n",
            "fixtures/f.json": "{}\n",
            "drafts/d.yaml": SCENARIO,
        },
    )
    assert run_cli(["check", "--show-files"], tmp_path) == (
        0,
        "fixtures/f.json\nscenarios/a.yml\nscenarios/b.yaml\n",
        "",
    )
    # named paths: only theirs (the whole corpus is read, their findings reported)
    assert run_cli(["check", "--show-files", "scenarios/b.yaml", "fixtures"], tmp_path) == (
        0,
        "fixtures/f.json\nscenarios/b.yaml\n",
        "",
    )
    assert not (tmp_path / ".si-lint-cache").exists()


@pytest.mark.parametrize(
    "args,message",
    [
        (["--show-files", "--show-settings"], "--show-settings and --show-files"),
        (["--show-files", "--watch"], "--show-files and --watch"),
        (["--watch", "--write-baseline", "b.txt"], "--watch and --write-baseline"),
    ],
)
def test_the_modes_go_one_at_a_time(corpus, args, message):
    assert check(corpus, *args) == (2, "", f"si-lint: {message} cannot be used together\n")


def test_show_files_takes_paths_not_stdin(corpus):
    assert check(corpus, "--show-files", "-", "--stdin-filename", "scenarios/s.yaml") == (
        2,
        "",
        "si-lint: --show-files works on files, not on stdin (`-`)\n",
    )


# -- ruff's options that mean nothing here -----------------------------------------------


@pytest.mark.parametrize(
    "args,equivalent",
    [
        (["--line-length", "88"], "si-lint has no layout rules (yamllint checks layout)"),
        (
            ["--target-version", "py311"],
            "the profile decides: --profile or `profile` in si-lint.toml",
        ),
        (["--preview"], "every si-lint rule is stable (`si-lint rule`)"),
        (["--add-noqa"], "--write-baseline FILE, then --baseline FILE"),
        (["--extend-exclude", "drafts"], "`exclude` in si-lint.toml"),
        (["--per-file-ignores", "a.yaml:SI1"], "`per-file-ignores` in si-lint.toml"),
        (
            ["--unfixable", "SI101"],
            "--select/--ignore with --fix (the selected findings' fixes are applied)",
        ),
        (["--no-respect-gitignore"], "none: .gitignore always counts"),
    ],
)
def test_ruff_options_without_meaning_are_refused_naming_the_equivalent(corpus, args, equivalent):
    assert check(corpus, *args) == (
        2,
        "",
        f"si-lint: {args[0]} is a ruff option with no meaning for si-lint: {equivalent}\n",
    )


def test_help_names_ruffs_spellings(corpus):
    code, out, _ = run_cli(["check", "--help"], corpus)
    assert code == 0
    for spelling in (
        "--format, --output-format",
        "-o, --output, --output-file",
        "--extend-select",
        "--extend-ignore",
        "-e, --exit-zero",
        "--exit-non-zero-on-fix",
        "-s, --silent",
        "--fix / --no-fix",
        "--fix-only",
        "--isolated",
        "--show-settings",
        "--show-files",
        "-w, --watch",
        "-n, --no-cache",
        "SI_LINT_OUTPUT_FORMAT",
    ):
        assert spelling in out, spelling
    assert "--line-length" not in out  # the refused ones stay out of the help


def test_ruffs_inline_config_is_refused_naming_the_equivalents(corpus):
    assert check(corpus, "--config", "line-length = 100") == (
        2,
        "",
        "si-lint: --config 'line-length = 100': --config names a file; ruff's `--config "
        "KEY = VALUE` has no equivalent: --select, --ignore, --extend-select, --extend-ignore "
        "and --profile on the command line, anything else in si-lint.toml\n",
    )
