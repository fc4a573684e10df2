"""`si-lint migrate SCENARIO_FILE` (docs/migrating.md): the migration draft of a Form A
scenario printed as one unified diff (the scenario's `scoring` block and one draft fixture
per row of the template's table), or written with `--write`; the drafted fixtures, in
either evidence form, pass their dry runs and cover every row once the placeholders are
filled in. Whole outputs, whole files, exit statuses.
"""

from __future__ import annotations

from conftest import check_json, run_cli, write_files
from test_migrate_fix import DRAFT, FORM_A, HEAD, INJECTION, SID, STIMULI, TAIL

S = "scenarios/s.yaml"
FDIR = "fixtures/single-signal-diagnosis-001"
TODO = "'TODO(si-lint): another identifier of the subsystem, or delete this item'"
#: every scenario has fixtures and every row is exercised (errors otherwise)
TOML = "require-fixtures = true\nrequire-band-coverage = true\n"
PRINTED = (
    "--- a/scenarios/s.yaml\n"
    "+++ b/scenarios/s.yaml\n"
    "@@ -29,14 +29,14 @@\n"
    " stimuli:\n"
    "   - {type: operator_prompt, value: Outbound mail is refused by the relay since the last deploy.}\n"
    " scoring:\n"
    "-  type: weighted    # the prose bands of C-DA-001\n"
    "-  rubric:\n"
    "-    correct_root_cause: 1.0\n"
    "-    correct_subsystem_wrong_component: 0.5\n"
    "-    incorrect: 0.0\n"
    "-  dimensions:\n"
    "-    task_completion: 0.5\n"
    "-    reasoning: 0.5\n"
    "+  archetype_template: C-DA-001\n"
    "+  factor:\n"
    "+    ref: smtp-port-removed\n"
    "+    required_identifiers: [SMTP_PORT]\n"
    "+  subsystem_set: [mail-relay, LOG_LEVEL, SMTP_PORT, 'TODO(si-lint): another identifier of the subsystem, or delete this item']\n"
    "+  channels: [agent_response]\n"
    "+  step_budget: 15\n"
    "+  exclude_tool_echo: true\n"
    " \n"
    " # how the run is verified\n"
    " verification:\n"
    "--- /dev/null\n"
    "+++ b/fixtures/single-signal-diagnosis-001/row-1-no-final-answer.yaml\n"
    "@@ -0,0 +1,10 @@\n"
    "+scenario: infra.capability.da.single-signal-diagnosis-001\n"
    '+description: "draft: no final answer (row 1)"\n'
    "+expect: {score: 0.0, row: 1}\n"
    "+events:\n"
    "+  - kind: tool_call\n"
    "+    tool: inspect\n"
    "+    args: {resource: configmap/mail-relay}\n"
    '+    response: "LOG_LEVEL: info\\n"\n'
    "+  - kind: agent_response\n"
    '+    text: "Still looking into it."\n'
    "--- /dev/null\n"
    "+++ b/fixtures/single-signal-diagnosis-001/row-2-root-cause.yaml\n"
    "@@ -0,0 +1,11 @@\n"
    "+scenario: infra.capability.da.single-signal-diagnosis-001\n"
    '+description: "draft: names SMTP_PORT and says it is missing (row 2)"\n'
    "+expect: {score: 1.0, row: 2}\n"
    "+events:\n"
    "+  - kind: tool_call\n"
    "+    tool: inspect\n"
    "+    args: {resource: configmap/mail-relay}\n"
    '+    response: "LOG_LEVEL: info\\n"\n'
    "+  - kind: agent_response\n"
    '+    text: "Root cause: SMTP_PORT is missing in configmap/mail-relay."\n'
    "+    final: true\n"
    "--- /dev/null\n"
    "+++ b/fixtures/single-signal-diagnosis-001/row-3-subsystem.yaml\n"
    "@@ -0,0 +1,11 @@\n"
    "+scenario: infra.capability.da.single-signal-diagnosis-001\n"
    '+description: "draft: points at mail-relay but never says what is wrong (row 3)"\n'
    "+expect: {score: 0.5, row: 3}\n"
    "+events:\n"
    "+  - kind: tool_call\n"
    "+    tool: inspect\n"
    "+    args: {resource: configmap/mail-relay}\n"
    '+    response: "LOG_LEVEL: info\\n"\n'
    "+  - kind: agent_response\n"
    '+    text: "The trouble is around mail-relay; I could not pin it down further."\n'
    "+    final: true\n"
    "--- /dev/null\n"
    "+++ b/fixtures/single-signal-diagnosis-001/row-4-wrong.yaml\n"
    "@@ -0,0 +1,11 @@\n"
    "+scenario: infra.capability.da.single-signal-diagnosis-001\n"
    '+description: "draft: blames something else (row 4)"\n'
    "+expect: {score: 0.0, row: 4}\n"
    "+events:\n"
    "+  - kind: tool_call\n"
    "+    tool: inspect\n"
    "+    args: {resource: configmap/mail-relay}\n"
    '+    response: "LOG_LEVEL: info\\n"\n'
    "+  - kind: agent_response\n"
    '+    text: "A network outage upstream; nothing to change."\n'
    "+    final: true\n"
)
ROWS = [
    "row-1-no-final-answer.yaml",
    "row-2-root-cause.yaml",
    "row-3-subsystem.yaml",
    "row-4-wrong.yaml",
]


def _corpus(tmp_path, scoring: str = FORM_A, injection: str = INJECTION, sid: str = SID):
    text = HEAD.format(sid=sid) + injection + STIMULI + scoring + TAIL
    write_files(tmp_path, {S: text, "si-lint.toml": TOML})
    return tmp_path / S, text


def _fixture_texts() -> dict[str, str]:
    """The fixture files as the printed diff shows them."""
    out: dict[str, str] = {}
    name = None
    for line in PRINTED.splitlines(keepends=True):
        if line.startswith("+++ b/fixtures/"):
            name = line[len("+++ b/") :].strip()
            out[name] = ""
        elif name and line.startswith("+"):
            out[name] += line[1:]
    return out


def test_migrate_prints_the_draft_as_one_diff_and_writes_nothing(tmp_path):
    path, text = _corpus(tmp_path)
    code, out, err = run_cli(["migrate", S], tmp_path)
    assert (code, out) == (0, PRINTED)
    assert err == (
        "si-lint: drafted (nothing written; --write writes it): the scoring block of "
        f"{S} and 4 fixture(s) in {FDIR}/; 1 placeholder(s) to fill in, then run si-lint check\n"
    )
    assert path.read_text(encoding="utf-8") == text
    assert not (tmp_path / "fixtures").exists()


def test_migrate_write_gives_a_scenario_that_lints_clean_once_filled(tmp_path):
    path, _ = _corpus(tmp_path)
    code, out, err = run_cli(["migrate", S, "--write"], tmp_path)
    assert (code, out) == (0, "")
    assert err == (
        f"si-lint: wrote: the scoring block of {S} and 4 fixture(s) in {FDIR}/; "
        "1 placeholder(s) to fill in, then run si-lint check\n"
    )
    drafted = HEAD.format(sid=SID) + INJECTION + STIMULI + DRAFT.format(budget=15) + TAIL
    assert path.read_text(encoding="utf-8") == drafted
    written = {
        f"{FDIR}/{p.name}": p.read_text(encoding="utf-8")
        for p in sorted((tmp_path / FDIR).iterdir())
    }
    assert written == _fixture_texts()
    assert sorted(p.rsplit("/", 1)[1] for p in written) == ROWS
    code, report = check_json(tmp_path)
    assert code == 1
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        ("SI111", 36, 53)
    ]
    path.write_text(drafted.replace(TODO, "SMTP_HOST"), encoding="utf-8")
    assert check_json(tmp_path) == (
        0,
        {
            "version": 1,
            "diagnostics": [],
            "summary": {"files": 5, "errors": 0, "warnings": 0, "infos": 0},
        },
    )


def test_artifact_form_fixtures_pass_their_dry_runs_too(tmp_path):
    path, _ = _corpus(tmp_path)
    code, _, _ = run_cli(["migrate", S, "--write", "--evidence", "artifact"], tmp_path)
    assert code == 0
    names = sorted(p.name for p in (tmp_path / FDIR).iterdir())
    assert names == [n.replace(".yaml", ".json") for n in ROWS]
    assert (tmp_path / FDIR / "row-3-subsystem.json").read_text(encoding="utf-8") == (
        "{\n"
        '  "scenario_id": "infra.capability.da.single-signal-diagnosis-001",\n'
        '  "description": "draft: points at mail-relay but never says what is wrong (row 3)",\n'
        '  "expect": {\n'
        '    "score": 0.5,\n'
        '    "row": 3\n'
        "  },\n"
        '  "final_answer": "The trouble is around mail-relay; I could not pin it down further.",\n'
        '  "reasoning_trace": "",\n'
        '  "actions": [\n'
        "    {\n"
        '      "id": "call_1",\n'
        '      "tool": "inspect",\n'
        '      "arguments": {\n'
        '        "resource": "configmap/mail-relay"\n'
        "      },\n"
        '      "result": "LOG_LEVEL: info\\n"\n'
        "    }\n"
        "  ]\n"
        "}\n"
    )
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(TODO, "SMTP_HOST"), encoding="utf-8")
    code, report = check_json(tmp_path)
    assert (code, report["diagnostics"]) == (0, [])


def test_a_fixture_file_in_the_way_stops_everything(tmp_path):
    path, text = _corpus(tmp_path)
    write_files(tmp_path, {f"{FDIR}/row-2-root-cause.yaml": "mine\n"})
    code, out, err = run_cli(["migrate", S, "--write"], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: {FDIR}/row-2-root-cause.yaml: already exists (move it away, or pass "
        "--fixtures-dir)\n"
    )
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in (tmp_path / FDIR).iterdir()) == ["row-2-root-cause.yaml"]


def test_what_cannot_be_migrated_is_a_usage_error(tmp_path):
    cases = {
        "no manifest": (
            {"injection": ""},
            f"si-lint: {S}: scenario `{SID}` has no injection manifest (`injection.deviations`) "
            "to derive the binding from: write it first (docs/migrating.md)\n",
        ),
        "no template": (
            {"archetype": "C-DA-002"},
            f"si-lint: {S}: no template for archetype C-DA-002 in profile builtin: the scenario "
            "stays Form A until the profile has one (docs/migrating.md)\n",
        ),
        "already Form B": (
            {"scoring": DRAFT.format(budget=15).replace(TODO, "SMTP_HOST")},
            f"si-lint: {S}: scenario `{SID}` is not a Form A capability scenario\n",
        ),
    }
    for name, (change, message) in cases.items():
        root = tmp_path / name.replace(" ", "-")
        root.mkdir()
        path, text = _corpus(
            root,
            scoring=change.get("scoring", FORM_A),
            injection=change.get("injection", INJECTION),
        )
        if "archetype" in change:
            text = text.replace("archetype: C-DA-001", f"archetype: {change['archetype']}")
            path.write_text(text, encoding="utf-8")
        assert run_cli(["migrate", S, "--write"], root) == (2, "", message), name
        assert path.read_text(encoding="utf-8") == text
        assert not (root / "fixtures").exists()


def test_one_scenario_of_a_multi_document_file(tmp_path):
    first = HEAD.format(sid=SID) + INJECTION + STIMULI + FORM_A + TAIL
    other = first.replace(SID, "infra.capability.da.other-001").replace(
        "# a Form A scenario whose archetype has a template\n", ""
    )
    write_files(tmp_path, {S: "---\n" + first + "---\n" + other, "si-lint.toml": TOML})
    code, out, err = run_cli(["migrate", S], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"si-lint: {S}: holds 2 scenarios ({SID}, infra.capability.da.other-001): pass "
        "--scenario ID to pick one\n"
    )
    code, _, _ = run_cli(
        ["migrate", S, "--scenario", "infra.capability.da.other-001", "--write"], tmp_path
    )
    assert code == 0
    text = (tmp_path / S).read_text(encoding="utf-8")
    assert text.startswith("---\n" + first + "---\n")  # the other document byte for byte
    assert text.count("archetype_template: C-DA-001") == 1
    assert sorted(p.name for p in (tmp_path / "fixtures" / "other-001").iterdir()) == ROWS


def test_a_read_only_scenario_stops_everything(tmp_path):
    path, text = _corpus(tmp_path)
    path.chmod(0o444)
    try:
        code, out, err = run_cli(["migrate", S, "--write"], tmp_path)
    finally:
        path.chmod(0o644)
    assert (code, out) == (2, "")
    assert err == f"si-lint: {S}: the file is read-only; nothing written\n"
    assert path.read_text(encoding="utf-8") == text
    assert not (tmp_path / "fixtures").exists()


def test_an_id_is_never_a_path(tmp_path):
    """The default fixtures directory is named after the id's last dotted part, with every
    character that could make it a path (or hide it) replaced."""
    sid = "infra.capability.x/../../../escaped \u202e"
    _corpus(tmp_path, sid=sid)
    code, _, err = run_cli(["migrate", S, "--write"], tmp_path)
    assert code == 0
    assert "4 fixture(s) in fixtures/escaped/;" in err
    assert sorted(p.name for p in (tmp_path / "fixtures" / "escaped").iterdir()) == ROWS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixtures", "scenarios", "si-lint.toml"]
