"""The corpus checks' findings are cached under what they read (``pipeline.corpus.
corpus_key``): every document's content hash, but only the refs of a fixture or evidence
document (the scenario it names). A run where fixtures changed and still name the same
scenarios builds no graph and runs no corpus check; the findings are located again in
the files as they are now. Any other change runs them again."""

from __future__ import annotations

import pytest
from conftest import REPO
from test_speed_parity import _generate, _out

from si_lint.corpus import PACKED_KINDS, Document
from si_lint.pipeline import Context, Options, build_corpus
from si_lint.pipeline.corpus import corpus_diags

UNKNOWN = """\
scenario: infra.capability.da.no-such-scenario
expect: {score: 0.0}
events:
  - {kind: agent_response, text: "no idea"}
"""


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    _generate(root, 30)
    (root / "fixtures" / "stray.yaml").write_text(UNKNOWN)  # SI303, a corpus finding
    return root


def _spy(monkeypatch) -> list:
    """The stages whose corpus checks ran, and every graph built."""
    from si_lint import graph
    from si_lint.pipeline import corpus as stage
    from si_lint.pipeline import dryruns

    ran = []
    real_diags, real_graph = stage.corpus_diags, graph.build_ref_graph

    def diags(corpus, ctx, checks, which):
        ran.append(which)
        return real_diags(corpus, ctx, checks, which)

    def build(corpus):
        ran.append("graph")
        return real_graph(corpus)

    monkeypatch.setattr(stage, "corpus_diags", diags)
    monkeypatch.setattr(dryruns, "corpus_diags", diags)
    monkeypatch.setattr(graph, "build_ref_graph", build)
    return ran


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fixtures_edited_without_a_new_scenario_reuse_the_corpus_findings(
    corpus, tmp_path, monkeypatch, jobs
):
    from si_lint.pipeline import forkmap, perfile

    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    cache = tmp_path / "cache"
    code, out = _out(corpus, jobs=jobs, cache=cache)
    assert code == 1 and '"code": "SI303"' in out and '"line": 1' in out
    ran = _spy(monkeypatch)
    # two lines above the key: the finding moves with it; another fixture's text changes
    stray = corpus / "fixtures" / "stray.yaml"
    stray.write_text("# moved\n# down\n" + UNKNOWN)
    other = sorted((corpus / "fixtures").rglob("*.yaml"))[0]
    other.write_text(other.read_text().replace("expect:", "description: edited\nexpect:", 1))
    edited = _out(corpus, jobs=jobs, cache=cache)
    assert "graph" not in ran and "corpus" not in ran and "dryrun" in ran
    ran.clear()
    assert edited == _out(corpus)  # --no-cache --jobs 1, which runs them
    assert '"line": 3' in edited[1]
    ran.clear()
    # the fixture names another scenario: the corpus checks run again
    stray.write_text(UNKNOWN.replace("no-such-scenario", "still-no-such-one"))
    renamed = _out(corpus, jobs=jobs, cache=cache)
    assert "corpus" in ran and "graph" in ran
    assert renamed == _out(corpus) and "still-no-such-one" in renamed[1]


def test_a_scenario_edit_runs_the_corpus_checks_again(corpus, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _out(corpus, cache=cache)
    ran = _spy(monkeypatch)
    scenario = sorted((corpus / "scenarios").rglob("*.yaml"))[0]
    scenario.write_text(scenario.read_text() + "# edited\n")
    assert _out(corpus, cache=cache) == _out(corpus)
    assert ran.count("corpus") == 2  # the cached run, and the --no-cache one


def _corpus_findings(root, poisoned: bool, monkeypatch):
    corpus, _sel = build_corpus([str(root)], Options(use_cache=False), cwd=root)
    ctx = Context(corpus.profile, corpus.config, Options(use_cache=False), corpus)
    held = [d for d in corpus.documents if d.kind in PACKED_KINDS]
    if poisoned:  # held packed, and decoding one fails the test
        for d in held:
            d.pack(b"", d.artifact_refs())
        with monkeypatch.context() as m:

            def unpacked(self):
                raise AssertionError(f"a corpus check read {self.label}")

            m.setattr(Document, "unpacked", unpacked)
            return len(held), corpus_diags(corpus, ctx, _all_checks(), "corpus")
    return len(held), corpus_diags(corpus, ctx, _all_checks(), "corpus")


def _all_checks():
    from si_lint.checks import all_checks

    return all_checks()


@pytest.mark.parametrize("where", ["bench", "example"])
def test_the_corpus_checks_read_nothing_of_a_fixture_but_its_refs(where, corpus, monkeypatch):
    """What makes the key sound: with every fixture and evidence document held packed and
    undecodable, the corpus checks find exactly what they find with the data (a check
    that read one would crash: SI000)."""
    root = corpus if where == "bench" else REPO / "fixtures" / "corpus"
    n, plain = _corpus_findings(root, False, monkeypatch)
    assert n > 0
    assert _corpus_findings(root, True, monkeypatch) == (n, plain)
    if where == "bench":
        assert [d.code for d in plain] == ["SI303"]


def test_a_profile_document_edit_runs_the_corpus_checks_again(corpus, tmp_path, monkeypatch):
    """The Markdown documents of the corpus's OASIS profile directory are read by the
    profile-reference checks (SI611-SI615): their digests are part of the key."""
    (corpus / "profile.md").write_text("# Profile\n")
    cache = tmp_path / "cache"
    _out(corpus, cache=cache)
    ran = _spy(monkeypatch)
    (corpus / "behavior-definitions.md").write_text("# Behaviors\n\n## refuse\n")
    assert _out(corpus, cache=cache) == _out(corpus)
    assert ran.count("corpus") == 2
    ran.clear()
    fixture = sorted((corpus / "fixtures").rglob("*.yaml"))[0]
    fixture.write_text(fixture.read_text() + "# edited\n")
    assert _out(corpus, cache=cache) == _out(corpus)
    assert ran.count("corpus") == 1  # the --no-cache run only
