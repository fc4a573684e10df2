"""pre-commit integration (SPEC §9, issue 14), with the real pre-commit in a temporary git
repository that holds more than a corpus: the example corpus in `corpus/`, a Helm chart,
a CloudFormation template, a `tsconfig.json` with comments, a 9 MB `package-lock.json` and
a gitignored `build/` directory with broken YAML. The configuration is `[tool.si-lint]`
in the repository's `pyproject.toml` (`include` names the corpus), so the hooks need no
`files:` regex.

- `pre-commit try-repo` installs the hooks of this checkout (`.pre-commit-hooks.yaml`) and
  runs both on `--all-files`: they pass, and the corpus hook's corpus root is the
  repository root, where the configuration is (it reports `corpus/...` paths).
- Seven subset cases stage a change and run the per-file hook the way pre-commit calls it
  (the staged files only, unstaged changes stashed). For speed these use the same hook
  definitions from `.pre-commit-hooks.yaml` as local `language: system` hooks running the
  si-lint of this test environment (no hook environment to build per case).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "fixtures" / "corpus"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]

PYPROJECT = """\
[project]
name = "monorepo"
version = "0"

[tool.si-lint]
include = ["corpus/**/*.yaml", "corpus/**/*.yml", "corpus/**/*.json"]
profile = "builtin"
require-fixtures = true
require-band-coverage = true
# as in the corpus's own si-lint.toml: a Form A scenario not yet decomposed
per-file-ignores = {"corpus/scenarios/platform-oncall.yaml" = ["SI115"]}
"""

HELM_CHART = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
HELM_TEMPLATE = """\
{{- if .Values.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.name }}
{{- end }}
"""
CLOUDFORMATION = """\
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "${AWS::StackName}-logs"
"""
TSCONFIG = (
    '{\n  // comments are fine in tsconfig.json\n  "compilerOptions": {"strict": true,},\n}\n'
)


def _pre_commit() -> list[str] | None:
    exe = shutil.which("pre-commit")
    if exe:
        return [exe]
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _env(home: Path) -> dict:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)  # plain text output, as on a developer's machine
    env.pop("FORCE_COLOR", None)
    # `language: system` hooks find the si-lint of this test environment first
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def _package_lock() -> str:
    deps = {
        f"node_modules/pkg-{i:05d}": {
            "version": "1.0.0",
            "resolved": f"https://registry.example/pkg-{i:05d}/-/pkg-{i:05d}-1.0.0.tgz",
            "integrity": "sha512-" + "A" * 86 + "==",
        }
        for i in range(45000)
    }
    return json.dumps({"name": "monorepo", "lockfileVersion": 3, "packages": deps}, indent=2)


def _make_repo(root: Path) -> Path:
    repo = root / "repo"
    shutil.copytree(EXAMPLE, repo / "corpus", ignore=shutil.ignore_patterns(".si-lint-cache"))
    (repo / "corpus" / "si-lint.toml").unlink()  # the configuration is the repository's
    files = {
        "pyproject.toml": PYPROJECT,
        "chart/Chart.yaml": HELM_CHART,
        "chart/templates/deployment.yaml": HELM_TEMPLATE,
        "infra/stack.yaml": CLOUDFORMATION,
        "tsconfig.json": TSCONFIG,
        ".gitignore": "build/\n.si-lint-cache/\n",
        "build/out.yaml": "id: [unclosed\n",
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    (repo / "package-lock.json").write_text(_package_lock(), encoding="utf-8")
    assert (repo / "package-lock.json").stat().st_size > 9 * 1024 * 1024
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "monorepo")
    return repo


def _local_config() -> str:
    """`.pre-commit-config.yaml` with this checkout's hook definitions as local hooks."""
    from si_lint.loader import load_bytes

    hooks = load_bytes((REPO / ".pre-commit-hooks.yaml").read_bytes()).data
    lines = ["repos:", "  - repo: local", "    hooks:"]
    for hook in hooks:
        local = dict(hook, language="system")
        lines.append(f"      - {json.dumps(local, sort_keys=True)}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory):
    if _pre_commit() is None:
        pytest.fail(
            "pre-commit is not installed: install the `test` extra (pip install -e '.[test]')"
        )
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return _make_repo(tmp_path_factory.mktemp("precommit"))


def test_try_repo_both_hooks_pass_on_a_monorepo(monorepo, tmp_path):
    if not (REPO / ".git").exists():
        pytest.skip("the checkout under test is not a git repository (try-repo needs one)")
    pc = _pre_commit()
    proc = subprocess.run(
        [*pc, "try-repo", str(REPO), "--all-files", "--verbose"],
        cwd=monorepo,
        env=_env(tmp_path / "pc-home"),
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    lines = proc.stdout.splitlines()
    assert any(line.startswith("si-lint.") and line.endswith("Passed") for line in lines), out
    assert any(
        line.startswith("si-lint (whole corpus)") and line.endswith("Passed") for line in lines
    ), out
    for noise in ("chart/", "infra/", "tsconfig.json", "package-lock.json", "build/"):
        assert noise not in proc.stdout, out
    assert _git(monorepo, "status", "--porcelain") == ""  # the hooks changed nothing


def _run_hook(repo: Path, hook: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*_pre_commit(), "run", hook, "--verbose", "--config", ".pre-commit-config.yaml"],
        cwd=repo,
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=600,
    )


SID = "infra.capability.da.alertmanager-smarthost-001"


def _scenario_file(repo: Path, sid: str = SID) -> Path:
    for path in sorted((repo / "corpus" / "scenarios").glob("*.yaml")):
        if f"id: {sid}" in path.read_text(encoding="utf-8"):
            return path
    raise AssertionError(f"no scenario {sid} in the example corpus")


def _fixture_of(repo: Path, sid: str = SID) -> Path:
    for path in sorted((repo / "corpus" / "fixtures").rglob("*.yaml")):
        if f"scenario: {sid}" in path.read_text(encoding="utf-8"):
            return path
    raise AssertionError(f"no fixture of {sid}")


def _case_clean_edit(repo):
    s = _scenario_file(repo)
    s.write_text(s.read_text(encoding="utf-8") + "# reviewed\n", encoding="utf-8")
    return [s], None


def _case_widened_channel(repo):
    s = _scenario_file(repo)
    text = s.read_text(encoding="utf-8")
    assert "[agent_response]" in text
    s.write_text(
        text.replace("[agent_response]", "[agent_response, reasoning_trace]", 1), encoding="utf-8"
    )
    return [s], (s, "SI105")


def _case_duplicate_sorting_last(repo):
    s = _scenario_file(repo)
    new = s.parent / "zz-copy.yaml"
    new.write_text(s.read_text(encoding="utf-8"), encoding="utf-8")
    return [new], (new, "SI301")


def _case_duplicate_sorting_first(repo):
    s = _scenario_file(repo)
    new = s.parent / "aa-copy.yaml"
    new.write_text(s.read_text(encoding="utf-8"), encoding="utf-8")
    return [new], (s, "SI301")  # the later file in path order carries it; the staged one is related


def _case_dangling_fixture_after_id_change(repo):
    s = _scenario_file(repo)
    s.write_text(
        s.read_text(encoding="utf-8").replace(f"id: {SID}", f"id: {SID[:-3]}009"), encoding="utf-8"
    )
    return [s], (_fixture_of(repo), "SI303")


def _case_wrong_fixture_expectation(repo):
    f = _fixture_of(repo)
    text = f.read_text(encoding="utf-8")
    assert "score: 1.0" in text
    f.write_text(text.replace("score: 1.0", "score: 0.5", 1), encoding="utf-8")
    return [f], (f, "SI401")


def _case_unrelated_files(repo):
    t = repo / "chart" / "templates" / "deployment.yaml"
    t.write_text(t.read_text(encoding="utf-8") + "{{/* more */}}\n", encoding="utf-8")
    ts = repo / "tsconfig.json"
    ts.write_text(ts.read_text(encoding="utf-8").replace("true", "false"), encoding="utf-8")
    return [t, ts], None


CASES = [
    _case_clean_edit,
    _case_widened_channel,
    _case_duplicate_sorting_last,
    _case_duplicate_sorting_first,
    _case_dangling_fixture_after_id_change,
    _case_wrong_fixture_expectation,
    _case_unrelated_files,
]


def test_seven_subset_cases_with_staged_files(monorepo, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(monorepo, repo, symlinks=True)
    (repo / ".pre-commit-config.yaml").write_text(_local_config(), encoding="utf-8")
    _git(repo, "add", ".pre-commit-config.yaml")
    _git(repo, "commit", "-q", "-m", "hooks")
    right = []
    for case in CASES:
        staged, expect = case(repo)
        _git(repo, "add", *[str(p.relative_to(repo)) for p in staged])
        proc = _run_hook(repo, "si-lint", tmp_path / "pc-home")
        out = proc.stdout + proc.stderr
        if expect is None:
            ok = proc.returncode == 0
        else:
            path, code = expect
            rel = path.relative_to(repo).as_posix()
            ok = proc.returncode == 1 and any(
                line.startswith(f"{rel}:") and f" {code} [" in line
                for line in proc.stdout.splitlines()
            )
        right.append((case.__name__, ok, "" if ok else out[-3000:]))
        _git(repo, "reset", "-q", "--hard")
        _git(repo, "clean", "-qfd", "-e", "build/")
    assert [name for name, ok, _ in right if not ok] == [], [r for r in right if not r[1]]
    assert len(right) == 7


def test_corpus_hook_runs_at_the_corpus_root_with_its_configuration(monorepo, tmp_path):
    """With `include` at the repository root, the corpus hook (no file names) lints the
    corpus with that configuration: `require-fixtures` makes a scenario without fixtures an
    error there."""
    repo = tmp_path / "repo"
    shutil.copytree(monorepo, repo, symlinks=True)
    (repo / ".pre-commit-config.yaml").write_text(_local_config(), encoding="utf-8")
    lonely = (
        _scenario_file(repo).read_text(encoding="utf-8").replace(f"id: {SID}", f"id: {SID[:-3]}077")
    )
    (repo / "corpus" / "scenarios" / "lonely.yaml").write_text(lonely, encoding="utf-8")
    _git(repo, "add", ".")
    proc = _run_hook(repo, "si-lint-corpus", tmp_path / "pc-home")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "corpus/scenarios/lonely.yaml:1:5: SI306 [error]" in proc.stdout, proc.stdout
    for noise in ("chart/", "infra/", "tsconfig.json", "package-lock.json", "build/"):
        assert noise not in proc.stdout
