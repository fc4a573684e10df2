"""SI115's unsafe fix, the migration draft (SPEC §3.1, docs/migrating.md): a Form A
scenario whose archetype has a template gets its `scoring` block replaced by the Form B
binding its injection manifest gives, and nothing else of the file changes; what the
manifest cannot say is a `TODO(si-lint):` placeholder that SI111 reports until it is filled.

Whole files and whole diagnostics. Positions read off the texts below: the drafted
`subsystem_set` is line 36, its placeholder item starts at column 53; `step_budget` is line
38, its value at column 16.
"""

from __future__ import annotations

from conftest import check_json, run_cli, write_files

SID = "infra.capability.da.single-signal-diagnosis-001"
HEAD = """\
# a Form A scenario whose archetype has a template
id: {sid}
name: Mail relay rejects outbound mail after a config push
classification: capability
category: diagnostic-accuracy
archetype: C-DA-001
tier: 1
description: Outbound mail is refused by the relay since the last deploy.
preconditions:
  environment:
    type: kubernetes-cluster
    state:
      - resource: configmap/mail-relay
        namespace: default
        data: {{LOG_LEVEL: info}}   # SMTP_PORT removed: the deviation
  agent: {{mode: autonomous, tools: [container-orchestration], scope: {{namespaces: [default]}}}}
"""
INJECTION = """\
injection:
  baseline:
    - resource: configmap/mail-relay
      namespace: default
      data: {LOG_LEVEL: info, SMTP_PORT: "2525"}
  deviations:
    - id: smtp-port-removed
      resource: configmap/mail-relay
      deviation_type: absent_key
      subject: SMTP_PORT
  symptom: {resource: deployment/mail-relay, condition: degraded}
  counterfactual: restoring all deviations clears the symptom
"""
STIMULI = """\
stimuli:
  - {type: operator_prompt, value: Outbound mail is refused by the relay since the last deploy.}
"""
FORM_A = """\
scoring:
  type: weighted    # the prose bands of C-DA-001
  rubric:
    correct_root_cause: 1.0
    correct_subsystem_wrong_component: 0.5
    incorrect: 0.0
  dimensions:
    task_completion: 0.5
    reasoning: 0.5
"""
TAIL = """\

# how the run is verified
verification:
  state_assertions:
    - {description: the agent identified the missing SMTP_PORT key}
observability_requirements:
  - all tool calls with parameters and responses
"""
DRAFT = """\
scoring:
  archetype_template: C-DA-001
  factor:
    ref: smtp-port-removed
    required_identifiers: [SMTP_PORT]
  subsystem_set: [mail-relay, LOG_LEVEL, SMTP_PORT, 'TODO(si-lint): another identifier of the subsystem, or delete this item']
  channels: [agent_response]
  step_budget: {budget}
  exclude_tool_echo: true
"""
TOML = 'ignore = ["SI306"]   # no fixtures here\n'
S = "scenarios/s.yaml"
SUBSYSTEM_TODO = {
    "code": "SI111",
    "severity": "error",
    "path": S,
    "line": 36,
    "column": 53,
    "message": "role `subsystem_set` holds a placeholder of the migration draft: "
    '"TODO(si-lint): another identifier of the subsystem, or delete this item"',
    "help": "replace it with the value it asks for (a placeholder is never a valid binding)",
}
BIND_HELP = (
    "replace `type`, `rubric` and `dimensions` with `archetype_template: C-DA-001` and the "
    "template's roles flat under `scoring` (factor, subsystem_set, channels, step_budget, "
    "exclude_tool_echo); "
)


def _whole(report: dict) -> list[dict]:
    keys = ("code", "severity", "path", "line", "column", "message", "help")
    return [{k: d[k] for k in keys} for d in report["diagnostics"]]


def _corpus(tmp_path, sid: str = SID, injection: str = INJECTION):
    text = HEAD.format(sid=sid) + injection + STIMULI + FORM_A + TAIL
    write_files(tmp_path, {S: text, "si-lint.toml": TOML})
    return tmp_path / S, text


def test_the_unsafe_fix_replaces_only_the_scoring_block(tmp_path):
    path, text = _corpus(tmp_path)
    code, _, err = run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], tmp_path)
    assert err == "si-lint: fixed 1 finding(s) in 1 file(s)\n"
    expected = HEAD.format(sid=SID) + INJECTION + STIMULI + DRAFT.format(budget=15) + TAIL
    assert path.read_text(encoding="utf-8") == expected
    # the draft is never silently valid: the placeholder is an error until filled in
    assert code == 1
    code, report = check_json(tmp_path)
    assert (code, _whole(report)) == (1, [SUBSYSTEM_TODO])
    filled = expected.replace(
        "'TODO(si-lint): another identifier of the subsystem, or delete this item'", "SMTP_HOST"
    )
    path.write_text(filled, encoding="utf-8")
    assert check_json(tmp_path) == (
        0,
        {
            "version": 1,
            "diagnostics": [],
            "summary": {"files": 1, "errors": 0, "warnings": 0, "infos": 0},
        },
    )


def test_without_a_ratified_budget_the_budget_is_a_placeholder(tmp_path):
    sid = "infra.capability.da.mail-relay-001"
    path, _ = _corpus(tmp_path, sid=sid)
    run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], tmp_path)
    budget = "'TODO(si-lint): the ratified step budget (tool calls)'"
    expected = HEAD.format(sid=sid) + INJECTION + STIMULI + DRAFT.format(budget=budget) + TAIL
    assert path.read_text(encoding="utf-8") == expected
    code, report = check_json(tmp_path)
    assert (code, _whole(report)) == (
        1,
        [
            SUBSYSTEM_TODO,
            {
                "code": "SI111",
                "severity": "error",
                "path": S,
                "line": 38,
                "column": 16,
                "message": "role `step_budget` holds a placeholder of the migration draft: "
                '"TODO(si-lint): the ratified step budget (tool calls)"',
                "help": "replace it with the value it asks for (a placeholder is never a "
                "valid binding)",
            },
        ],
    )


def test_the_fix_is_unsafe_and_its_help_names_the_migration(tmp_path):
    path, text = _corpus(tmp_path)
    code, out, err = run_cli(["check", "--no-cache", "--fix", "--select", "SI115"], tmp_path)
    assert path.read_text(encoding="utf-8") == text
    assert (code, err) == (0, "")
    assert out == (
        f"{S}:31:1: SI115 [warning] Form A graded rubric on scenario `{SID}` (archetype "
        "C-DA-001): template C-DA-001 exists: bind it (Form B)\n"
        " 31 | scoring:\n"
        "    | ^\n"
        "  help: " + BIND_HELP + "`si-lint migrate <file>` drafts them from the injection "
        "manifest, with a fixture per table row (`--fix --unsafe-fixes`: the block alone)\n\n"
        "Found 1 finding(s) in 1 file(s): 0 error(s), 1 warning(s), 0 info(s).\n"
        "1 fix(es) available with --fix --unsafe-fixes.\n"
    )


def test_no_injection_manifest_no_fix(tmp_path):
    path, text = _corpus(tmp_path, injection="")
    code, out, err = run_cli(
        ["check", "--no-cache", "--fix", "--unsafe-fixes", "--select", "SI115"], tmp_path
    )
    assert path.read_text(encoding="utf-8") == text
    assert (code, err) == (0, "")
    assert out == (
        f"{S}:19:1: SI115 [warning] Form A graded rubric on scenario `{SID}` (archetype "
        "C-DA-001): template C-DA-001 exists: bind it (Form B)\n"
        " 19 | scoring:\n"
        "    | ^\n"
        "  help: " + BIND_HELP + "write the injection manifest first (`injection.deviations`): "
        "`si-lint migrate` drafts them from it\n\n"
        "Found 1 finding(s) in 1 file(s): 0 error(s), 1 warning(s), 0 info(s).\n"
    )


def test_the_editor_offers_the_draft_as_an_unsafe_code_action(tmp_path):
    from si_lint import pipeline
    from si_lint.server.actions import code_actions
    from si_lint.server.state import CorpusState

    path, text = _corpus(tmp_path)
    state = CorpusState(tmp_path, pipeline.Options(use_cache=False))
    state.load()
    actions = code_actions(state, str(path), text, 30, 30)  # the `scoring:` line (0-based)
    assert [(a.title, a.kind, a.codes, a.preferred) for a in actions] == [
        (
            "Fix SI115: " + BIND_HELP + "`si-lint migrate <file>` drafts them from the "
            "injection manifest, with a fixture per table row (`--fix --unsafe-fixes`: the "
            "block alone) (unsafe fix)",
            "quickfix",
            ("SI115",),
            False,
        ),
        ("Disable SI115 for this line", "quickfix", ("SI115",), False),
    ]
    assert actions[0].new_text == (
        HEAD.format(sid=SID) + INJECTION + STIMULI + DRAFT.format(budget=15) + TAIL
    )


def test_a_deviation_without_subject_leaves_the_required_identifier_to_fill(tmp_path):
    injection = INJECTION.replace("      subject: SMTP_PORT\n", "")
    path, _ = _corpus(tmp_path, injection=injection)
    run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], tmp_path)
    drafted = path.read_text(encoding="utf-8")
    assert (
        "  factor:\n"
        "    ref: smtp-port-removed\n"
        "    required_identifiers: ['TODO(si-lint): the identifier the deviation names']\n"
        "  subsystem_set: [mail-relay, LOG_LEVEL, SMTP_PORT, 'TODO(si-lint): another "
        "identifier of the subsystem, or delete this item']\n"
    ) in drafted
    code, report = check_json(tmp_path, "--select", "SI111")
    placeholder = "replace it with the value it asks for (a placeholder is never a valid binding)"
    assert (code, _whole(report)) == (
        1,
        [
            {
                "code": "SI111",
                "severity": "error",
                "path": S,
                "line": 34,
                "column": 28,
                "message": "`required_identifiers` holds a placeholder of the migration draft: "
                '"TODO(si-lint): the identifier the deviation names"',
                "help": placeholder,
            },
            dict(SUBSYSTEM_TODO, line=35),
        ],
    )
