"""`si-lint eval SCENARIO EVIDENCE...` (SPEC §5 ordering, §7 JSON shape and exit codes)."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from si_lint.cli import cli

SID = "infra.capability.da.single-signal-diagnosis-001"

SCENARIO_YAML = f"""\
id: {SID}
archetype: C-DA-001
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: absent_key
scoring:
  archetype_template: C-DA-001
  factor: {{ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}}
  subsystem_set: [mail-relay, SMTP_PORT]
  channels: [agent_response]
  step_budget: 15
  exclude_tool_echo: true
"""

GOOD = """\
scenario: infra.capability.da.single-signal-diagnosis-001
events:
  - kind: tool_call
    tool: get_configmap
    response: "SMTP_HOST: relay.internal"
  - kind: agent_response
    text: Root cause - SMTP_PORT is missing.
    final: true
metadata: {duration_s: 41.2, tokens: 5120}
"""

PARTIAL = """\
events:
  - {kind: agent_response, text: The mail-relay is broken., final: true}
"""


def line(text, final=True):
    return json.dumps({"events": [{"kind": "agent_response", "text": text, "final": final}]})


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenario.yaml").write_text(SCENARIO_YAML)
    runs = tmp_path / "runs"
    (runs / "sub").mkdir(parents=True)
    (runs / "b.yaml").write_text(PARTIAL)
    (runs / "a.yaml").write_text(GOOD)
    (runs / "sub" / "c.json").write_text(line("DNS"))
    (runs / "notes.txt").write_text("not evidence")
    (runs / ".hidden.yaml").write_text("{")
    (tmp_path / "batch.jsonl").write_text(
        line("SMTP_PORT missing") + "\n\n   \n" + line("SMTP_PORT", final=None) + "\n"
    )
    return tmp_path


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def meta(tool_calls, final, **extra):
    return {"tool_calls": tool_calls, "final_answer": final, **extra}


#: the reasons of each verdict, as `eval --format json` gives them (quotes as written)
WHY_SAYS_MISSING = {
    "row": 2,
    "fired": 'agent_response: "SMTP_PORT missing" names `SMTP_PORT` with the synonym `missing`',
    "failed": [],
    "text": 'row 2 fired (1.0): agent_response: "SMTP_PORT missing" names `SMTP_PORT` with '
    "the synonym `missing`",
}
WHY_NO_FINAL = {
    "row": 1,
    "fired": "no final answer",
    "failed": [],
    "text": "row 1 fired (0.0): no final answer",
}
WHY_ROOT_CAUSE = {
    "row": 2,
    "fired": 'agent_response: "Root cause - SMTP_PORT is missing." names `SMTP_PORT` with '
    "the synonym `missing`",
    "failed": [],
    "text": 'row 2 fired (1.0): agent_response: "Root cause - SMTP_PORT is missing." names '
    "`SMTP_PORT` with the synonym `missing`",
}
WHY_RELAY_ONLY = {
    "row": 3,
    "fired": "names `mail-relay` in agent_response",
    "failed": [{"row": 2, "reason": "`SMTP_PORT` is not named"}],
    "text": "row 3 fired (0.5): names `mail-relay` in agent_response; row 2 failed: "
    "`SMTP_PORT` is not named",
}
WHY_ELSE = {
    "row": 4,
    "fired": None,
    "failed": [
        {"row": 2, "reason": "`SMTP_PORT` is not named"},
        {"row": 3, "reason": "no member of the identifier set is named"},
    ],
    "text": "row 4 fired (0.0); row 2 failed: `SMTP_PORT` is not named; row 3 failed: no "
    "member of the identifier set is named",
}


def test_json_argument_order_directories_and_jsonl(corpus):
    code, out, err = run(
        "eval", "--format", "json", "scenario.yaml", "batch.jsonl", "runs", "runs/b.yaml"
    )
    assert (code, err) == (0, "")
    assert json.loads(out) == [
        {
            "evidence": "batch.jsonl:1",
            "scenario": SID,
            "score": 1.0,
            "row": 2,
            "metadata": meta(0, True),
            "why": WHY_SAYS_MISSING,
        },
        {
            "evidence": "batch.jsonl:4",
            "scenario": SID,
            "score": 0.0,
            "row": 1,
            "metadata": meta(0, False),
            "why": WHY_NO_FINAL,
        },
        {
            "evidence": "runs/a.yaml",
            "scenario": SID,
            "score": 1.0,
            "row": 2,
            "metadata": meta(1, True, duration_s=41.2, tokens=5120),
            "why": WHY_ROOT_CAUSE,
        },
        {
            "evidence": "runs/b.yaml",
            "scenario": SID,
            "score": 0.5,
            "row": 3,
            "metadata": meta(0, True),
            "why": WHY_RELAY_ONLY,
        },
        {
            "evidence": "runs/sub/c.json",
            "scenario": SID,
            "score": 0.0,
            "row": 4,
            "metadata": meta(0, True),
            "why": WHY_ELSE,
        },
        {
            "evidence": "runs/b.yaml",
            "scenario": SID,
            "score": 0.5,
            "row": 3,
            "metadata": meta(0, True),
            "why": WHY_RELAY_ONLY,
        },
    ]


def test_text_format(corpus):
    code, out, _ = run("eval", "scenario.yaml", "runs/a.yaml", "runs/b.yaml")
    assert code == 0
    assert out == (
        "runs/a.yaml: 1.0 (row 2)  [tool calls 1, final answer, 41.2 s, 5120 tokens]\n"
        '  why: row 2 fired (1.0): agent_response: "Root cause - SMTP_PORT is missing." names '
        "`SMTP_PORT` with the synonym `missing`\n"
        "runs/b.yaml: 0.5 (row 3)  [tool calls 0, final answer]\n"
        "  why: row 3 fired (0.5): names `mail-relay` in agent_response; row 2 failed: "
        "`SMTP_PORT` is not named\n"
    )


def test_error_verdicts_exit_1(corpus):
    (corpus / "bad.yaml").write_text("scenario: other\nevents: []\n")
    (corpus / "broken.yaml").write_text("events: [\n")
    (corpus / "bad.jsonl").write_text("{nope\n" + line("SMTP_PORT missing") + "\n")
    code, out, _ = run(
        "eval",
        "--format",
        "json",
        "scenario.yaml",
        "bad.yaml",
        "bad.jsonl",
        "missing.yaml",
        "broken.yaml",
    )
    assert code == 1
    got = json.loads(out)
    assert got[0] == {
        "evidence": "bad.yaml",
        "scenario": SID,
        "score": None,
        "row": None,
        "error": f"evidence is for scenario `other`, not `{SID}`",
        "metadata": meta(0, False),
    }
    assert got[1]["evidence"] == "bad.jsonl:1"
    assert got[1]["score"] is None and got[1]["error"].startswith("line 1 is not valid JSON")
    assert got[2] == {
        "evidence": "bad.jsonl:2",
        "scenario": SID,
        "score": 1.0,
        "row": 2,
        "metadata": meta(0, True),
        "why": WHY_SAYS_MISSING,
    }
    assert got[3]["evidence"] == "missing.yaml"
    assert got[3]["error"].startswith("cannot read file")
    assert got[4]["evidence"] == "broken.yaml"
    assert got[4]["error"].startswith("file is not valid YAML/JSON: SI001")
    assert [e["evidence"] for e in got] == [
        "bad.yaml",
        "bad.jsonl:1",
        "bad.jsonl:2",
        "missing.yaml",
        "broken.yaml",
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        ("id: x\n", "scenario.yaml: holds no scenario (a mapping with `id` and `scoring`)"),
        (
            "id: x\nscoring: {type: weighted, rubric: prose}\n",
            "scenario.yaml: scenario has no decision table (Form A or safety scoring cannot be "
            "evaluated)",
        ),
    ],
)
def test_unusable_scenario_exits_2(corpus, content, message):
    (corpus / "scenario.yaml").write_text(content)
    code, out, err = run("eval", "scenario.yaml", "runs/a.yaml")
    assert (code, out, err) == (2, "", f"si-lint: {message}\n")


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "id: x\nscoring: {archetype_template: C-NOPE}\n",
            "`scoring.archetype_template` names no known template `C-NOPE`",
        ),
        (
            "id: x\nscoring:\n  composite:\n    reason: r\n    table:\n"
            "      - {when: else, score: 1.0}\n      - {when: {ops_precede: {}}, score: 0.0}\n",
            "invalid decision table: row 2.when: `ops_precede` is not a registered primitive",
        ),
    ],
)
def test_invalid_table_gives_every_artifact_an_error_verdict(corpus, content, message):
    """SPEC §5: the JSON list is still printed, every verdict an error, exit 1."""
    (corpus / "scenario.yaml").write_text(content)
    code, out, _ = run("eval", "--format", "json", "scenario.yaml", "runs/b.yaml", "batch.jsonl")
    assert code == 1
    assert json.loads(out) == [
        {
            "evidence": "runs/b.yaml",
            "scenario": "x",
            "score": None,
            "row": None,
            "error": message,
            "metadata": meta(0, True),
        },
        {
            "evidence": "batch.jsonl:1",
            "scenario": "x",
            "score": None,
            "row": None,
            "error": message,
            "metadata": meta(0, True),
        },
        {
            "evidence": "batch.jsonl:4",
            "scenario": "x",
            "score": None,
            "row": None,
            "error": message,
            "metadata": meta(0, False),
        },
    ]


def test_unreadable_scenario_exits_2(corpus):
    code, out, err = run("eval", "nowhere.yaml", "runs/a.yaml")
    assert code == 2 and out == ""
    assert err.startswith("si-lint: nowhere.yaml: cannot read file")


def test_untrusted_implementation_is_an_error_verdict_naming_si409(corpus):
    from si_lint.profile import BUILTIN_DIR

    prof = corpus / "profile"
    (prof / "templates").mkdir(parents=True)
    registry = (BUILTIN_DIR / "registry.yaml").read_text()
    registry = registry.replace(
        "candidates:",
        textwrap.dedent("""\
          - name: ops_precede
            evidence: [tool_calls]
            question: did op a precede op b?
            implementation: impl/ops.py:ops_precede
            params:
              - {name: first, type: identifier_set, required: true}
        candidates:"""),
    )
    (prof / "registry.yaml").write_text(registry)
    (prof / "templates" / "C-DA-001.yaml").write_text(
        (BUILTIN_DIR / "templates" / "C-DA-001.yaml").read_text()
    )
    (corpus / "si-lint.toml").write_text('profile = "profile"\n')
    (corpus / "scenario.yaml").write_text(
        "id: x\nscoring:\n  composite:\n    reason: r\n    table:\n"
        "      - {when: {ops_precede: {first: [a]}}, score: 1.0}\n"
        "      - {when: else, score: 0.0}\n"
    )
    code, out, err = run("eval", "--format", "json", "scenario.yaml", "runs/b.yaml")
    assert code == 1
    assert json.loads(out) == [
        {
            "evidence": "runs/b.yaml",
            "scenario": "x",
            "score": None,
            "row": None,
            "error": "SI409: the table needs `ops_precede`, which has no trusted implementation "
            "(run with --trust-implementations to import it)",
            "metadata": meta(0, True),
        }
    ]


def test_requires_evidence(corpus):
    code, _, err = run("eval", "scenario.yaml")
    assert code == 2 and "Missing argument" in err
