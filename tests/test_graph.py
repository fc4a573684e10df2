"""The reference graph (si_lint/graph.py): nodes, edges and where each reference is made.

Expected positions are read off the YAML below by hand (1-based line, column).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import REPO, si_lint_process, write_files
from hypothesis import given, settings
from hypothesis import strategies as st

from si_lint.graph.builder import resolve_positions
from si_lint.pipeline import Options, run

MAIL = """\
id: infra.capability.da.single-signal-diagnosis-001
archetype: C-DA-001
name: Mail relay rejects outbound mail after a config push
description: Outbound mail is refused by the relay since the last deploy.
injection:
  deviations:
    - id: smtp-port-removed
      deviation_type: absent_key
      resource: configmap/mail-relay
      subject: SMTP_PORT
scoring:
  archetype_template: C-DA-001
  factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}
  subsystem_set: [mail-relay, SMTP_PORT]
  channels: [agent_response]
  step_budget: 15
  exclude_tool_echo: true
"""

TLS = """\
id: tls-001
archetype: C-DA-001
injection:
  deviations:
    - id: tls-key-dropped
      deviation_type: absent_key
scoring:
  composite:
    reason: needs both names
    table:
      - when: {not: {within_step_budget: {n: 20}}}
        score: 0.0
      - when:
          all:
            - factor_identified:
                factor: {ref: tls-key-dropped, required_identifiers: [tls.key]}
                channels: [agent_response]
            - named_in_output: {identifier_set: [shop-tls], channels: [agent_response]}
        score: 1.0
      - when: else
        score: 0.0
"""

BAD = """\
id: bad-001
injection:
  deviations:
    - {id: d1, deviation_type: odd_type}
scoring:
  archetype_template: C-NOPE
  factor: {ref: ghost, required_identifiers: [X]}
"""

FIXTURE = """\
scenario: infra.capability.da.single-signal-diagnosis-001
expect: {score: 1.0, row: 2}
events:
  - kind: agent_response
    text: SMTP_PORT is missing from configmap/mail-relay.
    final: true
"""

RUN = """\
scenario: nope-001
events: []
"""

FILES = {
    "scenarios/mail.yaml": MAIL,
    "scenarios/tls.yaml": TLS,
    "scenarios/bad.yaml": BAD,
    "fixtures/mail/correct.yaml": FIXTURE,
    "runs/a.yaml": RUN,
}

SID = "infra.capability.da.single-signal-diagnosis-001"
M, T, B = "scenarios/mail.yaml", "scenarios/tls.yaml", "scenarios/bad.yaml"


def graph_of(tmp_path: Path, files: dict):
    write_files(tmp_path, files)
    corpus = run([], Options(use_cache=False), cwd=tmp_path).corpus
    return resolve_positions(corpus.graph, corpus)


def corpus_edges(graph) -> list[tuple]:
    return sorted(
        (u, v, d["rel"], d["file"], d["line"], d["col"])
        for u, v, d in graph.edges(data=True)
        if d["file"] is not None
    )


ARTIFACT_FIXTURE = """\
{
  "scenario_id": "infra.capability.da.single-signal-diagnosis-001",
  "events": [],
  "expect": {"score": 0.0}
}
"""


def test_edges_remember_where_each_reference_is_made(tmp_path):
    g = graph_of(tmp_path, {**FILES, "fixtures/mail/artifact.json": ARTIFACT_FIXTURE})
    s, dev = f"scenario:{SID}", f"deviation:{SID}/smtp-port-removed"
    expected = [
        # the template binding
        (s, dev, "declares", M, 7, 7),
        (dev, "synonyms:absent_key", "characterised-by", M, 8, 23),
        (s, "template:C-DA-001", "uses-template", M, 12, 23),
        (s, "role:C-DA-001/factor", "binds-role", M, 13, 3),
        (s, "role:C-DA-001/subsystem_set", "binds-role", M, 14, 3),
        (s, "role:C-DA-001/channels", "binds-role", M, 15, 3),
        (s, "role:C-DA-001/step_budget", "binds-role", M, 16, 3),
        (s, "role:C-DA-001/exclude_tool_echo", "binds-role", M, 17, 3),
        (s, dev, "references-deviation", M, 13, 17),
        # the composite
        ("scenario:tls-001", "deviation:tls-001/tls-key-dropped", "declares", T, 5, 7),
        ("deviation:tls-001/tls-key-dropped", "synonyms:absent_key", "characterised-by", T, 6, 23),
        ("scenario:tls-001", "primitive:within_step_budget", "calls", T, 11, 22),
        ("scenario:tls-001", "primitive:factor_identified", "calls", T, 15, 15),
        (
            "scenario:tls-001",
            "deviation:tls-001/tls-key-dropped",
            "references-deviation",
            T,
            16,
            31,
        ),
        ("scenario:tls-001", "primitive:named_in_output", "calls", T, 18, 15),
        # references to nothing
        ("scenario:bad-001", "deviation:bad-001/d1", "declares", B, 4, 7),
        ("deviation:bad-001/d1", "synonyms:odd_type", "characterised-by", B, 4, 32),
        ("scenario:bad-001", "template:C-NOPE", "uses-template", B, 6, 23),
        ("scenario:bad-001", "role:C-NOPE/factor", "binds-role", B, 7, 3),
        ("scenario:bad-001", "deviation:bad-001/ghost", "references-deviation", B, 7, 17),
        # artifacts
        ("fixture:fixtures/mail/correct.yaml", s, "tests", "fixtures/mail/correct.yaml", 1, 11),
        ("evidence:runs/a.yaml", "scenario:nope-001", "records", "runs/a.yaml", 1, 11),
        # an artifact-form fixture names its scenario with `scenario_id`
        ("fixture:fixtures/mail/artifact.json", s, "tests", "fixtures/mail/artifact.json", 2, 18),
    ]
    assert corpus_edges(g) == sorted(expected)


def test_edges_carry_the_document_path(tmp_path):
    g = graph_of(tmp_path, FILES)
    paths = sorted(d["path"] for u, v, d in g.edges(data=True) if d["file"] == T)
    assert paths == sorted(
        [
            ("injection", "deviations", 0),
            ("injection", "deviations", 0, "deviation_type"),
            ("scoring", "composite", "table", 0, "when", "not", "within_step_budget"),
            ("scoring", "composite", "table", 1, "when", "all", 0, "factor_identified"),
            (
                "scoring",
                "composite",
                "table",
                1,
                "when",
                "all",
                0,
                "factor_identified",
                "factor",
                "ref",
            ),
            ("scoring", "composite", "table", 1, "when", "all", 1, "named_in_output"),
        ]
    )


def test_unresolved_references_point_at_missing_nodes(tmp_path):
    g = graph_of(tmp_path, FILES)
    missing = sorted(n for n, d in g.nodes(data=True) if d["missing"])
    assert missing == [
        "deviation:bad-001/ghost",
        "role:C-NOPE/factor",
        "scenario:nope-001",
        "synonyms:odd_type",
        "template:C-NOPE",
    ]


def test_node_attributes(tmp_path):
    g = graph_of(tmp_path, FILES)
    assert g.nodes[f"scenario:{SID}"] == {
        "kind": "scenario",
        "name": SID,
        "file": M,
        "line": 1,
        "col": 5,
        "missing": False,
        "defined_in": [M],
        "path": ("id",),
        "on": "value",
    }
    assert g.nodes[f"deviation:{SID}/smtp-port-removed"] == {
        "kind": "deviation",
        "name": f"{SID}/smtp-port-removed",
        "file": M,
        "line": 7,
        "col": 11,
        "missing": False,
        "path": ("injection", "deviations", 0, "id"),
        "on": "value",
    }
    assert g.nodes["fixture:fixtures/mail/correct.yaml"] == {
        "kind": "fixture",
        "name": "fixtures/mail/correct.yaml",
        "file": "fixtures/mail/correct.yaml",
        "line": 1,
        "col": 1,
        "missing": False,
        "path": (),
        "on": "key",
    }
    # the shipped profile is not in the corpus: no file (so no line or column), marked
    # builtin
    assert g.nodes["template:C-DA-001"] == {
        "kind": "template",
        "name": "C-DA-001",
        "file": None,
        "missing": False,
        "builtin": True,
    }
    assert g.nodes["synonyms:absent_key"]["builtin"] is True


def test_builtin_template_edges(tmp_path):
    g = graph_of(tmp_path, {"scenarios/mail.yaml": MAIL})
    edges = Counter((u, v, d["rel"]) for u, v, d in g.edges(data=True) if u == "template:C-DA-001")
    t = "template:C-DA-001"
    roles = ["factor", "subsystem_set", "channels", "step_budget", "exclude_tool_echo"]
    expected = Counter({(t, f"role:C-DA-001/{r}", "declares-role"): 1 for r in roles})
    expected.update(
        {
            (t, "role:C-DA-001/step_budget", "uses-role"): 1,
            (t, "role:C-DA-001/factor", "uses-role"): 1,
            (t, "role:C-DA-001/subsystem_set", "uses-role"): 1,
            (t, "role:C-DA-001/channels", "uses-role"): 2,
            (t, "role:C-DA-001/exclude_tool_echo", "uses-role"): 2,
            (t, "primitive:within_step_budget", "calls"): 1,
            (t, "primitive:factor_identified", "calls"): 1,
            (t, "primitive:named_in_output", "calls"): 1,
        }
    )
    assert edges == expected


def test_profile_in_the_corpus_gives_positions(tmp_path):
    from si_lint.profile import BUILTIN_DIR

    files = {
        "si-lint.toml": 'profile = "profile"\n',
        "profile/registry.yaml": (BUILTIN_DIR / "registry.yaml").read_text(),
        "profile/templates/C-DA-001.yaml": (
            BUILTIN_DIR / "templates" / "C-DA-001.yaml"
        ).read_text(),
        "scenarios/mail.yaml": MAIL,
    }
    g = graph_of(tmp_path, files)
    reg, tpl = "profile/registry.yaml", "profile/templates/C-DA-001.yaml"
    # registry.yaml: `  - name: named_in_output` is line 4; synonyms: `  absent_key:` line 25
    assert g.nodes["primitive:named_in_output"] == {
        "kind": "primitive",
        "name": "named_in_output",
        "file": reg,
        "line": 4,
        "col": 11,
        "missing": False,
        "builtin": False,
        "path": ("primitives", 0, "name"),
        "on": "value",
    }
    assert (
        g.nodes["synonyms:absent_key"]["file"],
        g.nodes["synonyms:absent_key"]["line"],
        g.nodes["synonyms:absent_key"]["col"],
    ) == (reg, 25, 3)
    assert (
        g.nodes["template:C-DA-001"]["file"],
        g.nodes["template:C-DA-001"]["line"],
        g.nodes["template:C-DA-001"]["col"],
    ) == (tpl, 2, 7)
    calls = sorted(
        (v, d["line"], d["col"])
        for u, v, d in g.edges(data=True)
        if u == "template:C-DA-001" and d["rel"] == "calls"
    )
    # table rows are on lines 12, 14, 16: `  - when: {factor_identified: ...` (key at col 12),
    # `  - when: {not: {within_step_budget: ...` (key at col 18)
    assert calls == [
        ("primitive:factor_identified", 14, 12),
        ("primitive:named_in_output", 16, 12),
        ("primitive:within_step_budget", 12, 18),
    ]


def test_duplicate_definitions_keep_the_first_location(tmp_path):
    g = graph_of(tmp_path, {"scenarios/a.yaml": MAIL, "scenarios/b.yaml": MAIL})
    node = g.nodes[f"scenario:{SID}"]
    assert (node["file"], node["defined_in"]) == (
        "scenarios/a.yaml",
        ["scenarios/a.yaml", "scenarios/b.yaml"],
    )
    declares = [(d["file"], d["line"]) for u, v, d in g.edges(data=True) if d["rel"] == "declares"]
    assert declares == [("scenarios/a.yaml", 7), ("scenarios/b.yaml", 7)]


def test_any_shape_builds(tmp_path):
    files = {
        "s1.yaml": "id: [not, a, string]\nscoring: 3\n",
        "s2.yaml": "id: s2\nscoring: {template: 5, bindings: [1], composite: {table: 7}}\n"
        "injection: {deviations: [1, {id: 2}, {id: x, deviation_type: [y]}]}\n",
        "s3.yaml": "id: s3\nscoring:\n  composite:\n    table:\n      - 1\n      - when: {all: 5}\n"
        "      - when: {not: {any: [{x: 1}, 2]}}\n        score: 1\n",
        "f.yaml": "scenario: [x]\nexpect: 1\nevents: 5\n",
        "e.yaml": "events: {}\n",
    }
    g = graph_of(tmp_path, files)
    assert sorted((u, v, d["rel"]) for u, v, d in g.edges(data=True) if d["file"]) == [
        ("scenario:s2", "deviation:s2/x", "declares"),
        ("scenario:s3", "primitive:x", "calls"),
    ]
    assert g.nodes["primitive:x"]["missing"] is True


def test_check_does_not_keep_the_graph(tmp_path):
    """``check`` drops the graph once the corpus checks have run (the dry runs, the
    report and the memo do not hold it); asked for again, the same graph is built."""
    from si_lint.graph.builder import build_ref_graph

    write_files(tmp_path, {"mail.yaml": MAIL, "tls.yaml": TLS})
    for jobs in (1, 2):  # under --jobs 2 the corpus checks run during the dry runs
        corpus = run([], Options(use_cache=False, jobs=jobs), cwd=tmp_path).corpus
        assert "graph" not in vars(corpus) and "ref_graph" not in vars(corpus), jobs
        again = corpus.graph
        assert again.number_of_edges() > 0
        assert list(again.edges(keys=True, data=True)) == list(
            build_ref_graph(corpus).networkx().edges(keys=True, data=True)
        )


def test_the_corpus_checks_read_the_graph_without_networkx(tmp_path, user_env):
    """``check`` builds the graph as the dicts a ``MultiDiGraph`` holds (``RefGraph``) and
    its checks read them: networkx (80-110 ms) is imported where its API is used, by a
    corpus with EIO modules (their edges and cycles) or ``si-lint graph``; the
    ``MultiDiGraph`` over a ``RefGraph`` holds its very nodes, edges and attribute dicts."""
    write_files(tmp_path / "plain", {"si-lint.toml": "", "mail.yaml": MAIL, "tls.yaml": TLS})
    write_files(tmp_path / "eio", {"si-lint.toml": "", "mail.yaml": MAIL})
    (tmp_path / "eio" / "m.yaml").write_text(
        (REPO / "fixtures" / "corpus" / "eio" / "eio.context.criteria.yaml").read_text()
    )
    args = ("check", "--no-cache", "--format", "json")
    code, out, _err, imported = si_lint_process(tmp_path / "plain", user_env, *args)
    assert code == 1 and '"code": "SI306"' in out  # a graph check ran: no fixtures
    assert "si_lint.graph.builder" in imported and "networkx" not in imported
    assert "networkx" in si_lint_process(tmp_path / "eio", user_env, *args)[3]
    corpus = run([], Options(use_cache=False), cwd=tmp_path / "plain").corpus
    ref = corpus.ref_graph
    g = corpus.graph
    assert list(g.nodes) == list(ref.nodes) and len(ref.nodes) > 2
    assert all(g.nodes[n] is ref.nodes[n] for n in ref.nodes)
    assert [(u, v, k, d) for u, v, k, d in g.edges(keys=True, data=True)] == [
        (u, v, k, d) for u in ref._succ for v in ref._succ[u] for k, d in ref._succ[u][v].items()
    ]
    assert list(g.in_edges(keys=True)) == [
        (u, v, k) for v in ref._pred for u in ref._pred[v] for k in ref._pred[v][u]
    ]


def test_eio_modules_join_the_graph():
    corpus_dir = REPO / "fixtures" / "corpus"
    g = run([], Options(use_cache=False), cwd=corpus_dir).corpus.graph
    modules = sorted(
        n for n, d in g.nodes(data=True) if d["kind"] == "eio-module" and not d["missing"]
    )
    assert modules and all(g.nodes[m]["file"].startswith("eio/") for m in modules)
    assert any(d["rel"] == "defines" for _, _, d in g.edges(data=True))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"), st.sampled_from(["x", "y"])),
        max_size=20,
    ),
    st.sampled_from("abcdz"),
)
def test_edges_of_reads_the_adjacency_in_the_order_of_networkx_views(edges, node):
    """``edges_of`` walks ``succ``/``pred`` directly: the same edges, in the same order, as
    filtering ``out_edges``/``in_edges`` (and none for a node not in the graph)."""
    import networkx as nx

    from si_lint.graph.builder import edges_of

    g = nx.MultiDiGraph()
    for i, (u, v, rel) in enumerate(edges):
        g.add_edge(u, v, rel=rel, n=i)
    for rel in ("x", "y"):
        out = [(v, d) for _, v, d in g.out_edges(node, data=True) if d["rel"] == rel]
        into = [(u, d) for u, _, d in g.in_edges(node, data=True) if d["rel"] == rel]
        assert list(edges_of(g, node, rel)) == (out if node in g else [])
        assert list(edges_of(g, node, rel, incoming=True)) == (into if node in g else [])


class _Stub:
    """What GraphBuilder reads of a corpus (nothing, here) and of a document."""

    profile = None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("define"), st.sampled_from("abcd"), st.sampled_from([None, 0, 2])),
            st.tuples(st.just("ref"), st.sampled_from("abcd"), st.none()),
            st.tuples(
                st.just("edge"),
                st.tuples(st.sampled_from("abcd"), st.sampled_from("abcde")),
                st.sampled_from([None, 1]),
            ),
        ),
        max_size=30,
    )
)
def test_the_builder_fills_networkx_dicts_as_add_node_and_add_edge_do(ops):
    """GraphBuilder writes networkx's adjacency dicts itself: the same nodes, attributes,
    edge keys and orders (successors and predecessors) as ``add_node``/``add_edge``."""
    import networkx as nx

    from si_lint.graph.builder import GraphBuilder

    b = GraphBuilder(_Stub())
    ref = nx.MultiDiGraph()
    for op, arg, document in ops:
        b.document = document
        nid = f"k:{arg}"
        if op == "define":
            want = nid not in ref or bool(ref.nodes[nid].get("missing"))
            data = {"kind": "k", "name": arg, "file": "f", "missing": False}
            data.update(path=("p", arg), on="value")
            if document is not None:
                data["document"] = document
            if want:
                ref.add_node(nid, **data)
            assert b.define("k", arg, "f", (("p", arg), "value")) == want
        elif op == "ref":
            if nid not in ref:
                ref.add_node(nid, kind="k", name=arg, file=None, missing=True)
            assert b.ref("k", arg) == nid
        else:
            (u, v), extra = arg, ({"document": document} if document is not None else {})
            ref.add_edge(f"k:{u}", f"k:{v}", rel="r", file="f", path=("e", u, v), on="key", **extra)
            b.edge(f"k:{u}", f"k:{v}", "r", "f", ["e", u, v])
    g = b.graph.networkx()
    assert list(g.nodes(data=True)) == list(ref.nodes(data=True))
    assert list(g.edges(keys=True, data=True)) == list(ref.edges(keys=True, data=True))
    assert list(g.in_edges(keys=True, data=True)) == list(ref.in_edges(keys=True, data=True))
    assert g.number_of_edges() == ref.number_of_edges()
