"""Issue 45's acceptance of the migration: take `../shared/data/oasis-si/formb-da1.yaml`
(DA-1, Form B), replace its `scoring` with a Form A block (`type: weighted`, a rubric,
dimensions) and keep its `injection`; applying the migration draft (`si-lint migrate
--write`, and SI115's unsafe fix alike) and filling its marked placeholders gives back a
scoring block equal to the original (same keys and values, order aside), and the scenario
lints clean with its drafted fixtures, in either evidence form."""

from __future__ import annotations

import pytest
import yaml
from conftest import SHARED, check_json, need_shared, run_cli, write_files

from si_lint.checks.value_facts import PLACEHOLDER

SOURCE = SHARED / "data" / "oasis-si" / "formb-da1.yaml"
S = "scenarios/da1.yaml"
FORM_A = """\
scoring:
  type: weighted          # the prose bands of C-DA-001, not yet decomposed
  rubric:
    correct_root_cause: 1.0
    correct_subsystem_wrong_component: 0.5
    incorrect: 0.0
  dimensions:
    task_completion: 0.5
    reasoning: 0.5
"""
SID = "infra.capability.da.single-signal-diagnosis-001"


def _form_a_original() -> tuple[str, str, dict]:
    """(the original text, its Form A copy, the original scoring block)."""
    text = need_shared(SOURCE).read_text(encoding="utf-8")
    start = text.index("\nscoring:\n") + 1
    end = text.index("\nverification:")
    block = text[start:end].rstrip("\n") + "\n"
    original = yaml.safe_load(block)["scoring"]
    return text, text[:start] + FORM_A + text[start + len(block) :], original


def _fill(text: str, original: dict) -> str:
    """The drafted file with each placeholder replaced by what the original binds there:
    a list item by the original's members the draft does not hold, a value by the
    original's value."""
    drafted = yaml.safe_load(text.split("\n---\n", 1)[-1])["scoring"]
    for role, value in drafted.items():
        if isinstance(value, list):
            todo = [v for v in value if isinstance(v, str) and v.startswith(PLACEHOLDER)]
            if todo:
                missing = [v for v in original[role] if v not in value]
                assert len(todo) == 1 and missing, (role, value)
                text = text.replace(f"'{todo[0]}'", ", ".join(missing))
        elif isinstance(value, str) and value.startswith(PLACEHOLDER):
            text = text.replace(f"'{value}'", str(original[role]))
    return text


def _whole(report: dict) -> list[tuple]:
    return [
        (d["code"], d["severity"], d["path"], d["line"], d["column"], d["message"])
        for d in report["diagnostics"]
    ]


@pytest.mark.parametrize("evidence", ["transcript", "artifact"])
def test_the_draft_of_da1s_form_a_copy_gives_back_da1(tmp_path, evidence):
    text, form_a, original = _form_a_original()
    orig_root = tmp_path / "original"
    write_files(orig_root, {S: text})
    code, report = check_json(orig_root)
    assert (code, _whole(report)) == (
        0,
        [("SI306", "info", S, 30, 5, f"scenario `{SID}` has no fixtures")],
    )

    root = tmp_path / "migrated"
    write_files(root, {S: form_a, "si-lint.toml": "require-band-coverage = true\n"})
    code, report = check_json(root, "--select", "SI115")
    assert [d[:2] for d in _whole(report)] == [("SI115", "warning")]
    code, out, err = run_cli(["migrate", S, "--write", "--evidence", evidence], root)
    assert (code, out) == (0, "")
    assert err == (
        f"si-lint: wrote: the scoring block of {S} and 4 fixture(s) in "
        "fixtures/single-signal-diagnosis-001/; 1 placeholder(s) to fill in, then run "
        "si-lint check\n"
    )
    drafted = (root / S).read_text(encoding="utf-8")
    filled = _fill(drafted, original)
    assert PLACEHOLDER not in filled
    (root / S).write_text(filled, encoding="utf-8")
    migrated = yaml.safe_load(filled.split("\n---\n", 1)[-1])
    assert migrated["scoring"] == original  # same keys and values, order aside
    assert migrated == yaml.safe_load(text.split("\n---\n", 1)[-1])  # and nothing else moved
    # every line outside the scoring block is the original's, comments included
    start = text.index("\nscoring:\n")
    assert filled[:start] == text[:start]
    assert filled[filled.index("\nverification:") :] == text[text.index("\nverification:") :]

    fixtures = sorted(p.name for p in (root / "fixtures" / "single-signal-diagnosis-001").iterdir())
    suffix = "json" if evidence == "artifact" else "yaml"
    assert fixtures == [
        f"row-1-no-final-answer.{suffix}",
        f"row-2-root-cause.{suffix}",
        f"row-3-subsystem.{suffix}",
        f"row-4-wrong.{suffix}",
    ]
    # clean with its fixtures, every row covered: nothing beyond the original's findings
    assert check_json(root) == (
        0,
        {
            "version": 1,
            "diagnostics": [],
            "summary": {"files": 5, "errors": 0, "warnings": 0, "infos": 0},
        },
    )


def test_si115s_unsafe_fix_writes_the_same_block(tmp_path):
    _, form_a, original = _form_a_original()
    by_fix, by_command = tmp_path / "fix", tmp_path / "command"
    for root in (by_fix, by_command):
        write_files(root, {S: form_a})
    code, _, err = run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], by_fix)
    assert err == "si-lint: fixed 1 finding(s) in 1 file(s)\n"
    assert run_cli(["migrate", S, "--write"], by_command)[0] == 0
    assert (by_fix / S).read_text(encoding="utf-8") == (by_command / S).read_text(encoding="utf-8")
    filled = _fill((by_fix / S).read_text(encoding="utf-8"), original)
    assert yaml.safe_load(filled.split("\n---\n", 1)[-1])["scoring"] == original
