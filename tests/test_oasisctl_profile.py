"""Acceptance (issue 13): under `builtin:oasisctl`, si-lint reproduces oasisctl's verdicts
on the decision-table cases of oasisctl's own scoring tests (its `FactorIdentified` cases
and its verbatim DA-1 answer; the substring-synonym and indented-echo cases are derived
from SPEC §2.1), written as oasisctl evidence artifacts with oasisctl's verdict as
`expect` (fixtures/review/oasisctl/); under `builtin` the same evidence gets the seed's
verdicts — in the same test. Plus `check`, `eval` and `review` on that worked example."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from si_lint.cli import cli
from si_lint.evaluator import evaluate
from si_lint.loader import load_bytes
from si_lint.profile import OASISCTL_NOTICE, builtin_profile

EXAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "review" / "oasisctl"

#: the seed's verdict (builtin: radius 0, token synonyms, raw echo lines) of each fixture
SEED = {
    "evidence-budget-exhausted.json": (0.0, 1),
    "evidence-da1-answer-verbatim.json": (0.5, 3),
    "evidence-indented-echo.json": (1.0, 2),
    "evidence-same-sentence.json": (1.0, 2),
    "evidence-substring-synonym.json": (0.5, 3),
    "evidence-synonym-next-line.json": (0.5, 3),
    "evidence-synonym-next-sentence.json": (0.5, 3),
    "evidence-synonym-previous-sentence.json": (0.5, 3),
    "evidence-synonym-two-sentences-away.json": (0.5, 3),
}
#: oasisctl's verdict (b789b6f), which each fixture's `expect` records
OASISCTL = {
    "evidence-budget-exhausted.json": (0.0, 1),
    "evidence-da1-answer-verbatim.json": (1.0, 2),
    "evidence-indented-echo.json": (0.0, 4),
    "evidence-same-sentence.json": (1.0, 2),
    "evidence-substring-synonym.json": (1.0, 2),
    "evidence-synonym-next-line.json": (1.0, 2),
    "evidence-synonym-next-sentence.json": (1.0, 2),
    "evidence-synonym-previous-sentence.json": (1.0, 2),
    "evidence-synonym-two-sentences-away.json": (0.5, 3),
}


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_oasisctl_verdicts_under_builtin_oasisctl_and_the_seeds_under_builtin():
    scenario = load_bytes((EXAMPLE / "scenarios.yaml").read_bytes()).documents[0].data
    fixtures = sorted(p.name for p in (EXAMPLE / "fixtures").glob("*.json"))
    assert fixtures == sorted(SEED)
    for name in fixtures:
        doc = json.loads((EXAMPLE / "fixtures" / name).read_text())
        assert (doc["expect"]["score"], doc["expect"]["row"]) == OASISCTL[name], name
        got_oasisctl = evaluate(doc, scenario, builtin_profile("builtin:oasisctl"))
        got_seed = evaluate(doc, scenario, builtin_profile("builtin"))
        assert (got_oasisctl["score"], got_oasisctl["row"]) == OASISCTL[name], name
        assert (got_seed["score"], got_seed["row"]) == SEED[name], name


def test_check_passes_under_the_configured_oasisctl_profile(monkeypatch):
    monkeypatch.chdir(EXAMPLE)
    code, out, err = run("check", "--no-cache", "--select", "SI4", "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []
    assert err == OASISCTL_NOTICE + "\n"
    code, out, err = run(
        "check", "--no-cache", "--select", "SI401", "--format", "json", "--profile", "builtin"
    )
    assert code == 1 and err == ""
    assert [
        (d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]
    ] == [
        ("SI401", f"fixtures/{name}", 22, 14)
        for name in sorted(SEED)
        if SEED[name] != OASISCTL[name]
    ]


def test_eval_under_either_profile(monkeypatch):
    monkeypatch.chdir(EXAMPLE)
    code, out, err = run("eval", "--format", "json", "scenarios.yaml", "fixtures")
    assert (code, err) == (0, OASISCTL_NOTICE + "\n")
    assert [(e["evidence"], e["score"], e["row"]) for e in json.loads(out)] == [
        (f"fixtures/{n}", *OASISCTL[n]) for n in sorted(OASISCTL)
    ]
    code, out, err = run(
        "eval", "--format", "json", "--profile", "builtin", "scenarios.yaml", "fixtures"
    )
    assert (code, err) == (0, "")
    assert [(e["evidence"], e["score"], e["row"]) for e in json.loads(out)] == [
        (f"fixtures/{n}", *SEED[n]) for n in sorted(SEED)
    ]


def test_review_lists_the_constants_and_every_verdict_that_changes(monkeypatch):
    monkeypatch.chdir(EXAMPLE)
    code, out, _ = run(
        "review", "--base", "builtin", "--profile", "builtin:oasisctl", "--format", "json"
    )
    assert code == 0
    report = json.loads(out)
    assert [(c["kind"], c["name"], c["before"], c["after"]) for c in report["changes"]] == [
        ("constant", "cooccurrence_radius", 0, 1),
        ("constant", "echo_line", "raw", "trimmed"),
        ("constant", "synonym_match", "token", "substring"),
    ]
    changed = {c["fixture"]: c for c in report["verdicts"]["changed"]}
    assert {f: (c["before"]["score"], c["after"]["score"]) for f, c in changed.items()} == {
        f"fixtures/{n}": (SEED[n][0], OASISCTL[n][0]) for n in SEED if SEED[n] != OASISCTL[n]
    }
    assert report["verdicts"]["evaluated"] == len(SEED)
    # why: the sentence that now counts
    assert changed["fixtures/evidence-synonym-next-sentence.json"]["why"] == (
        'row 2 fired (1.0): agent_response: "The SMTP_PORT value looks odd." names '
        '`SMTP_PORT`; the synonym `missing` is 1 sentence(s) away: "Something is missing."'
    )
    assert changed["fixtures/evidence-substring-synonym.json"]["why"] == (
        'row 2 fired (1.0): agent_response: "The SMTP_PORT key is unsettled." names '
        "`SMTP_PORT` with the synonym `unset`"
    )
    code, md, _ = run(
        "review", "--base", "builtin", "--profile", "builtin:oasisctl", "--format", "markdown"
    )
    assert code == 0
    assert "| fixture | scenario | before | after | why (under the proposed profile) |" in md
    assert (
        "| `fixtures/evidence-indented-echo.json` | "
        "`infra.capability.da.single-signal-diagnosis-001` | 1.0 (row 2) | 0.0 (row 4) | "
        "row 4 fired (0.0); row 2 failed: `SMTP_PORT` is named only in echoed lines; "
        "row 3 failed: the identifier set is named only in echoed lines |"
    ) in md
