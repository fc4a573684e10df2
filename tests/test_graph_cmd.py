"""`si-lint graph`: dot, graphml, json, svg (through Graphviz's `dot`), --focus, PATHS."""

from __future__ import annotations

import json
import os
import stat
import textwrap

import networkx as nx
from conftest import run_cli, write_files

SID = "mail-001"
SCENARIO = textwrap.dedent(f"""\
    id: {SID}
    archetype: C-DA-001
    injection:
      deviations:
        - id: port
          deviation_type: absent_key
          resource: configmap/mail-relay
          subject: SMTP_PORT
    scoring:
      archetype_template: C-DA-001
      factor: {{ref: port, required_identifiers: [SMTP_PORT]}}
      subsystem_set: [mail-relay, SMTP_PORT]
      channels: [agent_response]
      step_budget: 15
      exclude_tool_echo: true
    """)
FIXTURE = (
    f"scenario: {SID}\nexpect: {{score: 1.0, row: 2}}\nevents:\n"
    "  - {kind: agent_response, text: SMTP_PORT is missing., final: true}\n"
)
FILES = {
    "scenarios/mail.yaml": SCENARIO,
    "fixtures/ok.yaml": FIXTURE,
    "runs/lost.yaml": "scenario: gone-001\nevents: []\n",
}


def test_json_node_link(tmp_path):
    write_files(tmp_path, FILES)
    code, out, err = run_cli(["graph", "--format", "json"], tmp_path)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["directed"], data["multigraph"]) == (True, True)
    assert [n["id"] for n in data["nodes"]] == [
        "deviation:mail-001/port",
        "evidence:runs/lost.yaml",
        "fixture:fixtures/ok.yaml",
        "primitive:factor_identified",
        "primitive:named_in_output",
        "primitive:within_step_budget",
        "role:C-DA-001/channels",
        "role:C-DA-001/exclude_tool_echo",
        "role:C-DA-001/factor",
        "role:C-DA-001/step_budget",
        "role:C-DA-001/subsystem_set",
        "scenario:gone-001",
        "scenario:mail-001",
        "synonyms:absent_key",
        "template:C-DA-001",
    ]
    nodes = {n["id"]: n for n in data["nodes"]}
    assert nodes["scenario:gone-001"] == {
        "id": "scenario:gone-001",
        "kind": "scenario",
        "missing": True,
        "name": "gone-001",
    }
    assert nodes["scenario:mail-001"] == {
        "id": "scenario:mail-001",
        "col": 5,
        "defined_in": ["scenarios/mail.yaml"],
        "file": "scenarios/mail.yaml",
        "kind": "scenario",
        "line": 1,
        "missing": False,
        "name": "mail-001",
        "on": "value",
        "path": "id",
    }
    made_in_files = [e for e in data["edges"] if "file" in e and e["source"] != "template:C-DA-001"]
    assert made_in_files[:3] == [
        {
            "source": "deviation:mail-001/port",
            "target": "synonyms:absent_key",
            "col": 23,
            "file": "scenarios/mail.yaml",
            "line": 6,
            "on": "value",
            "path": "injection.deviations[0].deviation_type",
            "rel": "characterised-by",
        },
        {
            "source": "evidence:runs/lost.yaml",
            "target": "scenario:gone-001",
            "col": 11,
            "file": "runs/lost.yaml",
            "line": 1,
            "on": "value",
            "path": "scenario",
            "rel": "records",
        },
        {
            "source": "fixture:fixtures/ok.yaml",
            "target": "scenario:mail-001",
            "col": 11,
            "file": "fixtures/ok.yaml",
            "line": 1,
            "on": "value",
            "path": "scenario",
            "rel": "tests",
        },
    ]


def test_dot_focus_on_a_fixture(tmp_path):
    write_files(tmp_path, FILES)
    code, out, _ = run_cli(
        ["graph", "--no-findings", "--focus", "fixture:fixtures/ok.yaml"], tmp_path
    )
    assert code == 0
    assert out == textwrap.dedent("""\
        digraph corpus {
          rankdir=LR;
          node [fontname="Helvetica", fontsize=10];
          edge [fontname="Helvetica", fontsize=8];
          subgraph "cluster_0" {
            label="fixtures/ok.yaml"; style="rounded,dashed"; color=gray50;
            fontname="Helvetica"; fontsize=9;
            "fixture:fixtures/ok.yaml" [label="fixture: ok.yaml", shape=folder, tooltip="fixture:fixtures/ok.yaml\\nfixtures/ok.yaml:1:1"];
          }
          subgraph "cluster_1" {
            label="scenarios/mail.yaml"; style="rounded,dashed"; color=gray50;
            fontname="Helvetica"; fontsize=9;
            "scenario:mail-001" [label="scenario: mail-001", shape=box, tooltip="scenario:mail-001\\nscenarios/mail.yaml:1:5"];
          }
          "fixture:fixtures/ok.yaml" -> "scenario:mail-001" [label="tests", tooltip="fixtures/ok.yaml:1:11"];
        }
        """)


def test_focus_by_bare_name_takes_both_directions(tmp_path):
    write_files(tmp_path, FILES)
    code, out, _ = run_cli(["graph", "--format", "json", "--focus", SID], tmp_path)
    assert code == 0
    ids = [n["id"] for n in json.loads(out)["nodes"]]
    assert ids == [
        "deviation:mail-001/port",
        "fixture:fixtures/ok.yaml",
        "role:C-DA-001/channels",
        "role:C-DA-001/exclude_tool_echo",
        "role:C-DA-001/factor",
        "role:C-DA-001/step_budget",
        "role:C-DA-001/subsystem_set",
        "scenario:mail-001",
        "template:C-DA-001",
    ]


def test_unknown_focus_is_a_usage_error(tmp_path):
    write_files(tmp_path, FILES)
    code, out, err = run_cli(["graph", "--focus", "scenario:nope"], tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        "si-lint: --focus: no node `scenario:nope` in the graph (ids look like "
        "`scenario:<id>`, `template:C-DA-001`, `fixture:<path>`)\n"
    )


def test_paths_keep_what_the_named_files_define_and_reference(tmp_path):
    write_files(tmp_path, FILES)
    code, out, _ = run_cli(["graph", "--format", "json", "fixtures/ok.yaml"], tmp_path)
    assert code == 0
    data = json.loads(out)
    assert [n["id"] for n in data["nodes"]] == ["fixture:fixtures/ok.yaml", "scenario:mail-001"]
    assert [(e["source"], e["target"], e["rel"]) for e in data["edges"]] == [
        ("fixture:fixtures/ok.yaml", "scenario:mail-001", "tests")
    ]


def test_output_to_a_missing_directory_is_a_usage_error(tmp_path):
    write_files(tmp_path, FILES)
    target = tmp_path / "missing" / "g.dot"
    code, out, err = run_cli(["graph", "-o", str(target)], tmp_path)
    assert (code, out) == (2, "")
    assert err == f"si-lint: cannot write {target}: No such file or directory\n"


def test_graphml_reads_back(tmp_path):
    write_files(tmp_path, FILES)
    code, out, _ = run_cli(["graph", "--format", "graphml", "-o", "g.graphml"], tmp_path)
    assert (code, out) == (0, "")
    g = nx.read_graphml(tmp_path / "g.graphml", force_multigraph=True)
    assert g.nodes["scenario:mail-001"]["defined_in"] == '["scenarios/mail.yaml"]'
    assert g.nodes["scenario:gone-001"]["missing"] is True
    edges = sorted(
        (u, v, d["rel"], d["path"], d["line"], d["col"])
        for u, v, d in g.edges(data=True)
        if d.get("file") == "scenarios/mail.yaml"
    )
    assert edges == sorted(
        [
            (
                "deviation:mail-001/port",
                "synonyms:absent_key",
                "characterised-by",
                "injection.deviations[0].deviation_type",
                6,
                23,
            ),
            (
                "scenario:mail-001",
                "deviation:mail-001/port",
                "declares",
                "injection.deviations[0]",
                5,
                7,
            ),
            (
                "scenario:mail-001",
                "deviation:mail-001/port",
                "references-deviation",
                "scoring.factor.ref",
                11,
                17,
            ),
            (
                "scenario:mail-001",
                "template:C-DA-001",
                "uses-template",
                "scoring.archetype_template",
                10,
                23,
            ),
            ("scenario:mail-001", "role:C-DA-001/factor", "binds-role", "scoring.factor", 11, 3),
            (
                "scenario:mail-001",
                "role:C-DA-001/subsystem_set",
                "binds-role",
                "scoring.subsystem_set",
                12,
                3,
            ),
            (
                "scenario:mail-001",
                "role:C-DA-001/channels",
                "binds-role",
                "scoring.channels",
                13,
                3,
            ),
            (
                "scenario:mail-001",
                "role:C-DA-001/step_budget",
                "binds-role",
                "scoring.step_budget",
                14,
                3,
            ),
            (
                "scenario:mail-001",
                "role:C-DA-001/exclude_tool_echo",
                "binds-role",
                "scoring.exclude_tool_echo",
                15,
                3,
            ),
        ]
    )


def test_svg_without_graphviz(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, out, err = run_cli(["graph", "--format", "svg"], tmp_path)
    assert (code, out, err) == (
        2,
        "",
        "si-lint: Graphviz `dot` is not installed; use --format dot\n",
    )


def test_svg_through_dot(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "dot"
    # a stand-in for Graphviz: checks its arguments, wraps the DOT it reads in <svg>
    fake.write_text(
        '#!/bin/sh\n[ "$1" = "-Tsvg" ] || exit 3\nprintf "<svg>"\ncat\nprintf "</svg>"\n'
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    flat = bindir / "unflatten"  # Graphviz's, when installed: a stand-in that changes nothing
    flat.write_text("#!/bin/sh\ncat\n")
    flat.chmod(flat.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ.get("PATH", ""))
    code, dot, _ = run_cli(["graph", "--focus", "fixture:fixtures/ok.yaml"], tmp_path)
    code2, svg, err = run_cli(
        ["graph", "--format", "svg", "--focus", "fixture:fixtures/ok.yaml"], tmp_path
    )
    assert (code, code2, err) == (0, 0, "")
    assert svg == f"<svg>{dot}</svg>"


def test_failing_dot_is_reported(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "dot"
    fake.write_text('#!/bin/sh\necho "syntax error in line 1" >&2\nexit 1\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ.get("PATH", ""))
    code, out, err = run_cli(["graph", "--format", "svg"], tmp_path)
    assert (code, out, err) == (2, "", "si-lint: Graphviz `dot` failed: syntax error in line 1\n")


def test_bad_path_is_a_usage_error(tmp_path):
    code, out, err = run_cli(["graph", "nowhere.yaml"], tmp_path)
    assert (code, out, err) == (2, "", "si-lint: nowhere.yaml: no such file or directory\n")
