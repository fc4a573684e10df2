"""The GitHub Action (issue 44): its si-lint step, run as the runner runs it (bash
``-eo pipefail``, ``GITHUB_OUTPUT``, the event's names in the environment), lints once:
the annotations on stdout, the SARIF file and the exit status come from that one run; a
pull request from a fork skips the upload with a notice. And ``--sarif-file`` itself."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO, SI101_SI113_SCENARIO, run_cli, write_files

from si_lint import REPOSITORY_URL, rule_url

SCENARIO = SI101_SI113_SCENARIO
ARGS = "--no-cache --select SI101,SI113"


@pytest.fixture
def corpus(tmp_path):
    write_files(tmp_path, {"corpus/si-lint.toml": "", "corpus/scenarios/s.yaml": SCENARIO})
    return tmp_path


def _lint_step() -> str:
    from si_lint.loader import load_bytes

    action = load_bytes((REPO / "action.yml").read_bytes()).data
    (step,) = [s for s in action["runs"]["steps"] if s.get("id") == "lint"]
    return step["run"]


def _run_step(cwd, *, event="push", head="", **inputs):
    """The lint step in ``cwd`` as the runner runs it; (status, stdout, outputs)."""
    env = {
        **os.environ,
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        "GITHUB_OUTPUT": str(cwd / "github_output"),
        "GITHUB_EVENT_NAME": event,
        "GITHUB_REPOSITORY": "acme/corpus",
        "SI_LINT_HEAD_REPO": head,
        "SI_LINT_PATHS": "corpus",
        "SI_LINT_ARGS": ARGS,
        "SI_LINT_SARIF": "si-lint.sarif",
        "SI_LINT_CATEGORY": "si-lint",
        "SI_LINT_FAIL_ON": "error",
        "SI_LINT_ANNOTATE": "true",
        "SI_LINT_UPLOAD": "true",
    }
    env.pop("GITHUB_ACTIONS", None)
    env.update({f"SI_LINT_{k.upper()}": v for k, v in inputs.items()})
    (cwd / "github_output").write_text("", encoding="utf-8")
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _lint_step()],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    outputs = (cwd / "github_output").read_text(encoding="utf-8")
    return proc.returncode, proc.stdout, outputs


def _alone(args, cwd):
    """si-lint run on its own (in-process) with the action's arguments."""
    return run_cli(["check", "corpus", *ARGS.split(), *args], cwd)


def test_one_run_gives_the_annotations_the_sarif_file_and_the_status(corpus):
    code, out, outputs = _run_step(corpus)
    assert code == 0 and outputs == "status=1\nupload=true\n"
    annotations = _alone(["--format", "github"], corpus)
    assert annotations[0] == 1 and out == annotations[1]
    assert out.count("::error ") == 1 and out.count("::warning ") == 1
    sarif = _alone(["--format", "sarif", "--automation-id", "si-lint"], corpus)[1]
    assert (corpus / "si-lint.sarif").read_text(encoding="utf-8") == sarif


def test_a_pull_request_from_a_fork_skips_the_upload_with_a_notice(corpus):
    code, out, outputs = _run_step(corpus, event="pull_request", head="someone/corpus")
    assert code == 0 and outputs == "status=1\nupload=false\n"
    assert out.splitlines()[-1] == (
        "::notice title=si-lint::SARIF upload skipped: a pull request from a fork "
        "(someone/corpus) gets a token that cannot write security events; the annotations "
        "and the exit status above still apply"
    )
    # the same repository's pull request uploads; upload: false neither uploads nor notes
    assert _run_step(corpus, event="pull_request", head="acme/corpus")[2].endswith("upload=true\n")
    code, out, outputs = _run_step(corpus, event="pull_request", head="x/y", upload="false")
    assert outputs == "status=1\nupload=false\n" and "::notice" not in out


def test_fail_on_and_annotate_inputs(corpus):
    assert _run_step(corpus, fail_on="never")[2] == "status=0\nupload=true\n"
    assert _run_step(corpus, fail_on="warning")[2] == "status=1\nupload=true\n"
    code, out, _ = _run_step(corpus, annotate="false")
    assert out == _alone(["--format", "text", "--color", "never"], corpus)[1]


def test_a_usage_error_keeps_its_status_and_uploads_nothing(corpus):
    code, out, outputs = _run_step(corpus, args="--select XX9")
    assert (code, out, outputs) == (0, "", "status=2\nupload=false\n")
    assert not (corpus / "si-lint.sarif").exists()


def test_sarif_file_beside_another_format(corpus):
    args = ["--format", "json", "--sarif-file", "out.sarif", "--automation-id", "ci"]
    code, out, err = _alone(args, corpus)
    assert (code, out, err) == _alone(["--format", "json"], corpus)
    sarif = _alone(["--format", "sarif", "--automation-id", "ci"], corpus)[1]
    assert (corpus / "out.sarif").read_text(encoding="utf-8") == sarif
    assert _alone(["--sarif-file", "/missing/dir/x.sarif"], corpus) == (
        2,
        "",
        "si-lint: cannot write /missing/dir/x.sarif: No such file or directory\n",
    )


def test_rule_urls_and_the_readme_name_no_tag_the_repository_lacks():
    assert rule_url("SI105") == f"{REPOSITORY_URL}/blob/main/docs/rules/SI105.md"
    assert (REPO / "docs" / "rules" / "SI105.md").is_file()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "si-lint@main" in readme and "@v0.2.0" not in readme


@pytest.mark.parametrize("flag", ["--sarif-file", "--write-baseline"])
def test_a_command_that_writes_a_file_is_never_replayed(example_corpus, tmp_path, user_env, flag):
    """The replay memo answers a command line that printed its report alone: one that
    also writes a file runs again (the file is written each time), as its own process."""
    from conftest import si_lint_process

    args = ("check", "--format", "github", "--cache-dir", str(tmp_path / "cache"))
    args += (flag, "out.file", ".")
    runs = []
    for _ in range(3):
        (example_corpus / "out.file").unlink(missing_ok=True)
        code, out, _err, imported = si_lint_process(example_corpus, user_env, *args)
        runs.append((code, out, (example_corpus / "out.file").read_bytes()))
        assert "si_lint.pipeline" in imported  # run, not replayed
    assert runs[0] == runs[1] == runs[2]
    assert runs[0][0] == (1 if flag == "--sarif-file" else 0)
