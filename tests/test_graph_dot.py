"""`si-lint graph` drawn for reading (issue 45): files as clusters, isolated nodes hidden
(--all-nodes), parallel edges of one relation merged, check findings painted on their
nodes (--no-findings), --focus; whole DOT outputs of a small corpus. Graphviz is not
needed: the DOT text is what is tested (svg through a stand-in `dot`)."""

from __future__ import annotations

import json
import os
import re
import stat

import networkx as nx
import pytest
from conftest import REPO, SHARED, run_cli, write_files

from si_lint.graph.dot import findings_by_node

SID = "infra.capability.da.single-signal-diagnosis-001"
SCENARIO = (
    REPO / "fixtures" / "review" / "proposed" / "scenarios" / "mail-relay-smtp-port.yaml"
).read_text(encoding="utf-8")
FILES = {
    "si-lint.toml": "",
    # a deviation type with no synonym list (SI108, on the deviation) and a suppression
    # that suppresses nothing (SI009, a warning on the scenario)
    "scenarios/mail.yaml": SCENARIO.replace(
        "deviation_type: absent_key", "deviation_type: absent_keys"
    ).replace("  step_budget: 15\n", "  step_budget: 15   # si-lint: disable=SI114\n"),
    "fixtures/relay.yaml": (
        f"scenario: {SID}\nexpect: {{score: 0.5, row: 3}}\nevents:\n"
        "  - {kind: agent_response, text: The mail-relay is broken., final: true}\n"
    ),
    "runs/lost.yaml": "scenario: gone-001\nevents: []\n",  # SI303, and a missing node
    "runs/anon.yaml": "events:\n  - {kind: agent_response, text: hi, final: true}\n",  # no edge
}

DEFAULT = f"""\
digraph corpus {{
  rankdir=LR;
  node [fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=8];
  subgraph "cluster_0" {{
    label="fixtures/relay.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "fixture:fixtures/relay.yaml" [label="fixture: relay.yaml", shape=folder, tooltip="fixture:fixtures/relay.yaml\\nfixtures/relay.yaml:1:1"];
  }}
  subgraph "cluster_1" {{
    label="runs/lost.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "evidence:runs/lost.yaml" [label="evidence: lost.yaml\\n1 error", shape=folder, style=filled, fillcolor="#f4cccc", tooltip="evidence:runs/lost.yaml\\nruns/lost.yaml:1:1\\n1:11: SI303 [error] evidence names an unknown scenario `gone-001`"];
  }}
  subgraph "cluster_2" {{
    label="scenarios/mail.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "deviation:{SID}/smtp-port-removed" [label="deviation: smtp-port-removed\\n1 error", shape=diamond, style=filled, fillcolor="#f4cccc", tooltip="deviation:{SID}/smtp-port-removed\\nscenarios/mail.yaml:22:11\\n24:23: SI108 [error] deviation type `absent_keys` has no synonym list in the profile (lists exist for: absent_key); factor_identified can never hold"];
    "scenario:{SID}" [label="scenario: {SID}\\n1 warning", shape=box, style=filled, fillcolor="#fff2cc", tooltip="scenario:{SID}\\nscenarios/mail.yaml:1:5\\n35:21: SI009 [warning] suppression `si-lint: disable=SI114` suppresses nothing"];
  }}
  subgraph "cluster_3" {{
    label="built-in profile"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "primitive:factor_identified" [label="primitive: factor_identified", shape=hexagon, tooltip="primitive:factor_identified"];
    "primitive:named_in_output" [label="primitive: named_in_output", shape=hexagon, tooltip="primitive:named_in_output"];
    "primitive:within_step_budget" [label="primitive: within_step_budget", shape=hexagon, tooltip="primitive:within_step_budget"];
    "role:C-DA-001/channels" [label="role: channels", shape=ellipse, tooltip="role:C-DA-001/channels"];
    "role:C-DA-001/exclude_tool_echo" [label="role: exclude_tool_echo", shape=ellipse, tooltip="role:C-DA-001/exclude_tool_echo"];
    "role:C-DA-001/factor" [label="role: factor", shape=ellipse, tooltip="role:C-DA-001/factor"];
    "role:C-DA-001/step_budget" [label="role: step_budget", shape=ellipse, tooltip="role:C-DA-001/step_budget"];
    "role:C-DA-001/subsystem_set" [label="role: subsystem_set", shape=ellipse, tooltip="role:C-DA-001/subsystem_set"];
    "template:C-DA-001" [label="template: C-DA-001", shape=component, tooltip="template:C-DA-001"];
  }}
  "scenario:gone-001" [label="scenario:gone-001", shape=box, style=dashed, color=red, fontcolor=red, tooltip="scenario:gone-001"];
  "synonyms:absent_keys" [label="synonyms:absent_keys", shape=note, style=dashed, color=red, fontcolor=red, tooltip="synonyms:absent_keys"];
  "deviation:{SID}/smtp-port-removed" -> "synonyms:absent_keys" [label="characterised-by", tooltip="scenarios/mail.yaml:24:23"];
  "evidence:runs/lost.yaml" -> "scenario:gone-001" [label="records", tooltip="runs/lost.yaml:1:11"];
  "fixture:fixtures/relay.yaml" -> "scenario:{SID}" [label="tests", tooltip="fixtures/relay.yaml:1:11"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="declares", tooltip="scenarios/mail.yaml:22:7"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="references-deviation", tooltip="scenarios/mail.yaml:32:17"];
  "scenario:{SID}" -> "role:C-DA-001/channels" [label="binds-role", tooltip="scenarios/mail.yaml:34:3"];
  "scenario:{SID}" -> "role:C-DA-001/exclude_tool_echo" [label="binds-role", tooltip="scenarios/mail.yaml:36:3"];
  "scenario:{SID}" -> "role:C-DA-001/factor" [label="binds-role", tooltip="scenarios/mail.yaml:32:3"];
  "scenario:{SID}" -> "role:C-DA-001/step_budget" [label="binds-role", tooltip="scenarios/mail.yaml:35:3"];
  "scenario:{SID}" -> "role:C-DA-001/subsystem_set" [label="binds-role", tooltip="scenarios/mail.yaml:33:3"];
  "scenario:{SID}" -> "template:C-DA-001" [label="uses-template", tooltip="scenarios/mail.yaml:31:23"];
  "template:C-DA-001" -> "primitive:factor_identified" [label="calls"];
  "template:C-DA-001" -> "primitive:named_in_output" [label="calls"];
  "template:C-DA-001" -> "primitive:within_step_budget" [label="calls"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="uses-role"];
}}
"""

ALL_NODES_NO_FINDINGS = f"""\
digraph corpus {{
  rankdir=LR;
  node [fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=8];
  subgraph "cluster_0" {{
    label="fixtures/relay.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "fixture:fixtures/relay.yaml" [label="fixture: relay.yaml", shape=folder, tooltip="fixture:fixtures/relay.yaml\\nfixtures/relay.yaml:1:1"];
  }}
  subgraph "cluster_1" {{
    label="runs/anon.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "evidence:runs/anon.yaml" [label="evidence: anon.yaml", shape=folder, tooltip="evidence:runs/anon.yaml\\nruns/anon.yaml:1:1"];
  }}
  subgraph "cluster_2" {{
    label="runs/lost.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "evidence:runs/lost.yaml" [label="evidence: lost.yaml", shape=folder, tooltip="evidence:runs/lost.yaml\\nruns/lost.yaml:1:1"];
  }}
  subgraph "cluster_3" {{
    label="scenarios/mail.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "deviation:{SID}/smtp-port-removed" [label="deviation: smtp-port-removed", shape=diamond, tooltip="deviation:{SID}/smtp-port-removed\\nscenarios/mail.yaml:22:11"];
    "scenario:{SID}" [label="scenario: {SID}", shape=box, tooltip="scenario:{SID}\\nscenarios/mail.yaml:1:5"];
  }}
  subgraph "cluster_4" {{
    label="built-in profile"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "primitive:factor_identified" [label="primitive: factor_identified", shape=hexagon, tooltip="primitive:factor_identified"];
    "primitive:named_in_output" [label="primitive: named_in_output", shape=hexagon, tooltip="primitive:named_in_output"];
    "primitive:within_step_budget" [label="primitive: within_step_budget", shape=hexagon, tooltip="primitive:within_step_budget"];
    "role:C-DA-001/channels" [label="role: channels", shape=ellipse, tooltip="role:C-DA-001/channels"];
    "role:C-DA-001/exclude_tool_echo" [label="role: exclude_tool_echo", shape=ellipse, tooltip="role:C-DA-001/exclude_tool_echo"];
    "role:C-DA-001/factor" [label="role: factor", shape=ellipse, tooltip="role:C-DA-001/factor"];
    "role:C-DA-001/step_budget" [label="role: step_budget", shape=ellipse, tooltip="role:C-DA-001/step_budget"];
    "role:C-DA-001/subsystem_set" [label="role: subsystem_set", shape=ellipse, tooltip="role:C-DA-001/subsystem_set"];
    "synonyms:absent_key" [label="synonyms: absent_key", shape=note, tooltip="synonyms:absent_key"];
    "template:C-DA-001" [label="template: C-DA-001", shape=component, tooltip="template:C-DA-001"];
  }}
  "scenario:gone-001" [label="scenario:gone-001", shape=box, style=dashed, color=red, fontcolor=red, tooltip="scenario:gone-001"];
  "synonyms:absent_keys" [label="synonyms:absent_keys", shape=note, style=dashed, color=red, fontcolor=red, tooltip="synonyms:absent_keys"];
  "deviation:{SID}/smtp-port-removed" -> "synonyms:absent_keys" [label="characterised-by", tooltip="scenarios/mail.yaml:24:23"];
  "evidence:runs/lost.yaml" -> "scenario:gone-001" [label="records", tooltip="runs/lost.yaml:1:11"];
  "fixture:fixtures/relay.yaml" -> "scenario:{SID}" [label="tests", tooltip="fixtures/relay.yaml:1:11"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="declares", tooltip="scenarios/mail.yaml:22:7"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="references-deviation", tooltip="scenarios/mail.yaml:32:17"];
  "scenario:{SID}" -> "role:C-DA-001/channels" [label="binds-role", tooltip="scenarios/mail.yaml:34:3"];
  "scenario:{SID}" -> "role:C-DA-001/exclude_tool_echo" [label="binds-role", tooltip="scenarios/mail.yaml:36:3"];
  "scenario:{SID}" -> "role:C-DA-001/factor" [label="binds-role", tooltip="scenarios/mail.yaml:32:3"];
  "scenario:{SID}" -> "role:C-DA-001/step_budget" [label="binds-role", tooltip="scenarios/mail.yaml:35:3"];
  "scenario:{SID}" -> "role:C-DA-001/subsystem_set" [label="binds-role", tooltip="scenarios/mail.yaml:33:3"];
  "scenario:{SID}" -> "template:C-DA-001" [label="uses-template", tooltip="scenarios/mail.yaml:31:23"];
  "template:C-DA-001" -> "primitive:factor_identified" [label="calls"];
  "template:C-DA-001" -> "primitive:named_in_output" [label="calls"];
  "template:C-DA-001" -> "primitive:within_step_budget" [label="calls"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="uses-role"];
}}
"""

FOCUS = f"""\
digraph corpus {{
  rankdir=LR;
  node [fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=8];
  subgraph "cluster_0" {{
    label="fixtures/relay.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "fixture:fixtures/relay.yaml" [label="fixture: relay.yaml", shape=folder, tooltip="fixture:fixtures/relay.yaml\\nfixtures/relay.yaml:1:1"];
  }}
  subgraph "cluster_1" {{
    label="scenarios/mail.yaml"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "deviation:{SID}/smtp-port-removed" [label="deviation: smtp-port-removed\\n1 error", shape=diamond, style=filled, fillcolor="#f4cccc", tooltip="deviation:{SID}/smtp-port-removed\\nscenarios/mail.yaml:22:11\\n24:23: SI108 [error] deviation type `absent_keys` has no synonym list in the profile (lists exist for: absent_key); factor_identified can never hold"];
    "scenario:{SID}" [label="scenario: {SID}\\n1 warning", shape=box, style=filled, fillcolor="#fff2cc", tooltip="scenario:{SID}\\nscenarios/mail.yaml:1:5\\n35:21: SI009 [warning] suppression `si-lint: disable=SI114` suppresses nothing"];
  }}
  subgraph "cluster_2" {{
    label="built-in profile"; style="rounded,dashed"; color=gray50;
    fontname="Helvetica"; fontsize=9;
    "role:C-DA-001/channels" [label="role: channels", shape=ellipse, tooltip="role:C-DA-001/channels"];
    "role:C-DA-001/exclude_tool_echo" [label="role: exclude_tool_echo", shape=ellipse, tooltip="role:C-DA-001/exclude_tool_echo"];
    "role:C-DA-001/factor" [label="role: factor", shape=ellipse, tooltip="role:C-DA-001/factor"];
    "role:C-DA-001/step_budget" [label="role: step_budget", shape=ellipse, tooltip="role:C-DA-001/step_budget"];
    "role:C-DA-001/subsystem_set" [label="role: subsystem_set", shape=ellipse, tooltip="role:C-DA-001/subsystem_set"];
    "template:C-DA-001" [label="template: C-DA-001", shape=component, tooltip="template:C-DA-001"];
  }}
  "fixture:fixtures/relay.yaml" -> "scenario:{SID}" [label="tests", tooltip="fixtures/relay.yaml:1:11"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="declares", tooltip="scenarios/mail.yaml:22:7"];
  "scenario:{SID}" -> "deviation:{SID}/smtp-port-removed" [label="references-deviation", tooltip="scenarios/mail.yaml:32:17"];
  "scenario:{SID}" -> "role:C-DA-001/channels" [label="binds-role", tooltip="scenarios/mail.yaml:34:3"];
  "scenario:{SID}" -> "role:C-DA-001/exclude_tool_echo" [label="binds-role", tooltip="scenarios/mail.yaml:36:3"];
  "scenario:{SID}" -> "role:C-DA-001/factor" [label="binds-role", tooltip="scenarios/mail.yaml:32:3"];
  "scenario:{SID}" -> "role:C-DA-001/step_budget" [label="binds-role", tooltip="scenarios/mail.yaml:35:3"];
  "scenario:{SID}" -> "role:C-DA-001/subsystem_set" [label="binds-role", tooltip="scenarios/mail.yaml:33:3"];
  "scenario:{SID}" -> "template:C-DA-001" [label="uses-template", tooltip="scenarios/mail.yaml:31:23"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/channels" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/exclude_tool_echo" [label="uses-role ×2"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/factor" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/step_budget" [label="uses-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="declares-role"];
  "template:C-DA-001" -> "role:C-DA-001/subsystem_set" [label="uses-role"];
}}
"""


def test_default_draws_files_as_boxes_hides_isolated_nodes_merges_edges_paints_findings(
    tmp_path,
):
    write_files(tmp_path, FILES)
    assert run_cli(["graph"], tmp_path) == (0, DEFAULT, "")


def test_all_nodes_and_no_findings(tmp_path):
    write_files(tmp_path, FILES)
    assert run_cli(["graph", "--all-nodes", "--no-findings"], tmp_path) == (
        0,
        ALL_NODES_NO_FINDINGS,
        "",
    )


def test_focus_keeps_its_node_and_paints_the_findings_there(tmp_path):
    write_files(tmp_path, FILES)
    assert run_cli(["graph", "--focus", SID], tmp_path) == (0, FOCUS, "")
    # a node no edge touches is drawn when it is the one asked for
    assert run_cli(["graph", "--focus", "evidence:runs/anon.yaml"], tmp_path) == (
        0,
        "digraph corpus {\n"
        "  rankdir=LR;\n"
        '  node [fontname="Helvetica", fontsize=10];\n'
        '  edge [fontname="Helvetica", fontsize=8];\n'
        '  subgraph "cluster_0" {\n'
        '    label="runs/anon.yaml"; style="rounded,dashed"; color=gray50;\n'
        '    fontname="Helvetica"; fontsize=9;\n'
        '    "evidence:runs/anon.yaml" [label="evidence: anon.yaml", shape=folder, '
        'tooltip="evidence:runs/anon.yaml\\nruns/anon.yaml:1:1"];\n'
        "  }\n"
        "}\n",
        "",
    )


def test_json_and_graphml_stay_complete(tmp_path):
    """Every node (the isolated one too) and every edge, not merged."""
    write_files(tmp_path, FILES)
    code, out, _ = run_cli(["graph", "--format", "json"], tmp_path)
    data = json.loads(out)
    assert code == 0
    assert "evidence:runs/anon.yaml" in [n["id"] for n in data["nodes"]]
    uses = [
        e
        for e in data["edges"]
        if (e["source"], e["target"], e["rel"])
        == ("template:C-DA-001", "role:C-DA-001/channels", "uses-role")
    ]
    assert [e["path"] for e in uses] == [
        "table[1].when.factor_identified.channels",
        "table[2].when.named_in_output.channels",
    ]
    code, out, _ = run_cli(["graph", "--format", "graphml"], tmp_path)
    g = nx.parse_graphml(out, force_multigraph=True)
    assert len(g.nodes) == len(data["nodes"]) and len(g.edges) == len(data["edges"])


def test_a_finding_goes_to_the_node_that_holds_it():
    """By document path (the innermost node whose entry holds it), else the document's
    scenario/template/fixture/evidence node, else the last node defined before it."""
    g = nx.MultiDiGraph()
    g.add_node("scenario:s", kind="scenario", file="s.yaml", path=("id",), line=1, col=5)
    g.add_node(
        "deviation:s/d",
        kind="deviation",
        file="s.yaml",
        path=("injection", "deviations", 0, "id"),
        line=5,
        col=11,
    )
    g.add_node("behavior:a", kind="behavior", file="b.md", line=3, col=5)
    g.add_node("behavior:b", kind="behavior", file="b.md", line=9, col=5)
    g.add_node("scenario:t", kind="scenario", file="m.yaml", document=1, line=7, col=5)
    g.add_node("template:T", kind="template", file="t.yaml", path=("template", "id"), line=2)
    g.add_node("role:T/factor", kind="role", file="t.yaml", path=("roles", "factor"), line=5)

    def f(code, path, line, json_path=None, document=None, severity="error"):
        out = {"code": code, "severity": severity, "path": path, "line": line, "column": 1}
        out["message"] = code.lower()
        if json_path is not None:
            out["json_path"] = json_path
        if document is not None:
            out["document"] = document
        return out

    found = [
        f("SI108", "s.yaml", 6, "injection.deviations[0].deviation_type"),
        f("SI616", "s.yaml", 3, "injection"),  # the manifest: the scenario's
        f("SI009", "s.yaml", 9, severity="warning"),  # no path: the scenario's
        f("SI201", "t.yaml", 5, "roles.factor.type"),
        f("SI202", "t.yaml", 6, "roles.factors.type"),  # not inside roles.factor
        f("SI203", "t.yaml", 9, "table[0].when"),
        f("SI999", "b.md", 10),  # after behavior:b's heading
        f("SI998", "b.md", 1),  # before any node: nobody's
        f("SI997", "m.yaml", 8, "id", document=1),
        f("SI996", "m.yaml", 8, "id"),  # document 0 of m.yaml defines no node
        f("SI403", "s.yaml", 6, "injection.deviations[0]", severity="info"),  # not painted
    ]
    got = findings_by_node(g, found)
    assert {n: [x["code"] for x in v] for n, v in got.items()} == {
        "deviation:s/d": ["SI108"],
        "scenario:s": ["SI616", "SI009"],
        "role:T/factor": ["SI201"],
        "template:T": ["SI202", "SI203"],
        "behavior:b": ["SI999"],
        "scenario:t": ["SI997"],
    }


def _fake(bindir, name, script):
    fake = bindir / name
    fake.write_text(script)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)


def test_svg_goes_through_unflatten_then_dot(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    # stand-ins for Graphviz: each checks its arguments and marks what it read
    _fake(
        bindir,
        "dot",
        '#!/bin/sh\n[ "$1" = "-Tsvg" ] || exit 3\nprintf "<svg>"\ncat\nprintf "</svg>"\n',
    )
    _fake(
        bindir,
        "unflatten",
        '#!/bin/sh\n[ "$*" = "-l 4 -f -c 6" ] || exit 3\nprintf "/* unflattened */\\n"\ncat\n',
    )
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ.get("PATH", ""))
    code, svg, err = run_cli(["graph", "--format", "svg", "--focus", SID], tmp_path)
    assert (code, err, svg) == (0, "", f"<svg>/* unflattened */\n{FOCUS}</svg>")
    # an unflatten that fails is passed over
    _fake(bindir, "unflatten", "#!/bin/sh\nexit 1\n")
    code, svg, err = run_cli(["graph", "--format", "svg", "--focus", SID], tmp_path)
    assert (code, err, svg) == (0, "", f"<svg>{FOCUS}</svg>")


def test_the_published_corpus_drawn(monkeypatch):
    """The whole published corpus: every node with an edge drawn (in its file's box), one
    arrow per relation between two nodes, and the one error painted (SI614)."""
    corpus = SHARED / "data" / "oasis-si" / "software-infrastructure"
    if not corpus.is_dir():
        pytest.skip("../shared (the published corpus) is absent")
    code, out, _ = run_cli(["graph", "--format", "json"], corpus)
    data = json.loads(out)
    linked = {e["source"] for e in data["edges"]} | {e["target"] for e in data["edges"]}
    merged = {(e["source"], e["target"], e["rel"]) for e in data["edges"]}
    code, dot, err = run_cli(["graph"], corpus)
    assert (code, err) == (0, "")
    drawn = re.findall(r'^ +("[^"]+") \[label=', dot, flags=re.M)
    arrows = re.findall(r'^  ("[^"]+") -> ("[^"]+") \[label="([^"]+)"', dot, flags=re.M)
    assert sorted(json.loads(n) for n in drawn) == sorted(linked)
    assert len(data["nodes"]) - len(linked) == 77  # profile-document names nothing uses
    assert len(arrows) == len(merged) < len(data["edges"])
    assert [line.strip().split(" [")[0] for line in dot.splitlines() if "fillcolor" in line] == [
        '"scenario:infra.safety.be.zone-config-integrity-001"'
    ]
