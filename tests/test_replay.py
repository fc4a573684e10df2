"""The replay memo (si_lint.replay): the same `check` command line, in the same directory
and environment, over an unchanged corpus prints what it printed, byte for byte, with the
same exit status -- without importing click or the pipeline; any change is a miss, and
the miss prints what a run without any cache prints. Each run is its own process, as a
user's is (the replay is decided in `cli.main`, before click)."""

from __future__ import annotations

import time

import pytest
from conftest import si_lint_process


def _si_lint(root, user_env, *args):
    """(exit status, stdout, whether the pipeline was imported) of one process."""
    code, out, _err, imported = si_lint_process(root, user_env, *args)
    return code, out, "si_lint.pipeline" in imported


def test_the_same_command_is_replayed(example_corpus, tmp_path, user_env):
    args = ("check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), ".")
    ref_code, ref_out, _ = _si_lint(
        example_corpus, user_env, "check", "--format", "json", "--no-cache", "."
    )
    assert ref_code == 1 and '"SI001"' in ref_out
    assert _si_lint(example_corpus, user_env, *args) == (ref_code, ref_out, True)  # records
    assert _si_lint(example_corpus, user_env, *args) == (ref_code, ref_out, False)  # replayed
    text = ("check", "--cache-dir", str(tmp_path / "cache"))
    text_ref = _si_lint(example_corpus, user_env, "check", "--no-cache")[:2]
    assert _si_lint(example_corpus, user_env, *text)[:2] == text_ref
    assert _si_lint(example_corpus, user_env, *text) == (*text_ref, False)


def _edits(root):
    scenario = sorted((root / "scenarios").glob("*.yaml"))[0]

    def edited():
        scenario.write_text(scenario.read_text().replace("id:", "id: [unclosed\nx:", 1))

    def new_file():
        (root / "fixtures" / "new.yaml").write_text("scenario_id: nowhere\n")

    def new_config_above():  # a configuration nearer the working directory: a new root
        (root / "scenarios" / "si-lint.toml").write_text("")

    return {"edited": edited, "new_file": new_file, "new_config": new_config_above}


@pytest.mark.parametrize("edit", ["edited", "new_file", "new_config", "env"])
def test_any_change_is_a_miss(example_corpus, tmp_path, user_env, edit):
    cwd = example_corpus / "scenarios" if edit == "new_config" else example_corpus
    args = ("check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), ".")
    first = _si_lint(cwd, user_env, *args)
    assert _si_lint(cwd, user_env, *args)[2] is False  # replayed
    if edit == "env":
        user_env = dict(user_env, NO_COLOR="1")
    else:
        _edits(example_corpus)[edit]()
        time.sleep(0.01)
    code, out, imported = _si_lint(cwd, user_env, *args)
    nocache = _si_lint(cwd, user_env, "check", "--format", "json", "--no-cache", ".")[:2]
    assert imported, "a change must go through the pipeline"
    assert (code, out) == nocache
    if edit != "env":
        assert (code, out) != first[:2], "the edit changes nothing: the case tests nothing"


def test_what_the_root_was_not_found_from_is_no_dependency(example_corpus, tmp_path, user_env):
    """The root is the nearest directory with a configuration: a configuration above it
    was never looked at, and does not void the record. A configuration between the
    working directory and the root does (test_any_change_is_a_miss); a ``.git`` above it
    does too, through the run memo (the ``.gitignore`` files of a work tree count)."""
    args = ("check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), ".")
    ref = _si_lint(example_corpus, user_env, *args)
    (example_corpus.parent / "si-lint.toml").write_text('select = ["SI0"]\n')
    assert _si_lint(example_corpus, user_env, *args) == (*ref[:2], False)


def test_github_actions_changes_the_default_format(example_corpus, tmp_path, user_env):
    args = ("check", "--cache-dir", str(tmp_path / "cache"))
    _si_lint(example_corpus, user_env, *args)
    assert _si_lint(example_corpus, user_env, *args)[2] is False
    code, out, imported = _si_lint(example_corpus, dict(user_env, GITHUB_ACTIONS="true"), *args)
    assert imported and out.startswith("::error ")


def test_runs_with_other_outputs_are_never_replayed(example_corpus, tmp_path, user_env):
    cache = str(tmp_path / "cache")
    report = tmp_path / "out.json"
    for args in (
        ("check", "--format", "json", "--cache-dir", cache, "-o", str(report)),
        ("check", "--format", "json", "--cache-dir", cache, "--verbose"),
        ("check", "--format", "json", "--no-cache"),
    ):
        _si_lint(example_corpus, user_env, *args)
        assert _si_lint(example_corpus, user_env, *args)[2] is True, args
    assert not (tmp_path / "user-cache" / "si-lint" / "replay").exists()


def test_each_command_line_keeps_its_record(example_corpus, tmp_path, user_env):
    """A run over a subdirectory between two whole runs does not take the whole run's
    record; a run over named files (pre-commit's staged files) records no replay (its
    options' parse is memoised: tests/test_parse_memo.py)."""
    cache = str(tmp_path / "cache")
    whole = ("check", "--format", "json", "--cache-dir", cache, ".")
    part = ("check", "--format", "json", "--cache-dir", cache, "scenarios")
    staged = ("check", "--format", "json", "--cache-dir", cache, "scenarios/broken.yaml")
    ref = _si_lint(example_corpus, user_env, *whole)
    _si_lint(example_corpus, user_env, *part)
    _si_lint(example_corpus, user_env, *staged)
    assert _si_lint(example_corpus, user_env, *whole) == (*ref[:2], False)
    assert _si_lint(example_corpus, user_env, *part)[2] is False
    assert len(list((tmp_path / "user-cache" / "si-lint" / "replay").iterdir())) == 2


def test_a_bad_record_is_a_miss(example_corpus, tmp_path, user_env):
    args = ("check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), ".")
    ref = _si_lint(example_corpus, user_env, *args)
    (record,) = (tmp_path / "user-cache" / "si-lint" / "replay").iterdir()
    body = record.read_bytes()
    for bad in (b"", b"not json", body.replace(b'"code":1', b'"code":0'), body[:-10]):
        record.write_bytes(bad)
        assert _si_lint(example_corpus, user_env, *args) == (*ref[:2], True)
