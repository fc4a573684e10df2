"""The configuration's `extend` key (issue 44, ruff's `extend`): a shared configuration
file to start from -- merged as ruff merges, relative to the file that names it, read only
inside the git work tree of the corpus root (SPEC §9 "Trust boundaries"), cycles and long
chains refused. Each through the CLI, whole outputs."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import run_cli, write_files
from test_check_ruff_options import DEFAULTS, S101, S113, TWO
from test_cli_conventions import SCENARIO

CONCISE = ["check", "--no-cache", "--format", "concise"]


def _repo(tmp_path, files: dict):
    """A git work tree at ``tmp_path`` holding ``files`` (a corpus under ``corp/``)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_files(tmp_path, {"corp/scenarios/s.yaml": SCENARIO, **files})
    return tmp_path


def _settings(tmp_path, *args):
    return run_cli(["check", "--show-settings", *args, "corp"], tmp_path)


def test_extend_merges_the_shared_file_under_the_corpus_configuration(tmp_path):
    _repo(
        tmp_path,
        {
            "base.toml": '# shared\nignore = ["SI6"]\nexclude = ["drafts/"]\n'
            'require-fixtures = true\nselect = ["SI1", "SI3"]\n',
            "corp/si-lint.toml": 'extend = "../base.toml"\nignore = ["SI306"]\n'
            "require-fixtures = false\n",
        },
    )
    assert _settings(tmp_path) == (
        0,
        "# corpus root: corp (found by: config)\n"
        "# configuration file: corp/si-lint.toml\n"
        "# extends: base.toml\n"
        "# named: corp\n"
        'profile = "builtin"\n'
        'select = ["SI1", "SI3"]\n'
        'ignore = ["SI6", "SI306"]\n'  # ignore accumulates while the corpus sets no select
        "per-file-ignores = {}\n"
        'include = ["**/*.yaml", "**/*.yml", "**/*.json"]\n'
        'exclude = ["drafts/"]\n'
        "require-fixtures = false\n"  # the corpus's own setting wins
        "require-band-coverage = false\n"
        "require-form-b = false\n",
        "",
    )
    code, out, err = run_cli([*CONCISE, "corp"], tmp_path)
    assert (code, err) == (1, "")
    assert out == (S101 + S113).replace("scenarios/", "corp/scenarios/")


def test_a_select_starts_afresh_dropping_the_extended_ignore(tmp_path):
    _repo(
        tmp_path,
        {
            "base.toml": 'ignore = ["SI101"]\n',
            "corp/si-lint.toml": 'extend = "../base.toml"\nselect = ["SI101", "SI113"]\n',
        },
    )
    code, out, _ = _settings(tmp_path)
    assert (code, out.splitlines()[5:7]) == (0, ['select = ["SI101", "SI113"]', "ignore = []"])
    assert run_cli([*CONCISE, "corp"], tmp_path) == (
        1,
        (S101 + S113).replace("scenarios/", "corp/scenarios/"),
        "",
    )


def test_a_chain_is_followed_each_path_relative_to_the_file_naming_it(tmp_path):
    _repo(
        tmp_path,
        {
            "shared/org.toml": 'ignore = ["SI306"]\n',
            "shared/team.toml": 'extend = "org.toml"\nignore = ["SI1"]\n',
            "corp/si-lint.toml": 'extend = "../shared/team.toml"\n',
        },
    )
    code, out, err = _settings(tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[:7] == [
        "# corpus root: corp (found by: config)",
        "# configuration file: corp/si-lint.toml",
        "# extends: shared/team.toml",
        "# extends: shared/org.toml",
        "# named: corp",
        'profile = "builtin"',
        'select = ["SI", "EIO"]',
    ]
    assert out.splitlines()[7] == 'ignore = ["SI306", "SI1"]'


def test_a_pyproject_toml_is_extended_by_its_tool_table(tmp_path):
    _repo(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "x"\n[tool.si-lint]\nignore = ["SI306"]\n',
            "corp/pyproject.toml": '[tool.si-lint]\nextend = "../pyproject.toml"\n',
        },
    )
    code, out, _ = _settings(tmp_path)
    assert code == 0 and 'ignore = ["SI306"]' in out.splitlines()


def test_extend_outside_the_work_tree_is_refused(tmp_path):
    work = tmp_path / "work"
    _repo(work, {"corp/si-lint.toml": 'extend = "../../base.toml"\n'})
    write_files(tmp_path, {"base.toml": 'ignore = ["SI1"]\n'})
    toml = work / "corp" / "si-lint.toml"
    assert run_cli([*CONCISE, "corp"], work) == (
        2,
        "",
        f"si-lint: {toml}: `extend` '../../base.toml' leads outside {work.resolve()} (the "
        "git work tree of the corpus root, or the root): not read (SPEC §9 trust "
        "boundaries; name a configuration elsewhere with --config)\n",
    )


def test_outside_any_work_tree_extend_stays_inside_the_corpus_root(tmp_path):
    write_files(
        tmp_path,
        {
            "base.toml": 'ignore = ["SI1"]\n',
            "corp/conf/base.toml": 'ignore = ["SI101"]\n',
            "corp/scenarios/s.yaml": SCENARIO,
            "corp/si-lint.toml": 'extend = "conf/base.toml"\n',
        },
    )
    corp = tmp_path / "corp"
    assert run_cli([*CONCISE, *TWO], corp) == (0, S113, "")
    (corp / "si-lint.toml").write_text('extend = "../base.toml"\n', encoding="utf-8")
    code, out, err = run_cli([*CONCISE, *TWO], corp)
    assert (code, out) == (2, "")
    assert err.startswith(f"si-lint: {corp / 'si-lint.toml'}: `extend` '../base.toml' leads ")


def test_a_link_out_of_the_work_tree_is_refused(tmp_path):
    work = tmp_path / "work"
    _repo(work, {"corp/si-lint.toml": 'extend = "base.toml"\n'})
    write_files(tmp_path, {"secret.toml": 'ignore = ["SI1"]\n'})
    os.symlink(tmp_path / "secret.toml", work / "corp" / "base.toml")
    code, out, err = run_cli([*CONCISE, "corp"], work)
    assert (code, out) == (2, "")
    assert "`extend` 'base.toml' leads outside" in err


@pytest.mark.parametrize(
    "value,why",
    [
        ('"/etc/si-lint.toml"', "'/etc/si-lint.toml' is not relative to the configuration file"),
        ('"~/base.toml"', "'~/base.toml' is not relative to the configuration file"),
    ],
)
def test_absolute_and_home_paths_are_refused(tmp_path, value, why):
    _repo(tmp_path, {"corp/si-lint.toml": f"extend = {value}\n"})
    toml = tmp_path / "corp" / "si-lint.toml"
    assert run_cli([*CONCISE, "corp"], tmp_path) == (
        2,
        "",
        f"si-lint: {toml}: `extend` {why} (a committed configuration names a file of its "
        "own work tree)\n",
    )


def test_a_cycle_is_a_configuration_error(tmp_path):
    _repo(
        tmp_path,
        {
            "a.toml": 'extend = "b.toml"\n',
            "b.toml": 'extend = "corp/si-lint.toml"\n',
            "corp/si-lint.toml": 'extend = "../a.toml"\n',
        },
    )
    t = tmp_path
    assert run_cli([*CONCISE, "corp"], tmp_path) == (
        2,
        "",
        f"si-lint: {t / 'b.toml'}: `extend` makes a cycle: {t / 'corp/si-lint.toml'} -> "
        f"{t / 'a.toml'} -> {t / 'b.toml'} -> {t / 'corp/si-lint.toml'}\n",
    )


def test_a_chain_longer_than_eight_files_is_refused(tmp_path):
    files = {f"c{i}.toml": f'extend = "c{i + 1}.toml"\n' for i in range(9)}
    files["c9.toml"] = ""
    files["corp/si-lint.toml"] = 'extend = "../c0.toml"\n'
    _repo(tmp_path, files)
    assert run_cli([*CONCISE, "corp"], tmp_path) == (
        2,
        "",
        f"si-lint: {tmp_path / 'c7.toml'}: `extend` chain longer than 8 files\n",
    )


def test_errors_in_an_extended_file_name_that_file(tmp_path):
    _repo(
        tmp_path,
        {"base.toml": 'select = ["SI9x"]\n', "corp/si-lint.toml": 'extend = "../base.toml"\n'},
    )
    code, out, err = run_cli([*CONCISE, "corp"], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: {tmp_path / 'base.toml'}: invalid si-lint configuration: `select[0]` must "
        "match `^[A-Z]+[0-9]*$` (a rule code or code prefix in capitals, e.g. `SI1`, `EIO`, "
        '`SI306`), not a string "SI9x"\n'
    )
    (tmp_path / "base.toml").write_text("profile = 3\n", encoding="utf-8")
    code, out, err = run_cli([*CONCISE, "corp"], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: {tmp_path / 'base.toml'}: invalid si-lint configuration: `profile` must "
        "be a string, not an integer 3\n"
    )
    (tmp_path / "base.toml").unlink()
    code, out, err = run_cli([*CONCISE, "corp"], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: {tmp_path / 'base.toml'}: cannot read configuration: No such file or directory\n"
    )


def test_a_profile_refused_in_an_extended_file_is_reported_there(tmp_path):
    _repo(
        tmp_path,
        {
            "base.toml": '# shared\nignore = ["SI6"]\nprofile = "../elsewhere"\n',
            "corp/si-lint.toml": 'extend = "../base.toml"\n',
        },
    )
    assert run_cli([*CONCISE, "--select", "SI010", "corp"], tmp_path) == (
        1,
        "base.toml:3:11: SI010 [error] `profile` '../elsewhere' leads outside the corpus "
        "root: not used (a profile named in a configuration file must be a directory "
        "inside the corpus root)\n",
        "",
    )


def test_a_change_to_the_extended_file_is_seen_through_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    _repo(
        tmp_path,
        {"base.toml": "", "corp/si-lint.toml": 'extend = "../base.toml"\n'},
    )
    cached = ["check", "--format", "concise", *TWO, "corp"]
    both = (S101 + S113).replace("scenarios/", "corp/scenarios/")
    assert run_cli(cached, tmp_path) == (1, both, "")
    (tmp_path / "base.toml").write_text('ignore = ["SI101"]\n', encoding="utf-8")
    assert run_cli(cached, tmp_path) == (0, S113.replace("scenarios/", "corp/scenarios/"), "")


def test_isolated_reads_no_extended_file_either(tmp_path):
    _repo(
        tmp_path,
        {"base.toml": 'ignore = ["SI1"]\n', "corp/si-lint.toml": 'extend = "../base.toml"\n'},
    )
    code, out, _ = run_cli(["check", "--show-settings", "--isolated", "corp"], tmp_path)
    assert code == 0
    assert out == (
        "# corpus root: . (found by: git)\n"
        "# configuration file: none (--isolated)\n"
        "# named: corp\n"
        'profile = "builtin"\n'
        'select = ["SI", "EIO"]\n'
        "ignore = []\n"
        "per-file-ignores = {}\n" + DEFAULTS
    )


def test_the_corpus_configuration_is_checked_before_any_file_it_extends_is_read(tmp_path):
    _repo(tmp_path, {"corp/si-lint.toml": 'extend = "../missing.toml"\nfail-on = "x"\n'})
    assert run_cli([*CONCISE, "corp"], tmp_path) == (
        2,
        "",
        f"si-lint: {tmp_path / 'corp/si-lint.toml'}: invalid si-lint configuration: "
        "unexpected key `fail-on` in the document; allowed keys: `profile`, `select`, "
        "`ignore`, `per-file-ignores`, `include`, `exclude`, `require-fixtures`, "
        "`require-band-coverage`, `require-form-b` and `extend`\n",
    )
