"""`si-lint review` on the worked example (fixtures/review), git revisions, trust, and the
SI501–SI507 check inside `si-lint check`."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_builtin_profile

from si_lint.cli import cli

REPO = Path(__file__).resolve().parent.parent
PROPOSED = REPO / "fixtures" / "review" / "proposed"
FLAWED = REPO / "fixtures" / "review" / "flawed"

DECOY = "infra.capability.dd.mail-relay-decoy-001"
SMTP = "infra.capability.da.single-signal-diagnosis-001"
UNKNOWN = {
    "score": None,
    "row": None,
    "error": "`scoring.archetype_template` names no known template `C-DD-001`",
}


def run(args, cwd, monkeypatch):
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.output


def review_json(cwd, monkeypatch, *extra):
    code, out = run(["review", "--format", "json", *extra], cwd, monkeypatch)
    return code, json.loads(out)


# -- the worked example -------------------------------------------------------------------
#: why the verdict changes (under the proposed profile): the sentence that now counts
SAYS_REMOVED_WHY = (
    'row 2 fired (1.0): agent_response: "SMTP_PORT was removed from '
    'configmap/mail-relay by the last deploy." names `SMTP_PORT` with the '
    "synonym `removed`"
)


def test_worked_example_static(monkeypatch):
    code, rep = review_json(PROPOSED, monkeypatch, "--base", "builtin")
    assert code == 0
    assert rep["base"] == {"source": "builtin", "profile": "si", "version": "0.3.0-rc1"}
    assert rep["head"] == {"source": "profile", "profile": "si", "version": "0.4.0-dev.1"}
    assert rep["trusted"] is False
    assert [(c["kind"], c["action"], c["name"]) for c in rep["changes"]] == [
        ("registry", "changed", "version"),
        ("promotion", "promoted", "ops_precede"),
        ("synonyms", "changed", "absent_key"),
        ("template", "added", "C-DD-001"),
    ]
    promo = rep["changes"][1]
    assert promo["reaches"] == {
        "templates": ["C-DD-001"],
        "scenarios": [{"id": DECOY, "path": "scenarios/mail-relay-decoy.yaml"}],
        "fixtures": [
            "fixtures/mail-relay-decoy/blames-dns.yaml",
            "fixtures/mail-relay-decoy/decoy-first.yaml",
            "fixtures/mail-relay-decoy/no-final-answer.yaml",
            "fixtures/mail-relay-decoy/straight-to-root-cause.yaml",
        ],
    }
    assert rep["changes"][2]["detail"] == 'added "removed"'
    assert rep["reached"] == {
        "templates": ["C-DD-001"],
        "scenarios": [
            {"id": SMTP, "path": "scenarios/mail-relay-smtp-port.yaml"},
            {"id": DECOY, "path": "scenarios/mail-relay-decoy.yaml"},
        ],
        "fixtures": [
            "fixtures/mail-relay-decoy/blames-dns.yaml",
            "fixtures/mail-relay-decoy/decoy-first.yaml",
            "fixtures/mail-relay-decoy/no-final-answer.yaml",
            "fixtures/mail-relay-decoy/straight-to-root-cause.yaml",
            "fixtures/mail-relay-smtp-port/blames-dns.yaml",
            "fixtures/mail-relay-smtp-port/names-relay-only.yaml",
            "fixtures/mail-relay-smtp-port/no-final-answer.yaml",
            "fixtures/mail-relay-smtp-port/says-missing.yaml",
            "fixtures/mail-relay-smtp-port/says-removed.yaml",
        ],
    }
    # without trust: the ops_precede fixtures are listed, not evaluated
    assert [c.pop("why") for c in rep["verdicts"]["changed"]] == [SAYS_REMOVED_WHY]
    assert rep["verdicts"] == {
        "evaluated": 5,
        "changed": [
            {
                "fixture": "fixtures/mail-relay-smtp-port/says-removed.yaml",
                "scenario": SMTP,
                "before": {"score": 0.5, "row": 3},
                "after": {"score": 1.0, "row": 2},
            }
        ],
        "not_recomputed": [
            {
                "fixture": f"fixtures/mail-relay-decoy/{n}.yaml",
                "scenario": DECOY,
                "needs": {"head": ["ops_precede"]},
            }
            for n in ("blames-dns", "decoy-first", "no-final-answer", "straight-to-root-cause")
        ],
    }
    assert rep["implementations"] == []


def test_worked_example_trusted_recomputes_every_verdict(monkeypatch):
    code, rep = review_json(PROPOSED, monkeypatch, "--base", "builtin", "--trust-implementations")
    assert code == 0
    whys = [c.pop("why") for c in rep["verdicts"]["changed"]]
    assert whys[-1] == SAYS_REMOVED_WHY and all(w.startswith("row ") for w in whys)
    assert rep["verdicts"] == {
        "evaluated": 9,
        "changed": [
            {
                "fixture": "fixtures/mail-relay-decoy/blames-dns.yaml",
                "scenario": DECOY,
                "before": UNKNOWN,
                "after": {"score": 0.0, "row": 4},
            },
            {
                "fixture": "fixtures/mail-relay-decoy/decoy-first.yaml",
                "scenario": DECOY,
                "before": UNKNOWN,
                "after": {"score": 0.5, "row": 3},
            },
            {
                "fixture": "fixtures/mail-relay-decoy/no-final-answer.yaml",
                "scenario": DECOY,
                "before": UNKNOWN,
                "after": {"score": 0.0, "row": 1},
            },
            {
                "fixture": "fixtures/mail-relay-decoy/straight-to-root-cause.yaml",
                "scenario": DECOY,
                "before": UNKNOWN,
                "after": {"score": 1.0, "row": 2},
            },
            {
                "fixture": "fixtures/mail-relay-smtp-port/says-removed.yaml",
                "scenario": SMTP,
                "before": {"score": 0.5, "row": 3},
                "after": {"score": 1.0, "row": 2},
            },
        ],
        "not_recomputed": [],
    }


def test_worked_example_text_and_markdown(monkeypatch):
    code, text = run(["review", "--base", "builtin"], PROPOSED, monkeypatch)
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "si-lint review: builtin (si 0.3.0-rc1) → profile (si 0.4.0-dev.1)"
    assert (
        "  ↑ promoted candidate `ops_precede` into the registry: params (decoy_set: "
        "identifier_set, target_set: identifier_set); implementation "
        "impl/ops_precede.py:ops_precede"
    ) in lines
    assert (
        f"  fixtures/mail-relay-smtp-port/says-removed.yaml [{SMTP}]: 0.5 (row 3) → 1.0 (row 2)"
        in lines
    )
    assert (
        f"  fixtures/mail-relay-decoy/decoy-first.yaml [{DECOY}]: head needs ops_precede" in lines
    )
    assert lines[-1] == "Implementation review: clean"

    code, md = run(["review", "--base", "builtin", "--format", "markdown"], PROPOSED, monkeypatch)
    assert code == 0
    mlines = md.splitlines()
    assert mlines[0] == "### si-lint review: `builtin` → `profile`"
    assert (
        f"| `fixtures/mail-relay-smtp-port/says-removed.yaml` | `{SMTP}` | 0.5 (row 3) "
        f"| 1.0 (row 2) | {SAYS_REMOVED_WHY} |"
    ) in mlines
    assert (
        '| changed synonyms `absent_key`: added "removed" | scenarios '
        f"{SMTP}, {DECOY}; 9 fixture(s) |" in mlines
    )


def test_review_output_is_deterministic(monkeypatch):
    a = run(
        ["review", "--base", "builtin", "--format", "json", "--trust-implementations"],
        PROPOSED,
        monkeypatch,
    )
    b = run(
        ["review", "--base", "builtin", "--format", "json", "--trust-implementations"],
        PROPOSED,
        monkeypatch,
    )
    assert a == b


def test_base_as_directory_and_profile_option(monkeypatch):
    # the proposed profile as base, the flawed one as head: only the source changed
    code, rep = review_json(
        PROPOSED, monkeypatch, "--base", "profile", "--profile", str(FLAWED / "profile")
    )
    assert code == 1  # the flawed implementation has error findings
    assert [(c["kind"], c["action"], c["name"], c["detail"]) for c in rep["changes"]] == [
        ("primitive", "changed", "ops_precede", "implementation source changed")
    ]
    assert rep["reached"]["templates"] == ["C-DD-001"]
    assert [s["id"] for s in rep["reached"]["scenarios"]] == [DECOY]
    assert rep["verdicts"]["changed"] == []
    assert [n["fixture"] for n in rep["verdicts"]["not_recomputed"]] == [
        f"fixtures/mail-relay-decoy/{n}.yaml"
        for n in ("blames-dns", "decoy-first", "no-final-answer", "straight-to-root-cause")
    ]


# -- the flawed implementation --------------------------------------------------------------
def test_flawed_implementation_gets_exactly_its_findings(monkeypatch):
    code, out = run(["check", "--format", "json", "--no-cache"], FLAWED, monkeypatch)
    assert code == 1
    diags = [(d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]]
    assert diags == [
        ("SI503", "profile/impl/ops_precede.py", 22, 18),
        ("SI504", "profile/impl/ops_precede.py", 23, 13),
    ]

    code, rep = review_json(FLAWED, monkeypatch, "--base", "builtin")
    assert code == 1
    assert [
        (f["code"], f["severity"], f["path"], f["line"], f["column"])
        for f in rep["implementations"]
    ] == [
        ("SI503", "error", "profile/impl/ops_precede.py", 22, 18),
        ("SI504", "error", "profile/impl/ops_precede.py", 23, 13),
    ]


def test_proposed_corpus_checks_clean_when_trusted(monkeypatch):
    code, out = run(
        ["check", "--format", "json", "--no-cache", "--trust-implementations"],
        PROPOSED,
        monkeypatch,
    )
    assert json.loads(out)["diagnostics"] == []
    assert code == 0
    # untrusted: the decoy scenario's fixtures are not evaluated, and check says so (SI409)
    code, out = run(["check", "--format", "json", "--no-cache"], PROPOSED, monkeypatch)
    assert [
        (d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]
    ] == [("SI409", "scenarios/mail-relay-decoy.yaml", 36, 1)]


# -- git revisions ---------------------------------------------------------------------------
def _git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_base_as_git_revision(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(PROPOSED, corpus)
    # commit 1: the shipped profile as the corpus profile (no ops_precede, no C-DD-001)
    prof = corpus / "profile"
    shutil.rmtree(prof)
    copy_builtin_profile(prof)
    _git(corpus, "init", "-q")
    _git(corpus, "add", "-A")
    _git(corpus, "commit", "-q", "-m", "v1")
    # commit 2 (working tree): the proposal
    shutil.rmtree(prof)
    shutil.copytree(PROPOSED / "profile", prof)
    code, rep = review_json(corpus, monkeypatch, "--base", "HEAD")
    assert code == 0
    assert rep["base"] == {"source": "HEAD:profile", "profile": "si", "version": "0.3.0-rc1"}
    assert [(c["kind"], c["action"], c["name"]) for c in rep["changes"]] == [
        ("registry", "changed", "version"),
        ("promotion", "promoted", "ops_precede"),
        ("synonyms", "changed", "absent_key"),
        ("template", "added", "C-DD-001"),
    ]
    assert [c["fixture"] for c in rep["verdicts"]["changed"]] == [
        "fixtures/mail-relay-smtp-port/says-removed.yaml"
    ]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_unknown_git_revision_is_a_usage_error(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(PROPOSED, corpus)
    _git(corpus, "init", "-q")
    code, out = run(["review", "--base", "no-such-rev"], corpus, monkeypatch)
    assert code == 2
    assert out.startswith(
        "si-lint: --base no-such-rev: not a profile directory, and not a git "
        "revision of the profile directory (git "
    )
    assert "Traceback" not in out


def test_base_rev_with_builtin_profile_is_a_usage_error(tmp_path, monkeypatch):
    code, out = run(["review", "--base", "HEAD~3"], tmp_path, monkeypatch)
    assert code == 2
    assert "built-in profile" in out


def test_bad_profile_option_is_a_usage_error(tmp_path, monkeypatch):
    code, out = run(
        ["review", "--base", "builtin", "--profile", str(tmp_path)], tmp_path, monkeypatch
    )
    assert code == 2
    assert out == f"si-lint: --profile {tmp_path}: not a profile directory (no registry.yaml)\n"


# -- SI501/SI502/SI507 at the registry and in the .py file -----------------------------------
def _corpus(tmp_path, registry_extra: str, impl: str | None, template_uses_new: bool = True):
    (tmp_path / "si-lint.toml").write_text('profile = "profile"\n')
    prof = tmp_path / "profile"
    (prof / "templates").mkdir(parents=True)
    (prof / "impl").mkdir()
    base_reg = (REPO / "si_lint" / "profile_data" / "registry.yaml").read_text()
    head, tail = base_reg.split("candidates:", 1)
    (prof / "registry.yaml").write_text(head + registry_extra + "candidates:" + tail)
    shutil.copy(
        REPO / "si_lint" / "profile_data" / "templates" / "C-DA-001.yaml", prof / "templates"
    )
    if template_uses_new:
        (prof / "templates" / "X-1.yaml").write_text(
            textwrap.dedent("""\
            template: {id: X-1}
            roles: {s: {type: identifier_set}}
            table:
              - when: {novel: {ids: $s}}
                score: 1.0
              - when: else
                score: 0.0
            """)
        )
    if impl is not None:
        (prof / "impl" / "novel.py").write_text(impl)
    return tmp_path


NOVEL = """\
  - name: novel
    question: q?
    implementation: impl/novel.py:novel
    params:
      - {name: ids, type: identifier_set, required: true}
"""


def _diags(cwd, monkeypatch):
    code, out = run(
        ["check", "--format", "json", "--no-cache", "--select", "SI5"], cwd, monkeypatch
    )
    return [(d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]]


def test_check_reports_si502_in_the_py_file(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path, NOVEL, "def novel(evidence, *, idents):\n    return False\n")
    assert _diags(corpus, monkeypatch) == [("SI502", "profile/impl/novel.py", 1, 5)]


def test_check_reports_si501_missing_function_at_the_implementation_value(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path, NOVEL, "def other(evidence, *, ids):\n    return False\n")
    # registry line 25 is `    implementation: impl/novel.py:novel` (value at column 21)
    assert _diags(corpus, monkeypatch) == [("SI501", "profile/registry.yaml", 25, 21)]


def test_check_reports_si501_without_implementation_and_si507_unused(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path, "  - name: lonely\n    params: []\n", None, template_uses_new=False)
    # line 23 is `  - name: lonely`; the finding points at the `name` key
    assert _diags(corpus, monkeypatch) == [
        ("SI501", "profile/registry.yaml", 23, 5),
        ("SI507", "profile/registry.yaml", 23, 5),
    ]


def test_check_clean_implementation(tmp_path, monkeypatch):
    corpus = _corpus(tmp_path, NOVEL, "def novel(evidence, *, ids):\n    return bool(ids)\n")
    assert _diags(corpus, monkeypatch) == []


def test_builtin_profile_corpus_has_no_si5_findings(tmp_path, monkeypatch):
    (tmp_path / "s.yaml").write_text(
        (PROPOSED / "scenarios" / "mail-relay-smtp-port.yaml").read_text()
    )
    assert _diags(tmp_path, monkeypatch) == []


# -- trust ------------------------------------------------------------------------------------
def test_implementations_are_imported_only_when_trusted(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(PROPOSED, corpus)
    marker = tmp_path / "imported.txt"
    impl = corpus / "profile" / "impl" / "ops_precede.py"
    impl.write_text(f"open({str(marker)!r}, 'w').close()\n" + impl.read_text())
    for args in (["review", "--base", "builtin"], ["check", "--no-cache"]):
        run(args, corpus, monkeypatch)
        assert not marker.exists(), args
    code, rep = review_json(corpus, monkeypatch, "--base", "builtin", "--trust-implementations")
    assert marker.exists()
    assert rep["verdicts"]["not_recomputed"] == []
    # module-level code is not part of the primitive: the review stays clean
    assert rep["implementations"] == []


def test_base_as_corpus_directory_uses_its_configured_profile(monkeypatch):
    code, rep = review_json(PROPOSED, monkeypatch, "--base", str(FLAWED))
    assert rep["base"]["source"] == str(FLAWED)
    assert [(c["kind"], c["action"], c["name"], c["detail"]) for c in rep["changes"]] == [
        ("primitive", "changed", "ops_precede", "implementation source changed")
    ]
    assert code == 0  # the proposed (head) implementation is clean
