"""The parse memo (si_lint.replay.parsed): a `check` command line whose options click
parsed before, followed by other named files (pre-commit's staged files), runs the check
command without importing click -- and prints, byte for byte, what the command line run
through click prints, with the same exit status and the same stderr. Each run is its own
process, as a user's is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import si_lint_process

from si_lint.errors import UsageError


def _si_lint(root, user_env, *args):
    """(exit status, stdout, stderr, whether click was imported) of one process."""
    code, out, err, imported = si_lint_process(root, user_env, *args)
    return code, out, err, "click" in imported


def _parse_records(tmp_path):
    directory = tmp_path / "user-cache" / "si-lint" / "parse"
    return sorted(directory.iterdir()) if directory.exists() else []


def _through_click(example_corpus, tmp_path, user_env, *args):
    """What ``args`` prints when click parses it (a user cache without parse records)."""
    home = tmp_path / "other-user-cache"
    shutil.rmtree(home, ignore_errors=True)
    got = _si_lint(example_corpus, dict(user_env, XDG_CACHE_HOME=str(home)), *args)
    assert got[3] is True
    return got[:3]


STAGED = ("scenarios/broken.yaml", "scenarios/platform-oncall.yaml")


@pytest.mark.parametrize(
    "options",
    [
        ("--format", "json"),
        ("--format", "sarif"),
        (),  # text, pre-commit's
        ("--color", "always"),  # click's styles, byte for byte
        ("--statistics", "--fail-on", "warning"),
        ("--quiet", "--select", "SI0"),
    ],
)
def test_named_files_after_the_same_options_skip_click(example_corpus, tmp_path, user_env, options):
    cache = ("--cache-dir", str(tmp_path / "cache"))
    whole = ("check", *options, *cache, ".")
    _si_lint(example_corpus, user_env, *whole)  # click parses the options: recorded
    assert len(_parse_records(tmp_path)) == 1
    for staged in (STAGED[:1], STAGED, ("scenarios",)):
        args = ("check", *options, *cache, *staged)
        expected = _through_click(example_corpus, tmp_path, user_env, *args)
        assert expected[0] in (0, 1)
        assert _si_lint(example_corpus, user_env, *args) == (*expected, False), staged


def test_a_staged_file_the_memos_answer_imports_only_what_the_answer_needs(
    example_corpus, tmp_path, user_env
):
    """pre-commit's run (the parse memo, then the run memo) imports neither click nor
    ``dataclasses`` (its import and the code ``@dataclass`` generates were a quarter of
    that run), nor the loader, the checks or the corpus."""
    cache = ("--cache-dir", str(tmp_path / "cache"))
    args = ("check", "--format", "json", *cache, STAGED[1])
    expected = _through_click(example_corpus, tmp_path, user_env, *args)
    # the cache is signed with the user cache's key: filled again under this user's
    si_lint_process(example_corpus, user_env, "check", "--format", "json", *cache, ".")
    code, out, err, imported = si_lint_process(example_corpus, user_env, *args)
    assert (code, out, err) == expected
    assert "si_lint.commands.check_run" in imported  # the parse memo answered
    unwanted = {"click", "dataclasses", "si_lint.loader", "si_lint.checks", "si_lint.corpus"}
    assert unwanted & imported == set()


def test_the_errors_of_a_memoised_parse_are_clicks(example_corpus, tmp_path, user_env):
    """A named file that is not there, and an option a check refuses, say what they say
    through click, with exit status 2."""
    cache = ("--cache-dir", str(tmp_path / "cache"))
    _si_lint(example_corpus, user_env, "check", *cache, "scenarios/broken.yaml")
    sarif_only = ("check", "--automation-id", "x", *cache)
    _si_lint(
        example_corpus, user_env, *sarif_only, "scenarios/broken.yaml"
    )  # a usage error: recorded
    for args in (
        ("check", *cache, "no/such.yaml"),
        (*sarif_only, "scenarios/platform-oncall.yaml"),
    ):
        expected = _through_click(example_corpus, tmp_path, user_env, *args)
        assert expected[0] == 2 and expected[2].startswith("si-lint: ")
        assert _si_lint(example_corpus, user_env, *args) == (*expected, False)


def test_what_the_parse_memo_does_not_answer(example_corpus, tmp_path, user_env):
    cache = str(tmp_path / "cache")
    _si_lint(example_corpus, user_env, "check", "--format", "json", "--cache-dir", cache, ".")
    for args in (
        ("check", "--format", "text", "--cache-dir", cache, "scenarios/broken.yaml"),  # options
        ("check", "--format", "json", "--cache-dir", cache),  # no path
        ("check", "--format", "json", "--cache-dir", cache, "-q", "scenarios/broken.yaml"),
        ("check", "--format", "json", "--cache-dir", cache, "scenarios/broken.yaml", "-q"),
        ("check", "scenarios/broken.yaml", "--format", "json", "--cache-dir", cache),
    ):
        assert _si_lint(example_corpus, user_env, *args)[3] is True, args
    # an environment variable click reads (--cache-dir's)
    args = ("check", "--format", "json", "--cache-dir", cache, "scenarios/broken.yaml")
    assert _si_lint(example_corpus, user_env, *args)[3] is False
    assert _si_lint(example_corpus, dict(user_env, SI_LINT_CACHE_DIR=cache), *args)[3] is True


def test_after_a_double_dash(example_corpus, tmp_path, user_env):
    cache = ("--cache-dir", str(tmp_path / "cache"))
    _si_lint(example_corpus, user_env, "check", *cache, "--", "scenarios/broken.yaml")
    args = ("check", *cache, "--", "scenarios/platform-oncall.yaml", "scenarios/broken.yaml")
    expected = _through_click(example_corpus, tmp_path, user_env, *args)
    assert _si_lint(example_corpus, user_env, *args) == (*expected, False)


def test_a_bad_parse_record_is_a_miss(example_corpus, tmp_path, user_env):
    cache = ("--cache-dir", str(tmp_path / "cache"))
    _si_lint(example_corpus, user_env, "check", "--format", "json", *cache, ".")
    (record,) = _parse_records(tmp_path)
    body = record.read_bytes()
    args = ("check", "--format", "json", *cache, "scenarios/broken.yaml")
    expected = _through_click(example_corpus, tmp_path, user_env, *args)
    for bad in (
        b"",
        b"not json",
        body.replace(b'"quiet":false', b'"quiet":true'),  # the signature no longer holds
        body[:-10],
    ):
        record.write_bytes(bad)
        assert _si_lint(example_corpus, user_env, *args) == (*expected, True)
    record.unlink()
    _si_lint(example_corpus, user_env, *args)  # click parses it again: recorded again
    assert _si_lint(example_corpus, user_env, *args) == (*expected, False)


def test_the_recorded_fields_are_the_commands_parameters():
    """The record holds every parameter of the check command but the paths, and the
    environment variables its parameters read are in the memo's key."""
    from si_lint import replay
    from si_lint.commands.check import command
    from si_lint.commands.check_run import CheckArgs

    params = {p.name for p in command.params}
    assert params == set(CheckArgs.FIELDS)
    for p in command.params:
        for var in [p.envvar] if isinstance(p.envvar, str) else (p.envvar or ()):
            assert var in replay.ENV, var


@pytest.mark.parametrize(
    "exc, stderr",
    [
        (KeyboardInterrupt(), "\nAborted!\n"),
        (EOFError(), "\nAborted!\n"),
        (UsageError("x.yaml: no such file"), "si-lint: x.yaml: no such file\n"),
    ],
)
def test_an_error_or_interrupt_ends_as_under_click(monkeypatch, capsys, tmp_path, exc, stderr):
    """``cli._check`` (the memoised parse) and click's ``main`` around the same command:
    the same output and exit status when the command is refused or interrupted."""
    from si_lint import cli
    from si_lint.commands import check_run
    from si_lint.commands.group import cli as group

    def refused(a):
        raise exc

    monkeypatch.setattr(check_run, "run", refused)
    monkeypatch.setattr("si_lint.commands.check.run", refused)
    fields = {f: None for f in check_run.CheckArgs.FIELDS}
    status = cli._check(dict(fields, paths=("x.yaml",)))
    ours = capsys.readouterr()
    with pytest.raises(SystemExit) as ended:
        group.main(args=["check", "--cache-dir", str(tmp_path), "x.yaml"], standalone_mode=True)
    theirs = capsys.readouterr()
    assert (status, ours.out, ours.err) == (ended.value.code, theirs.out, theirs.err)
    assert ours.err == stderr


def test_a_closed_stdout_is_a_quiet_exit_1(example_corpus, tmp_path, user_env):
    """`si-lint check FILE | head -0` on a memoised parse: exit status 1, nothing on
    stderr (click's handling of a broken pipe)."""
    cache = ("--cache-dir", str(tmp_path / "cache"))
    _si_lint(example_corpus, user_env, "check", *cache, "scenarios/broken.yaml")
    fresh = dict(user_env, XDG_CACHE_HOME=str(tmp_path / "fresh"))
    for run_env in (fresh, user_env):  # through click, then through the memoised parse
        r, w = os.pipe()
        os.close(r)
        proc = subprocess.run(
            [sys.executable, "-m", "si_lint.cli", "check", *cache, "scenarios/broken.yaml"],
            cwd=example_corpus,
            env=run_env,
            stdout=w,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
        os.close(w)
        assert (proc.returncode, proc.stderr) == (1, "")


def test_a_changed_file_takes_the_configuration_the_run_memo_validated(
    example_corpus, tmp_path, user_env
):
    """When only a file changed since the run memo's run (its key, which holds the
    configuration file's digest, is this run's), the configuration table it parsed and
    validated is taken as it is: no TOML is parsed. The output is a fresh check's."""
    import os
    import time

    cache = ("--cache-dir", str(tmp_path / "cache"))
    args = ("check", "--format", "json", *cache, ".")
    si_lint_process(example_corpus, user_env, *args)
    fixture = sorted((example_corpus / "fixtures").rglob("*.yaml"))[0]
    fixture.write_text(fixture.read_text() + "# edited\n")
    past = time.time() - 30
    os.utime(fixture, (past, past))  # edited, but not racy
    code, out, err, imported = si_lint_process(example_corpus, user_env, *args)
    fresh = si_lint_process(example_corpus, user_env, "check", "--format", "json", "--no-cache")
    assert (code, out) == fresh[:2]
    assert "si_lint.loader" in imported  # the changed file was checked
    assert "tomllib" not in imported
