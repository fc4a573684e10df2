"""SI003/SI004 through `si-lint check`, and the `si-lint schema` command."""

import json

import pytest
from conftest import REPO, check_json, diag_tuples, run_cli, write_files

from si_lint.checks.schema import looks_like_a_kind

# -- SI003 -----------------------------------------------------------------------------------

EVIDENCE_BAD = """\
# a recorded run
events:
  - kind: tool_call
    response: "SMTP_HOST: relay.internal"
  - agent_response
  - kind: agent_response
    text: SMTP_PORT is missing.
    final: true
metadata: {duration_s: fast, tokens: 5120}
"""


def test_si003_points_at_each_failing_node(tmp_path):
    write_files(tmp_path, {"runs/r.yaml": EVIDENCE_BAD})
    code, report = check_json(tmp_path)
    assert code == 1
    assert [
        (d["code"], d["path"], d["line"], d["column"], d["severity"], d["message"])
        for d in report["diagnostics"]
    ] == [
        (
            "SI003",
            "runs/r.yaml",
            5,
            5,
            "error",
            'evidence schema: `events[1]` must be a mapping, not a string "agent_response"',
        ),
        (
            "SI003",
            "runs/r.yaml",
            9,
            24,
            "error",
            'evidence schema: `metadata.duration_s` must be a number, not a string "fast"',
        ),
    ]


def test_si003_missing_key_at_the_mapping_and_unexpected_key_at_the_key(tmp_path):
    write_files(
        tmp_path,
        {
            "profile/templates/T.yaml": (
                "template:\n"  # 1
                "  title: T\n"  # 2  (no id)
                "roles:\n"  # 3
                "  n: {type: int}\n"  # 4
                "table: []\n"  # 5
                "notes: hello\n"  # 6
            ),
        },
    )
    _, report = check_json(tmp_path, "--select", "SI003")
    assert diag_tuples(report) == [
        ("SI003", "profile/templates/T.yaml", 1, 1),  # `template` lacks `id`
        ("SI003", "profile/templates/T.yaml", 4, 13),  # the value `int`
        ("SI003", "profile/templates/T.yaml", 6, 1),  # the key `notes`
    ]


FIXTURE_BAD_EVENTS = """\
scenario: {scenario}
expect: {{score: 1.0}}
events:
  - agent_response
  - {{kind: 7, text: SMTP_PORT is missing.}}
"""


def test_fixture_events_are_si408_when_the_dry_run_can_run(tmp_path):
    corpus = REPO / "fixtures" / "corpus" / "scenarios" / "mail-relay-smtp-port.yaml"
    sid = "infra.capability.da.single-signal-diagnosis-001"
    assert f"id: {sid}" in corpus.read_text(encoding="utf-8")
    write_files(
        tmp_path,
        {
            "scenarios/s.yaml": corpus.read_text(encoding="utf-8"),
            "fixtures/f.yaml": FIXTURE_BAD_EVENTS.format(scenario=sid),
        },
    )
    _, report = check_json(tmp_path, "--select", "SI003,SI408")
    assert diag_tuples(report) == [
        ("SI408", "fixtures/f.yaml", 4, 5),  # the item
        ("SI408", "fixtures/f.yaml", 5, 12),  # the `kind` value
    ]


def test_fixture_events_are_si003_when_it_names_no_scenario(tmp_path):
    write_files(tmp_path, {"f.yaml": FIXTURE_BAD_EVENTS.format(scenario="[s]")})
    _, report = check_json(tmp_path, "--select", "SI003,SI408")
    assert diag_tuples(report) == [
        ("SI003", "f.yaml", 1, 11),  # scenario: a list
        ("SI003", "f.yaml", 4, 5),
        ("SI003", "f.yaml", 5, 12),
    ]


def test_template_code_key_is_si204_only(tmp_path):
    write_files(
        tmp_path,
        {
            "t.yaml": (
                "template: {id: T}\ntable:\n  - {when: else, score: 0.0}\nPython: 'return 1.0'\n"
            ),
        },
    )
    _, report = check_json(tmp_path, "--select", "SI003,SI204")
    assert diag_tuples(report) == [("SI204", "t.yaml", 4, 1)]


def test_non_mapping_scoring_is_si116_not_si003(tmp_path):
    write_files(tmp_path, {"s.yaml": "id: s\nscoring: 100% if right\n"})
    _, report = check_json(tmp_path, "--select", "SI003,SI116")
    assert diag_tuples(report) == [("SI116", "s.yaml", 2, 1)]


EIO_INPUT_BAD_EXPECT = """\
module: {module}
context_artifacts:
  - {{name: p.md, kind: eio.artifact.system-prompt, text: Never share card numbers.}}
expect:
  eio.context.guardrail-coverage: {{scor: 0.5}}
  eio.context.role-clarity: NOT_APPLICABL
"""


def test_eio_input_expectations_are_eio401_when_the_dry_run_can_run(tmp_path):
    from conftest import need_shared

    seed = need_shared(REPO.parent / "shared" / "seeds" / "eio.context.criteria.yaml").read_text(
        encoding="utf-8"
    )
    write_files(
        tmp_path,
        {
            "eio/eio.context.criteria.yaml": seed,
            "eio/inputs/a.yaml": EIO_INPUT_BAD_EXPECT.format(module="eio.context.criteria"),
        },
    )
    _, report = check_json(tmp_path, "--select", "SI003,EIO401")
    assert [(d["code"], d["path"], d["line"]) for d in report["diagnostics"]] == [
        ("EIO401", "eio/inputs/a.yaml", 5),
        ("EIO401", "eio/inputs/a.yaml", 6),
    ]


def test_eio_input_expectations_are_si003_without_a_module(tmp_path):
    write_files(tmp_path, {"a.yaml": EIO_INPUT_BAD_EXPECT.format(module="[eio.context.criteria]")})
    _, report = check_json(tmp_path, "--select", "SI003,EIO401")
    assert diag_tuples(report) == [
        ("SI003", "a.yaml", 1, 9),  # module: a list
        ("SI003", "a.yaml", 5, 3),  # the mapping that lacks `score`
        ("SI003", "a.yaml", 5, 36),  # the unexpected key `scor`
        ("SI003", "a.yaml", 6, 29),  # the status value
    ]


def test_fixture_corpus_and_builtin_profile_have_no_schema_findings():
    for where in (REPO / "fixtures" / "corpus", REPO / "si_lint" / "profile_data"):
        _, report = check_json(where, "--select", "SI003,SI004")
        assert report["diagnostics"] == []


# -- SI004 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, path, message",
    [
        (
            "id: s\nscorng: {template: C-DA-001}\n",
            ("scorng",),
            "`scorng` looks like a misspelt `scoring`: the file would be a scenario (`id` + `scoring`) "
            "but has no recognisable kind",
        ),
        (
            "Events: []\n",
            ("Events",),
            "`Events` looks like a misspelt `events`: the file would be evidence or a fixture (`events`) "
            "but has no recognisable kind",
        ),
        (
            "scenario: s\nevnts: []\nexpect: {score: 1.0}\n",
            ("evnts",),
            "`evnts` looks like a misspelt `events`: the file would be evidence or a fixture (`events`) "
            "but has no recognisable kind",
        ),
        (
            "id: s\nscroing: {}\n",
            ("scroing",),
            "`scroing` looks like a misspelt `scoring`: the file would be a scenario (`id` + `scoring`) "
            "but has no recognisable kind",
        ),
        (
            "scenario: s\nexpected: {score: 1.0}\n",
            ("expected",),
            "`expected` looks like a misspelt `expect`: the file would be a fixture (`events` + `expect`) "
            "but has no recognisable kind",
        ),
        (
            "module: m\ncontext-artifacts: []\n",
            ("context-artifacts",),
            "`context-artifacts` looks like a misspelt `context_artifacts`: the file would be an EIO "
            "input (`context_artifacts`) but has no recognisable kind",
        ),
        (
            "title: t\nscoring: {template: C-DA-001}\n",
            ("scoring",),
            "file has `scoring` but no `id`: it looks like a scenario, but a scenario needs both",
        ),
        (
            "id: s\ninjection: {deviations: []}\n",
            ("id",),
            "file has `id` and `injection` but no `scoring`: it looks like a scenario, but a scenario "
            "needs `scoring`",
        ),
        (
            "scenario: s\nexpect: {score: 1.0}\n",
            ("expect",),
            "file has `expect` but no `events`: it looks like a fixture, but a fixture needs the "
            "recorded `events`",
        ),
        (
            "- {note: x}\n- {id: s, scoring: {}}\n",
            (1,),
            "this file is a list; item 2 is a scenario, but a file holds one document",
        ),
    ],
)
def test_si004_heuristic(content, path, message):
    from si_lint.loader import load_bytes

    (diag,) = list(looks_like_a_kind(load_bytes(content.encode()).data))
    assert (diag.code, diag.path, diag.message, diag.on) == ("SI004", path, message, "key")


@pytest.mark.parametrize(
    "content",
    [
        "name: CI\non: [push]\njobs: {test: {runs-on: ubuntu-latest}}\n",  # a GitHub workflow
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mail-relay}\ndata: {SMTP_HOST: x}\n",
        "repos: []\n",  # pre-commit
        "score: 1.0\nrow: 2\nscenario: s\n",  # a saved verdict: `score` is not a near miss
        "expert: {name: x}\n",  # 0.83 from `expect`: below the cut-off
        "id: x\ntitle: t\n",
        "- 1\n- 2\n",
        "just a string\n",
        "",
    ],
)
def test_si004_leaves_other_files_alone(content):
    from si_lint.loader import load_bytes

    assert list(looks_like_a_kind(load_bytes(content.encode()).data)) == []


def test_si004_through_check_is_a_warning_at_the_key(tmp_path):
    write_files(
        tmp_path,
        {
            "fixtures/f.yaml": "# fixture\nscenario: s\nevents_: []\nexpect: {score: 1.0}\n",
            "ci.yaml": "name: CI\non: [push]\n",
        },
    )
    code, report = check_json(tmp_path)
    assert code == 0
    assert [
        (d["code"], d["severity"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]
    ] == [
        ("SI004", "warning", "fixtures/f.yaml", 3, 1),
    ]


def test_si004_is_not_reported_for_classified_documents(tmp_path):
    # `Events` beside a real `events`: the document is evidence, SI004 does not apply
    write_files(tmp_path, {"e.yaml": "events: []\nEvents: []\n"})
    _, report = check_json(tmp_path, "--select", "SI004")
    assert report["diagnostics"] == []


# -- si-lint schema ------------------------------------------------------------------------------

KINDS = (
    "scenario",
    "fixture",
    "evidence",
    "eio-module",
    "eio-input",
    "registry",
    "template",
    "config",
    "report",
)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_command_prints_the_schema_file(kind, tmp_path):
    code, out, _err = run_cli(["schema", kind], tmp_path)
    assert code == 0
    assert out == (REPO / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
    assert json.loads(out)["$id"] == f"https://si-lint.dev/schemas/{kind}.schema.json"


def test_schema_command_list(tmp_path):
    code, out, _err = run_cli(["schema", "--list"], tmp_path)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == list(KINDS)
    assert out.splitlines()[0] == "scenario    OASIS SI scenario (Layer 3, the published shape)"


@pytest.mark.parametrize(
    "args, what",
    [(["schema", "scenarios"], "unknown kind 'scenarios'"), (["schema"], "a KIND is required")],
)
def test_schema_command_usage_errors(args, what, tmp_path):
    code, out, err = run_cli(args, tmp_path)
    assert code == 2
    assert out == ""
    assert err == f"si-lint: schema: {what}; kinds: {', '.join(KINDS)}\n"
