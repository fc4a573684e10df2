"""`si-lint eval` on oasisctl evidence artifacts (SPEC §4.1) and the streams around them:
multi-document scenario files (--scenario), multi-document YAML evidence (PATH#N),
directories of evidence-*.json, `.jsonl` with per-line limits, the lint note, the
builtin:oasisctl notice — whole outputs compared."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from si_lint.cli import cli

SID = "infra.capability.da.single-signal-diagnosis-001"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"

DA1 = textwrap.dedent("""\
    id: infra.capability.da.single-signal-diagnosis-001
    name: Diagnose CrashLoopBackOff from workload events
    classification: capability
    category: diagnostic-accuracy
    archetype: C-DA-001
    tier: 1
    description: A workload is in CrashLoopBackOff due to a missing configuration key.
    injection:
      baseline:
        - {resource: configmap/smtp-config, data: {SMTP_HOST: smtp.internal, SMTP_PORT: "587"}}
      deviations:
        - {id: f1, resource: configmap/smtp-config, deviation_type: absent_key, subject: SMTP_PORT}
      symptom: {resource: deployment/notification-service, condition: CrashLoopBackOff}
      counterfactual: restoring all deviations clears the symptom
    scoring:
      archetype_template: C-DA-001
      step_budget: 15
      channels: [agent_response]
      factor: {ref: f1, required_identifiers: [SMTP_PORT]}
      subsystem_set: [smtp-config, SMTP_HOST, SMTP_PORT, configMapKeyRef]
      exclude_tool_echo: true
    observability_requirements: [all tool calls with parameters and responses]
    """)

OTHER = DA1.replace(SID, "infra.capability.da.other-002")

CM = '{"data":{"SMTP_HOST":"smtp.internal"}}'


def artifact(answer, results=(CM,), **extra):
    """An oasisctl artifact as oasisctl writes it (SPEC §4.1)."""
    doc = {
        "scenario_id": SID,
        "final_answer": answer,
        "reasoning_trace": "Read the deployment, then the ConfigMap.",
        "actions": [
            {
                "id": f"call_{i + 1}",
                "tool": "kubectl_get",
                "arguments": {"kind": "configmap", "name": "smtp-config"},
                "result": r,
                "duration_ms": 12,
            }
            for i, r in enumerate(results)
        ],
        "observations": [],
        "observed_model": None,
        "vacuous_assertions": None,
    }
    doc.update(extra)
    return doc


ROWS = {  # one artifact per row of C-DA-001, with the verdict of SPEC §5
    "evidence-row1.json": (
        artifact("The SMTP_PORT key is missing.", results=["ok"] * 16),
        0.0,
        1,
        16,
        192,
    ),
    "evidence-row2.json": (
        artifact("The SMTP_PORT key is missing from the smtp-config ConfigMap."),
        1.0,
        2,
        1,
        12,
    ),
    "evidence-row3.json": (artifact("Something's wrong with the SMTP_PORT config."), 0.5, 3, 1, 12),
    "evidence-row4.json": (
        artifact("The pods are crashing because of a network partition."),
        0.0,
        4,
        1,
        12,
    ),
}


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "si-lint.toml").write_text("")
    (tmp_path / "da1.yaml").write_text(DA1)
    runs = tmp_path / "runs"
    runs.mkdir()
    for name, (doc, *_rest) in ROWS.items():
        (runs / name).write_text(json.dumps(doc, indent=2))  # as oasisctl writes them
    return tmp_path


def expected(label, score, row, calls, ms, sid=SID):
    return {
        "evidence": label,
        "scenario": sid,
        "score": score,
        "row": row,
        "metadata": {"tool_calls": calls, "final_answer": True, "duration_ms": ms},
    }


def why(row, score, fired, *failed):
    """``eval --format json``'s ``why``: the data and the text line it makes."""
    head = f"row {row} fired ({score})" + ("" if fired is None else f": {fired}")
    text = "; ".join([head] + [f"row {r} failed: {reason}" for r, reason in failed])
    failed_rows = [{"row": r, "reason": reason} for r, reason in failed]
    return {"row": row, "fired": fired, "failed": failed_rows, "text": text}


NOT_NAMED = "`SMTP_PORT` is not named"
NO_MEMBER = "no member of the identifier set is named"
#: the reasons of each row's artifact (quotes as the artifact wrote them)
WHY_ROWS = {
    "evidence-row1.json": why(1, 0.0, "over budget (16 steps > 15)"),
    "evidence-row2.json": why(
        2,
        1.0,
        'agent_response: "The SMTP_PORT key is missing from the smtp-config ConfigMap." '
        "names `SMTP_PORT` with the synonym `missing`",
    ),
    "evidence-row3.json": why(
        3,
        0.5,
        "names `SMTP_PORT` in agent_response",
        (2, "no synonym of `absent_key` in the window (the identifier's sentence)"),
    ),
    "evidence-row4.json": why(4, 0.0, None, (2, NOT_NAMED), (3, NO_MEMBER)),
}


def test_every_row_of_c_da_001_from_oasisctl_artifacts(corpus):
    code, out, err = run("eval", "--format", "json", "da1.yaml", "runs")
    assert (code, err) == (0, "")
    assert json.loads(out) == [
        dict(expected(f"runs/{name}", s, r, c, ms), why=WHY_ROWS[name])
        for name, (_d, s, r, c, ms) in sorted(ROWS.items())
    ]


def test_text_output_says_why(corpus):
    code, out, _ = run("eval", "da1.yaml", "runs")
    assert code == 0
    assert out == (
        "runs/evidence-row1.json: 0.0 (row 1)  [tool calls 16, final answer, 192 ms]\n"
        "  why: row 1 fired (0.0): over budget (16 steps > 15)\n"
        "runs/evidence-row2.json: 1.0 (row 2)  [tool calls 1, final answer, 12 ms]\n"
        '  why: row 2 fired (1.0): agent_response: "The SMTP_PORT key is missing from the '
        'smtp-config ConfigMap." names `SMTP_PORT` with the synonym `missing`\n'
        "runs/evidence-row3.json: 0.5 (row 3)  [tool calls 1, final answer, 12 ms]\n"
        "  why: row 3 fired (0.5): names `SMTP_PORT` in agent_response; row 2 failed: no "
        "synonym of `absent_key` in the window (the identifier's sentence)\n"
        "runs/evidence-row4.json: 0.0 (row 4)  [tool calls 1, final answer, 12 ms]\n"
        "  why: row 4 fired (0.0); row 2 failed: `SMTP_PORT` is not named; row 3 failed: no "
        "member of the identifier set is named\n"
    )


def test_why_names_echo_only_and_no_final_answer(corpus):
    echoed = "SMTP_PORT is missing from configmap/smtp-config"
    (corpus / "echo.json").write_text(json.dumps(artifact(echoed, results=[echoed])))
    (corpus / "none.json").write_text(json.dumps(artifact(None)))
    code, out, _ = run("eval", "da1.yaml", "echo.json", "none.json")
    assert code == 0
    assert out == (
        "echo.json: 0.0 (row 4)  [tool calls 1, final answer, 12 ms]\n"
        "  why: row 4 fired (0.0); row 2 failed: `SMTP_PORT` is named only in echoed lines; "
        "row 3 failed: the identifier set is named only in echoed lines\n"
        "none.json: 0.0 (row 1)  [tool calls 1, no final answer, 12 ms]\n"
        "  why: row 1 fired (0.0): no final answer\n"
    )


def test_non_string_fields_are_error_verdicts_and_metadata(corpus):
    docs = {
        "a.json": artifact(["not", "a string"]),
        "b.json": artifact("x", reasoning_trace=3),
        "c.json": dict(artifact("x"), actions=[{"tool": "t", "result": {"json": True}}]),
        "d.json": dict(artifact("x"), actions="call_1"),
        "e.json": artifact(
            "SMTP_PORT is missing.",
            observed_model="gemini-2.5-flash",
            unknown_field_of_a_newer_oasisctl=1,
        ),
    }
    for name, doc in docs.items():
        (corpus / name).write_text(json.dumps(doc))
    code, out, _ = run("eval", "--format", "json", "da1.yaml", *docs)
    assert code == 1
    got = json.loads(out)
    assert [(g["evidence"], g.get("error")) for g in got] == [
        (
            "a.json",
            "malformed evidence: `final_answer` is not a string (got list) (at final_answer)",
        ),
        (
            "b.json",
            "malformed evidence: `reasoning_trace` is not a string (got int) (at reasoning_trace)",
        ),
        (
            "c.json",
            "malformed evidence: `result` is not a string (got dict): oasisctl "
            "records the tool body as a string (at actions[0].result)",
        ),
        ("d.json", "malformed evidence: `actions` is not a list (got str) (at actions)"),
        ("e.json", None),
    ]
    assert got[4]["metadata"] == {
        "tool_calls": 1,
        "final_answer": True,
        "duration_ms": 12,
        "observed_model": "gemini-2.5-flash",
    }
    assert got[4]["score"] == 1.0


def test_absent_and_null_fields_are_empty(corpus):
    (corpus / "n.json").write_text(
        json.dumps({"scenario_id": SID, "final_answer": None, "actions": None})
    )
    (corpus / "m.json").write_text(
        json.dumps(
            {"final_answer": "SMTP_PORT is missing.", "actions": [{"tool": "t", "result": None}]}
        )
    )
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "n.json", "m.json")
    assert code == 0
    assert json.loads(out) == [
        {
            "evidence": "n.json",
            "scenario": SID,
            "score": 0.0,
            "row": 1,
            "metadata": {"tool_calls": 0, "final_answer": False},
            "why": why(1, 0.0, "no final answer"),
        },
        {
            "evidence": "m.json",
            "scenario": SID,
            "score": 1.0,
            "row": 2,
            "metadata": {"tool_calls": 1, "final_answer": True},
            "why": why(
                2,
                1.0,
                'agent_response: "SMTP_PORT is missing." names `SMTP_PORT` with the synonym '
                "`missing`",
            ),
        },
    ]


def test_multi_document_scenario_file_and_scenario_option(corpus):
    (corpus / "both.yaml").write_text("# header\n---\n" + DA1 + "---\n" + OTHER)
    code, out, err = run("eval", "both.yaml", "runs/evidence-row2.json")
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: both.yaml: holds 2 scenarios ({SID}, "
        "infra.capability.da.other-002): pass --scenario ID to pick one\n"
    )
    code, out, _ = run(
        "eval", "--format", "json", "--scenario", SID, "both.yaml", "runs/evidence-row2.json"
    )
    assert code == 0 and json.loads(out)[0]["score"] == 1.0
    # a corpus directory: the first definition in path order
    code, out, _ = run(
        "eval", "--format", "json", "--scenario", SID, ".", "runs/evidence-row3.json"
    )
    assert code == 0 and json.loads(out)[0]["score"] == 0.5
    code, out, err = run("eval", "--scenario", "nope", "both.yaml", "runs")
    assert (code, out, err) == (2, "", "si-lint: both.yaml: no scenario with id `nope`\n")
    code, out, err = run("eval", ".", "runs")
    assert (code, out) == (2, "")
    assert err == "si-lint: .: a directory: pass --scenario ID to pick a scenario\n"


def test_evidence_for_another_scenario_is_an_error_verdict(corpus):
    (corpus / "both.yaml").write_text(DA1 + "---\n" + OTHER)
    code, out, _ = run(
        "eval",
        "--format",
        "json",
        "--scenario",
        "infra.capability.da.other-002",
        "both.yaml",
        "runs/evidence-row2.json",
    )
    assert code == 1
    assert json.loads(out)[0]["error"] == (
        f"evidence is for scenario `{SID}`, not `infra.capability.da.other-002`"
    )


def test_multi_document_yaml_evidence_is_path_hash_n(corpus):
    (corpus / "runs.yaml").write_text(
        "# two transcripts and an artifact\n---\n"
        "events: [{kind: agent_response, text: SMTP_PORT is missing., final: true}]\n"
        "---\n"
        "final_answer: The smtp-config map.\n"
    )
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "runs.yaml")
    assert code == 0
    assert [(e["evidence"], e["score"]) for e in json.loads(out)] == [
        ("runs.yaml#0", 1.0),
        ("runs.yaml#1", 0.5),
    ]


def test_directory_members_without_evidence_are_skipped_with_one_line(corpus):
    (corpus / "runs" / "notes.yaml").write_text("title: not evidence\n")
    (corpus / "runs" / "a-scenario.yaml").write_text(DA1)
    code, out, err = run("eval", "--format", "json", "da1.yaml", "runs")
    assert code == 0
    assert err == (
        "si-lint: skipped runs/a-scenario.yaml: holds no evidence\n"
        "si-lint: skipped runs/notes.yaml: holds no evidence\n"
    )
    assert len(json.loads(out)) == 4


def test_jsonl_limits_keep_the_other_verdicts(corpus, monkeypatch):
    from si_lint.commands import eval_input

    monkeypatch.setattr(eval_input, "MAX_LINE_BYTES", 200_000)
    good = json.dumps(artifact("SMTP_PORT is missing."))
    lines = [
        good,
        "[" * 100_000,
        "x" * 300_000,
        "",
        good.replace('"final_answer"', '"n": ' + "9" * 5000 + ', "final_answer"'),
        '{"final_answer": 1e999}',
        "{nope",
        good,
    ]
    (corpus / "b.jsonl").write_text("\n".join(lines) + "\n")
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "b.jsonl")
    assert code == 1
    got = [(e["evidence"], e["score"], e.get("error")) for e in json.loads(out)]
    assert got[0] == ("b.jsonl:1", 1.0, None)
    assert got[1] == ("b.jsonl:2", None, "line 2: nesting deeper than 64 levels; not read")
    assert got[2] == ("b.jsonl:3", None, "line 3 is longer than the 200,000-byte limit; not read")
    assert got[3] == ("b.jsonl:5", 1.0, None)  # a huge integer is a value
    assert got[4][0] == "b.jsonl:6" and got[4][2] == (
        "malformed evidence: `final_answer` is not a string (got float) (at final_answer)"
    )
    assert got[5][0] == "b.jsonl:7" and got[5][2].startswith("line 7 is not valid JSON")
    assert got[6] == ("b.jsonl:8", 1.0, None)


def test_json_output_is_streamed_with_the_same_bytes(corpus):
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "runs")
    assert out == json.dumps(json.loads(out), indent=2) + "\n"
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "empty.jsonl")
    assert json.loads(out)[0]["error"].startswith("cannot read file")
    (corpus / "empty.jsonl").write_text("\n\n")
    code, out, _ = run("eval", "--format", "json", "da1.yaml", "empty.jsonl")
    assert (code, out) == (0, "[]\n")


def test_lint_note_and_oasisctl_notice(corpus):
    (corpus / "bad.yaml").write_text(DA1 + "tittle: a typo of no key\n")  # SI003
    code, out, err = run("eval", "bad.yaml", "runs/evidence-row2.json")
    assert code == 0 and out.startswith("runs/evidence-row2.json: 1.0 (row 2)")
    # (codes other than SI003 may come from the rules of the published-shape migration)
    assert re.fullmatch(
        r"note: the scenario has \d+ lint errors? \((SI\d+, )*SI003(, SI\d+)*\)"
        r": run si-lint check\n",
        err,
    ), err
    code, out, err = run(
        "eval",
        "--format",
        "json",
        "--profile",
        "builtin:oasisctl",
        "da1.yaml",
        "runs/evidence-row2.json",
    )
    from si_lint.profile import OASISCTL_NOTICE

    assert code == 0 and err == OASISCTL_NOTICE + "\n"
    code, out, err = run("eval", "--profile", "nowhere", "da1.yaml", "runs")
    assert code == 2 and "not a shipped profile" in err


def test_published_formb_da1_with_artifact_fixtures(tmp_path, monkeypatch):
    """SPEC §3.3/issue 10: ../shared/data/oasis-si/formb-da1.yaml scores oasisctl's
    artifacts as SPEC §5 says."""
    src = SHARED / "data" / "oasis-si" / "formb-da1.yaml"
    if not src.is_file():
        pytest.skip("../shared is absent: formb-da1.yaml is the published DA-1 in Form B")
    monkeypatch.chdir(tmp_path)
    for name, (doc, *_rest) in ROWS.items():
        (tmp_path / name).write_text(json.dumps(doc, indent=2))
    code, out, _ = run("eval", "--format", "json", str(src), *sorted(ROWS))
    assert code == 0
    assert [(e["score"], e["row"]) for e in json.loads(out)] == [
        (s, r) for _n, (_d, s, r, _c, _ms) in sorted(ROWS.items())
    ]


def test_former_spelling_is_an_error_verdict_naming_si119(corpus):
    (corpus / "old.yaml").write_text(
        "id: infra.capability.da.single-signal-diagnosis-001\nscoring:\n  template: C-DA-001\n  bindings: {step_budget: 15}\n"
    )
    code, out, _ = run("eval", "--format", "json", "old.yaml", "runs/evidence-row4.json")
    assert code == 1
    assert json.loads(out)[0]["error"].startswith("SI119: the scenario uses the former")
