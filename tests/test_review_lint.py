"""`si-lint review`: the `check` findings a profile change adds and removes (issue 45), and
the review finding for content changed under an unchanged registry version."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SHARED

from si_lint.cli import cli

REPO = Path(__file__).resolve().parent.parent
PROPOSED = REPO / "fixtures" / "review" / "proposed"
OASISCTL = REPO / "fixtures" / "review" / "oasisctl"
PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"
BUILTIN_DATA = REPO / "si_lint" / "profile_data"
DA1 = "infra.capability.da.single-signal-diagnosis-001"
HELP = (
    "bump `registry.version` so that reports and evaluators can tell the proposed "
    "profile from the one it changes"
)
SI114 = f"step budget 15 differs from the budget 12 ratified for {DA1}"


def run(args, cwd, monkeypatch):
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.output


def _git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _budget_12(profile_dir: Path) -> None:
    reg = profile_dir / "registry.yaml"
    text = reg.read_text(encoding="utf-8")
    assert f"{DA1}: 15" in text
    reg.write_text(text.replace(f"{DA1}: 15", f"{DA1}: 12"), encoding="utf-8")


@pytest.fixture
def budget_repo(tmp_path):
    """A corpus (DA-1 in Form B and its five fixtures) whose profile directory is the
    built-in one at HEAD, and whose working tree ratifies 12 steps instead of 15."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    corpus = tmp_path / "corpus"
    (corpus / "scenarios").mkdir(parents=True)
    shutil.copy(PROPOSED / "si-lint.toml", corpus)
    shutil.copy(PROPOSED / "scenarios" / "mail-relay-smtp-port.yaml", corpus / "scenarios")
    shutil.copytree(PROPOSED / "fixtures" / "mail-relay-smtp-port", corpus / "fixtures" / "smtp")
    shutil.copytree(BUILTIN_DATA, corpus / "profile")
    _git(corpus, "init", "-q")
    _git(corpus, "add", "-A")
    _git(corpus, "commit", "-q", "-m", "v1")
    _budget_12(corpus / "profile")
    return corpus


FIXTURES = ", ".join(
    f"fixtures/smtp/{n}.yaml"
    for n in ("blames-dns", "names-relay-only", "no-final-answer", "says-missing", "says-removed")
)

BUDGET_TEXT = f"""\
si-lint review: HEAD:profile (si 0.3.0-rc1) → profile (si 0.3.0-rc1)

Changes (1):
  ~ changed ratified budget `{DA1}`: 15 → 12
      reaches: scenarios {DA1}; 5 fixture(s)

Review findings (1):
  profile/registry.yaml:1:34: [warning] registry content changed but version still 0.3.0-rc1
      help: {HELP}

Reached:
  templates: none
  scenarios: {DA1} (scenarios/mail-relay-smtp-port.yaml)
  fixtures:  {FIXTURES}

Verdicts that change: none (5 re-evaluated fixture(s))

Check under HEAD:profile: 2 finding(s): 2 error(s), 0 warning(s), 0 info(s); under profile: 3 finding(s): 3 error(s), 0 warning(s), 0 info(s)

Check findings the change adds (1):
  scenarios/mail-relay-smtp-port.yaml:35:16: SI114 [error] {SI114} [{DA1}]

Check findings the change removes: none

Implementation review: clean
"""


def test_budget_change_lists_the_added_si114_text(budget_repo, monkeypatch):
    code, out = run(["review", "--base", "HEAD"], budget_repo, monkeypatch)
    assert (code, out) == (0, BUDGET_TEXT)


def test_budget_change_lists_the_added_si114_json(budget_repo, monkeypatch):
    code, out = run(["review", "--base", "HEAD", "--format", "json"], budget_repo, monkeypatch)
    rep = json.loads(out)
    assert code == 0
    assert rep["lint"] == {
        "base": {"findings": 2, "errors": 2, "warnings": 0, "infos": 0},
        "head": {"findings": 3, "errors": 3, "warnings": 0, "infos": 0},
        "added": [
            {
                "code": "SI114",
                "severity": "error",
                "path": "scenarios/mail-relay-smtp-port.yaml",
                "line": 35,
                "column": 16,
                "scenario": DA1,
                "message": SI114,
                "help": "use 12",
            }
        ],
        "removed": [],
    }
    assert rep["notices"] == [
        {
            "path": "profile/registry.yaml",
            "line": 1,
            "column": 34,
            "severity": "warning",
            "message": "registry content changed but version still 0.3.0-rc1",
            "help": HELP,
        }
    ]


def test_budget_change_markdown(budget_repo, monkeypatch):
    code, out = run(["review", "--base", "HEAD", "--format", "markdown"], budget_repo, monkeypatch)
    assert code == 0
    fixtures = ", ".join(f"`{f}`" for f in FIXTURES.split(", "))
    assert (
        out
        == f"""\
### si-lint review: `HEAD:profile` → `profile`

Profile **si 0.3.0-rc1** → **si 0.3.0-rc1** · implementations not trusted (static review only)

#### Changes (1)

> **warning:** `profile/registry.yaml:1:34`: registry content changed but version still 0.3.0-rc1 — {HELP}

| change | reaches |
|---|---|
| changed ratified budget `{DA1}`: 15 → 12 | scenarios {DA1}; 5 fixture(s) |

#### Reached

- **Templates:** none
- **Scenarios:** `{DA1}` (`scenarios/mail-relay-smtp-port.yaml`)
- **Fixtures:** {fixtures}

#### Verdicts that change (0 of 5 re-evaluated)

None.

Check under `HEAD:profile`: 2 finding(s): 2 error(s), 0 warning(s), 0 info(s); under `profile`: 3 finding(s): 3 error(s), 0 warning(s), 0 info(s).

#### Check findings the change adds (1)

| location | code | severity | scenario | message |
|---|---|---|---|---|
| `scenarios/mail-relay-smtp-port.yaml:35:16` | SI114 | error | `{DA1}` | {SI114} |

#### Check findings the change removes (0)

None.

#### Implementation review (0 finding(s))

Clean.
"""
    )


@pytest.mark.skipif(not PUBLISHED.is_dir(), reason="../shared (the published corpus) is absent")
def test_published_corpus_budget_change(tmp_path, monkeypatch):
    """The issue's reproducer: DA-1's budget 15 → 12 in a copy of the built-in profile.
    SI115's message names the profile in use; it is the same finding under both."""
    prop = tmp_path / "prop"
    shutil.copytree(BUILTIN_DATA, prop)
    _budget_12(prop)
    code, out = run(["review", "--base", "builtin", "--profile", str(prop)], PUBLISHED, monkeypatch)
    assert code == 0
    tail = out[out.index("\nCheck under") :]
    assert (
        tail
        == f"""
Check under builtin: 30 finding(s): 1 error(s), 0 warning(s), 29 info(s); under {prop}: 31 finding(s): 2 error(s), 0 warning(s), 29 info(s)

Check findings the change adds (1):
  scenarios/capability/diagnostic-accuracy.yaml:61:16: SI114 [error] {SI114} [{DA1}]

Check findings the change removes: none

Implementation review: clean
"""
    )
    assert out.splitlines()[:9] == [
        f"si-lint review: builtin (si 0.3.0-rc1) → {prop} (si 0.3.0-rc1)",
        "",
        "Changes (1):",
        f"  ~ changed ratified budget `{DA1}`: 15 → 12",
        f"      reaches: scenarios {DA1}",
        "",
        "Review findings (1):",
        f"  {prop.as_posix()}/registry.yaml:1:34: [warning] registry content changed but "
        "version still 0.3.0-rc1",
        f"      help: {HELP}",
    ]


def test_worked_example_lint_delta(monkeypatch):
    """Promoting ops_precede and adding C-DD-001 removes four errors and adds one info."""
    code, out = run(["review", "--base", "builtin", "--format", "json"], PROPOSED, monkeypatch)
    rep = json.loads(out)
    decoy = "infra.capability.dd.mail-relay-decoy-001"
    agree = "the table and the fixture disagree: fix the table, the evidence, or the expectation"
    removed = "fixtures/mail-relay-smtp-port/says-removed.yaml"
    assert code == 0
    assert rep["notices"] == []  # the version moved to 0.4.0-dev.1
    assert rep["lint"] == {
        "base": {"findings": 4, "errors": 4, "warnings": 0, "infos": 0},
        "head": {"findings": 1, "errors": 0, "warnings": 0, "infos": 1},
        "added": [
            {
                "code": "SI409",
                "severity": "info",
                "path": "scenarios/mail-relay-decoy.yaml",
                "line": 36,
                "column": 1,
                "scenario": decoy,
                "message": f"fixtures and probes of `{decoy}` not evaluated: its table "
                "needs `ops_precede`, which has no trusted implementation",
                "help": "run `si-lint check --trust-implementations` to import and run "
                "the profile's implementations",
            }
        ],
        "removed": [
            {
                "code": "SI401",
                "severity": "error",
                "path": removed,
                "line": 5,
                "column": 17,
                "message": "fixture scores 0.5 at row 3 (named_in_output → 0.5), but "
                "`expect.score` is 1.0",
                "help": agree,
            },
            {
                "code": "SI402",
                "severity": "error",
                "path": removed,
                "line": 5,
                "column": 27,
                "message": "fixture fired row 3 (named_in_output → 0.5), but `expect.row` is 2",
                "help": agree,
            },
            {
                "code": "SI202",
                "severity": "error",
                "path": "profile/templates/C-DD-001.yaml",
                "line": 21,
                "column": 18,
                "message": "`ops_precede` is a candidate primitive (§2.4), not in the registry",
                "help": "register it in the profile's registry (a registry extension, "
                "`si-lint review`) or express the band with registered primitives",
            },
            {
                "code": "SI112",
                "severity": "error",
                "path": "scenarios/mail-relay-decoy.yaml",
                "line": 37,
                "column": 23,
                "scenario": decoy,
                "message": "scoring.archetype_template `C-DD-001` names no known template "
                "(known: C-DA-001)",
                "help": "did you mean `C-DA-001`?",
            },
        ],
    }


def test_no_version_notice_between_the_shipped_readings(monkeypatch):
    """builtin and builtin:oasisctl are one version read two ways, on purpose."""
    code, out = run(
        ["review", "--base", "builtin", "--profile", "builtin:oasisctl", "--format", "json"],
        OASISCTL,
        monkeypatch,
    )
    assert code == 0
    assert json.loads(out)["notices"] == []


def test_template_change_under_the_same_version(tmp_path, monkeypatch):
    prop = tmp_path / "prop"
    shutil.copytree(BUILTIN_DATA, prop)
    tpl = prop / "templates" / "C-DA-001.yaml"
    text = tpl.read_text(encoding="utf-8")
    tpl.write_text(text.replace("title: Single-Signal Diagnosis", "title: Diagnosis"), "utf-8")
    code, out = run(
        ["review", "--base", "builtin", "--profile", str(prop), "--format", "json", str(PROPOSED)],
        tmp_path,
        monkeypatch,
    )
    assert code == 0
    assert json.loads(out)["notices"] == [
        {
            "path": "prop/registry.yaml",
            "line": 1,
            "column": 34,
            "severity": "warning",
            "message": "templates (C-DA-001) changed but version still 0.3.0-rc1",
            "help": HELP,
        }
    ]


def test_implementation_change_under_the_same_version(tmp_path, monkeypatch):
    """Only the implementation's source changed: a change, and the same review finding."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    corpus = tmp_path / "corpus"
    shutil.copytree(PROPOSED, corpus)
    _git(corpus, "init", "-q")
    _git(corpus, "add", "-A")
    _git(corpus, "commit", "-q", "-m", "v1")
    impl = corpus / "profile" / "impl" / "ops_precede.py"
    impl.write_text(impl.read_text("utf-8") + "\n# a comment\n", "utf-8")
    code, out = run(["review", "--base", "HEAD", "--format", "json"], corpus, monkeypatch)
    rep = json.loads(out)
    assert code == 0
    assert [(c["kind"], c["action"], c["name"], c["detail"]) for c in rep["changes"]] == [
        ("primitive", "changed", "ops_precede", "implementation source changed")
    ]
    assert rep["notices"] == [
        {
            "path": "profile/registry.yaml",
            "line": 3,
            "column": 34,
            "severity": "warning",
            "message": "implementations (ops_precede) changed but version still 0.4.0-dev.1",
            "help": HELP,
        }
    ]
    assert rep["lint"]["added"] == rep["lint"]["removed"] == []
