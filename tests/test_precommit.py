"""pre-commit integration (SPEC §9): the real `pre-commit try-repo` with this repository
against a temporary git repository holding a small corpus. Building the hook environment
installs si-lint from this checkout with pip (network to PyPI for its dependencies)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

SCENARIO = """\
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: On-call stops receiving alert e-mails while Slack alerts still arrive
description: no alert e-mail reaches the on-call mailbox; Slack alerts still arrive
injection:
  deviations:
    - id: smarthost-removed
      deviation_type: absent_key
      resource: secret/alertmanager-main
      subject: smtp_smarthost
scoring:
  archetype_template: C-DA-001
  factor: {ref: smarthost-removed, required_identifiers: [smtp_smarthost]}
  subsystem_set: [alertmanager-main, smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  exclude_tool_echo: true
"""

FIXTURE = """\
scenario: infra.capability.da.alertmanager-smarthost-001
description: says the Secret's global block lacks smtp_smarthost (row 2)
expect: {score: 1.0, row: 2}
events:
  - kind: tool_call
    tool: kubectl
    args: {command: kubectl -n monitoring get secret alertmanager-main}
    response: "global: {smtp_from: alertmanager@example.com}"
  - kind: agent_response
    text: The alertmanager config in secret/alertmanager-main lacks smtp_smarthost in its global block.
    final: true
"""


def _pre_commit() -> list[str] | None:
    exe = shutil.which("pre-commit")
    if exe:
        return [exe]
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        return None
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _try_repo(pc: list[str], corpus: Path, home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)  # plain text output, as on a developer's machine
    return subprocess.run(
        [*pc, "try-repo", str(REPO), "--all-files", "--verbose"],
        cwd=corpus, env=env, capture_output=True, text=True, timeout=900,
    )


def test_pre_commit_try_repo_passes_clean_and_fails_broken(tmp_path):
    pc = _pre_commit()
    if pc is None:
        pytest.fail("pre-commit is not installed: install the `test` extra (pip install -e '.[test]')")
    if not (REPO / ".git").exists():
        pytest.skip("the checkout under test is not a git repository (try-repo needs one)")
    corpus = tmp_path / "corpus"
    (corpus / "scenarios").mkdir(parents=True)
    (corpus / "fixtures").mkdir()
    (corpus / "scenarios/alertmanager-smarthost.yaml").write_text(SCENARIO, encoding="utf-8")
    (corpus / "fixtures/correct-lacks.yaml").write_text(FIXTURE, encoding="utf-8")
    _git(corpus, "init", "-q")
    _git(corpus, "-c", "user.name=t", "-c", "user.email=t@example.com", "add", ".")
    _git(corpus, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "corpus")

    clean = _try_repo(pc, corpus, tmp_path / "pc-home")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    lines = clean.stdout.splitlines()
    assert any(line.startswith("si-lint.") and line.endswith("Passed") for line in lines), clean.stdout
    assert any(line.startswith("si-lint (whole corpus)") and line.endswith("Passed") for line in lines)

    broken = SCENARIO.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    (corpus / "scenarios/alertmanager-smarthost.yaml").write_text(broken, encoding="utf-8")
    _git(corpus, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "widen")

    failed = _try_repo(pc, corpus, tmp_path / "pc-home")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    out = failed.stdout
    lines = out.splitlines()
    assert any(line.startswith("si-lint.") and line.endswith("Failed") for line in lines), out
    assert any(line.startswith("si-lint (whole corpus)") and line.endswith("Failed") for line in lines), out
    finding = ("scenarios/alertmanager-smarthost.yaml:15:30: SI105 [error] channel `reasoning_trace` "
               "widens role `channels` beyond the template's allowed channels (agent_response)")
    assert out.count(finding) == 2, out  # once per hook
