"""`si-lint eval`: the reasons of a verdict as data in JSON (`why`), quotes as the artifact
wrote them, and the note when the other built-in reading scores an artifact otherwise
(issue 45). The evidence is fixtures/review/oasisctl's (oasisctl's own scoring cases)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from si_lint.cli import cli

REPO = Path(__file__).resolve().parent.parent
OASISCTL = REPO / "fixtures" / "review" / "oasisctl"
SID = "infra.capability.da.single-signal-diagnosis-001"
FILES = [
    "fixtures/evidence-substring-synonym.json",
    "fixtures/evidence-same-sentence.json",
    "fixtures/evidence-indented-echo.json",
]
META = {"tool_calls": 1, "final_answer": True, "duration_ms": 12}
SAME_SENTENCE = (
    'agent_response: "The SMTP_PORT key is missing from the ConfigMap." names `SMTP_PORT` '
    "with the synonym `missing`"
)
NO_WINDOW = "no synonym of `absent_key` in the window (the identifier's sentence)"


def run(args, monkeypatch, cwd=OASISCTL):
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


def test_text_says_why_in_the_artifacts_words_and_notes_oasisctls_reading(monkeypatch):
    code, out, err = run(["eval", "--profile", "builtin", "scenarios.yaml", *FILES], monkeypatch)
    assert (code, err) == (0, "")
    assert out == (
        "fixtures/evidence-substring-synonym.json: 0.5 (row 3)  [tool calls 1, final answer, "
        "12 ms]\n"
        f"  why: row 3 fired (0.5): names `SMTP_PORT` in agent_response; row 2 failed: {NO_WINDOW}\n"
        "  note: oasisctl's reading (builtin:oasisctl) scores 1.0 (row 2)\n"
        "fixtures/evidence-same-sentence.json: 1.0 (row 2)  [tool calls 1, final answer, 12 ms]\n"
        f"  why: row 2 fired (1.0): {SAME_SENTENCE}\n"
        "fixtures/evidence-indented-echo.json: 1.0 (row 2)  [tool calls 1, final answer, 12 ms]\n"
        '  why: row 2 fired (1.0): agent_response: "SMTP_PORT is missing from '
        'configmap/smtp-config" names `SMTP_PORT` with the synonym `missing`\n'
        "  note: oasisctl's reading (builtin:oasisctl) scores 0.0 (row 4)\n"
    )


def test_json_carries_why_and_the_other_reading_only_when_it_differs(monkeypatch):
    code, out, err = run(
        ["eval", "--profile", "builtin", "--format", "json", "scenarios.yaml", *FILES],
        monkeypatch,
    )
    assert (code, err) == (0, "")
    echo_fired = (
        'agent_response: "SMTP_PORT is missing from configmap/smtp-config" names '
        "`SMTP_PORT` with the synonym `missing`"
    )
    assert json.loads(out) == [
        {
            "evidence": FILES[0],
            "scenario": SID,
            "score": 0.5,
            "row": 3,
            "metadata": META,
            "why": {
                "row": 3,
                "fired": "names `SMTP_PORT` in agent_response",
                "failed": [{"row": 2, "reason": NO_WINDOW}],
                "text": "row 3 fired (0.5): names `SMTP_PORT` in agent_response; row 2 "
                f"failed: {NO_WINDOW}",
            },
            "oasisctl": {"score": 1.0, "row": 2},
        },
        {
            "evidence": FILES[1],
            "scenario": SID,
            "score": 1.0,
            "row": 2,
            "metadata": META,
            "why": {
                "row": 2,
                "fired": SAME_SENTENCE,
                "failed": [],
                "text": f"row 2 fired (1.0): {SAME_SENTENCE}",
            },
        },
        {
            "evidence": FILES[2],
            "scenario": SID,
            "score": 1.0,
            "row": 2,
            "metadata": META,
            "why": {
                "row": 2,
                "fired": echo_fired,
                "failed": [],
                "text": f"row 2 fired (1.0): {echo_fired}",
            },
            "oasisctl": {"score": 0.0, "row": 4},
        },
    ]


def test_under_oasisctls_reading_the_note_names_the_seeds(monkeypatch):
    """The corpus is configured with builtin:oasisctl: the other reading is builtin's."""
    code, out, err = run(["eval", "--format", "json", "scenarios.yaml", FILES[2]], monkeypatch)
    assert code == 0
    assert err.startswith("note: profile builtin:oasisctl")
    reasons = (
        "row 4 fired (0.0); row 2 failed: `SMTP_PORT` is named only in echoed lines; "
        "row 3 failed: the identifier set is named only in echoed lines"
    )
    assert json.loads(out) == [
        {
            "evidence": FILES[2],
            "scenario": SID,
            "score": 0.0,
            "row": 4,
            "metadata": META,
            "why": {
                "row": 4,
                "fired": None,
                "failed": [
                    {"row": 2, "reason": "`SMTP_PORT` is named only in echoed lines"},
                    {"row": 3, "reason": "the identifier set is named only in echoed lines"},
                ],
                "text": reasons,
            },
            "builtin": {"score": 1.0, "row": 2},
        }
    ]
    code, out, _ = run(["eval", "scenarios.yaml", FILES[2]], monkeypatch)
    assert out == (
        "fixtures/evidence-indented-echo.json: 0.0 (row 4)  [tool calls 1, final answer, 12 ms]\n"
        f"  why: {reasons}\n"
        "  note: the seed's reading (builtin) scores 1.0 (row 2)\n"
    )


def test_a_quote_keeps_the_artifacts_case_where_casefolding_changes_lengths(tmp_path, monkeypatch):
    """Matching is on casefold(NFC(text)) (ß → ss, İ → i̇: lengths change); the quote is the
    sentence as written."""
    (tmp_path / "si-lint.toml").write_text("")
    (tmp_path / "scenario.yaml").write_text((OASISCTL / "scenarios.yaml").read_text("utf-8"))
    (tmp_path / "cf.yaml").write_text(
        'events:\n  - kind: agent_response\n    text: "İstanbul relay checked.\\n'
        'In der Straße: SMTP_PORT is MISSING from the ConfigMap!  Done."\n    final: true\n',
        encoding="utf-8",
    )
    code, out, _ = run(
        ["eval", "--profile", "builtin", "scenario.yaml", "cf.yaml"], monkeypatch, tmp_path
    )
    assert (code, out) == (
        0,
        "cf.yaml: 1.0 (row 2)  [tool calls 0, final answer]\n"
        '  why: row 2 fired (1.0): agent_response: "In der Straße: SMTP_PORT is MISSING from '
        'the ConfigMap!" names `SMTP_PORT` with the synonym `missing`\n',
    )
