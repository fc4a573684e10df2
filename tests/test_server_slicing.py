"""What a corpus check declares it reads decides how the language server runs it after an
edit (``corpus_check(reads=...)``, ``si_lint.server.state.plan``): over the slice of the
edit, over the whole corpus (what it reads is not sliced, or it declares nothing), or not
at all (the profile alone). Whatever a check declares, the server's findings stay those of
a fresh ``check``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO

from si_lint import pipeline as engine
from si_lint import registry
from si_lint.findings import Diag
from si_lint.server import state as slicing
from si_lint.server.state import CorpusState

CORPUS = REPO / "fixtures" / "corpus"
SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
FIXTURE = "fixtures/mail-relay-smtp-port/at-budget.yaml"
SID = "infra.capability.da.single-signal-diagnosis-001"


@pytest.fixture
def root(tmp_path) -> Path:
    out = tmp_path / "corpus"
    shutil.copytree(CORPUS, out, ignore=shutil.ignore_patterns(".si-lint-cache"))
    return out


def full_run(root: Path) -> list:
    return engine.run(["."], engine.Options(use_cache=False), cwd=root).findings


def edit(st: CorpusState, path: Path, text: str) -> None:
    """The editor's buffer, and the same text on disk for the fresh `check`."""
    st.set_buffer(str(path), text)
    path.write_text(text)


@pytest.fixture
def plugin(monkeypatch):
    """``plugin(func, reads)``: a corpus check registered beside the real ones, for one test."""
    from si_lint.checks import all_checks

    all_checks()  # every check module imported (and registered) first

    def register(func, reads=None, codes=("SI401",)) -> registry.Check:
        check = registry.Check(func, codes, "corpus", stage="corpus", reads=reads)
        monkeypatch.setattr(registry, "_REGISTRY", [*registry._REGISTRY, check])
        all_checks.cache_clear()
        return check

    yield register
    all_checks.cache_clear()


# ----------------------------------------------------------------------------------
# the declarations


def test_every_corpus_check_declares_what_it_reads():
    """A new corpus check's author is told here to declare what its findings depend on."""
    from si_lint.checks import all_checks

    undeclared = [c.name for c in all_checks() if c.scope == "corpus" and c.reads is None]
    assert undeclared == [], (
        "declare what these corpus checks read: @corpus_check(..., reads=(...)) with names "
        f"of si_lint.registry.READS ({', '.join(registry.READS)})"
    )
    unknown = {
        c.name: c.reads
        for c in all_checks()
        if c.scope == "corpus" and not set(c.reads or ()) <= set(registry.READS)
    }
    assert unknown == {}


def test_the_plans_of_the_registered_checks():
    """What the declarations give: the checks that read every scenario id (for a nearest-id
    hint) run over the whole corpus; the profile's reviews are not re-run for a slice."""
    from si_lint.checks import all_checks

    plans = {c.name.rsplit(".", 1)[1]: slicing.plan(c) for c in all_checks() if c.scope == "corpus"}
    assert plans == {
        "duplicate_scenario_ids": "slice",
        "scenario_edges": "slice",
        "unknown_scenario": "whole",  # SI303: "did you mean" the nearest of every id
        "single_signal": "slice",
        "implementations": "profile",
        "eio_corpus_rules": "slice",
        "dry_runs": "slice",
        "profile_paths": "profile",
        "undefined_refs": "slice",
        "companion": "whole",  # SI613: the nearest of every id too
        "duplicate_intent": "slice",
    }


def test_the_sliced_reads_are_the_slice_keys():
    """Every relation the server slices on is one doc_keys gives keys for (or the document
    itself, or the profile every slice holds), and a name of READS."""
    keyed = {"scenario", "intent", slicing.EIO_KEY}
    assert slicing.SLICED_READS == keyed | {"document", "profile"}
    assert slicing.SLICED_READS < set(registry.READS)
    assert set(registry.READS) - slicing.SLICED_READS == {"corpus"}


@pytest.mark.parametrize(
    "reads, message",
    [
        (("scenarios",), "reads: ['scenarios'] (known: profile, document, scenario, intent, "),
        ((), "reads: nothing (known: profile, document, scenario, intent, eio, corpus)"),
    ],
)
def test_a_declaration_is_checked_when_the_check_registers(reads, message):
    with pytest.raises(ValueError) as err:
        registry.corpus_check("SI401", reads=reads)
    assert str(err.value).startswith(message)


def test_an_undeclared_check_is_whole_corpus():
    check = registry.Check(lambda corpus, ctx: (), ("SI401",), "corpus")
    assert check.reads is None and slicing.plan(check) == "whole"
    partly = registry.Check(
        lambda corpus, ctx: (), ("SI401",), "corpus", reads=("scenario", "corpus")
    )
    assert slicing.plan(partly) == "whole"


# ----------------------------------------------------------------------------------
# the server, against a fresh check


def _half_scores(corpus, ctx):
    """A test plugin's check: at every scenario's id, how many fixtures of the corpus expect
    0.5 -- a finding in files that share no slice key with most of the fixtures it reads."""
    halves = []
    for doc in corpus.of_kind("fixture"):
        expect = doc.data.get("expect") if isinstance(doc.data, dict) else None
        if isinstance(expect, dict) and expect.get("score") == 0.5:
            halves.append(doc.relpath)
    for doc in corpus.of_kind("scenario"):
        if isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
            yield Diag(
                "SI401",
                ("id",),
                f"test plugin: {len(halves)} fixtures of the corpus expect 0.5",
                on="value",
                file=doc.relpath,
                document=doc.index,
            )


def _plugin_findings(findings) -> list[tuple]:
    return [
        (f.path, f.line, f.column, f.code, f.severity, f.message)
        for f in findings
        if f.message.startswith("test plugin")
    ]


def test_an_undeclared_plugin_check_matches_check_after_an_edit_it_depends_on(root, plugin):
    """A check registered by a plugin without ``reads`` runs over the whole corpus: a
    fixture's changed expectation changes its finding on every scenario, also those that
    share no slice key with the fixture, and the server reports what `check` does."""
    plugin(_half_scores)
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    assert st.all_findings() == full_run(root)
    before = _plugin_findings(st.all_findings())
    path = root / FIXTURE
    original = path.read_text()
    edit(st, path, original.replace("expect: {score: 1.0, row: 2}", "expect: {score: 0.5, row: 3}"))
    after = full_run(root)
    assert st.all_findings() == after
    assert _plugin_findings(after) == [
        (p, line, col, code, sev, "test plugin: 13 fixtures of the corpus expect 0.5")
        for p, line, col, code, sev, _m in before
    ]
    assert {m for *_r, m in before} == {"test plugin: 12 fixtures of the corpus expect 0.5"}
    assert "scenarios/storefront-tls-key.yaml" in {p for p, *_r in before}
    edit(st, path, original)
    assert st.all_findings() == full_run(root)


def test_the_same_check_declared_sliceable_would_go_stale(root, plugin):
    """The control of the test above: declared (falsely) to read only its scenario's
    documents, the check runs over the slice: the edited fixture's scenario counts the
    slice's fixtures only, and the scenarios outside it keep the old count -- which is why a check without a declaration is never taken as sliceable."""
    plugin(_half_scores, reads=("scenario",))
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    path = root / FIXTURE
    edit(
        st,
        path,
        path.read_text().replace("expect: {score: 1.0, row: 2}", "expect: {score: 0.5, row: 3}"),
    )
    mine = {p: m for p, *_r, m in _plugin_findings(st.all_findings())}
    want = {p: m for p, *_r, m in _plugin_findings(full_run(root))}
    stale = "scenarios/storefront-tls-key.yaml"  # outside the slice: keeps the old count
    assert (mine[SCENARIO], mine[stale]) == (
        "test plugin: 5 fixtures of the corpus expect 0.5",  # the slice's fixtures only
        "test plugin: 12 fixtures of the corpus expect 0.5",
    )
    assert want[SCENARIO] == want[stale] == "test plugin: 13 fixtures of the corpus expect 0.5"


def test_a_sliceable_check_runs_over_the_slice_only(root, plugin):
    """Calls counted: after an edit of a scenario, a check that declares it reads its
    scenario's documents runs once, over the scenario, its fixtures and the evidence that
    names it; an undeclared one over every document; one that reads the profile alone not
    at all."""
    seen: dict[str, list] = {"slice": [], "whole": [], "profile": []}

    def recorder(name):
        def check(corpus, ctx):
            seen[name].append(sorted({d.relpath for d in corpus.documents}))
            return ()

        return check

    plugin(recorder("slice"), reads=("scenario",))
    plugin(recorder("whole"))
    plugin(recorder("profile"), reads=("profile",))
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    everything = sorted(fs.relpath for fs in st.files.values())
    assert seen == {"slice": [everything], "whole": [everything], "profile": [everything]}
    for calls in seen.values():
        calls.clear()
    path = root / SCENARIO
    edit(st, path, path.read_text().replace("step_budget: 15", "step_budget: 14"))
    fixtures = sorted(
        p.relative_to(root).as_posix() for p in (root / "fixtures/mail-relay-smtp-port").iterdir()
    )
    assert len(fixtures) == 13
    assert seen == {
        "slice": [sorted([SCENARIO, *fixtures, "runs/mail-relay-agent-a.yaml"])],
        "whole": [everything],
        "profile": [],
    }
    assert st.all_findings() == full_run(root)


# ----------------------------------------------------------------------------------
# what the hand list and the repeated locate stage got wrong


def test_a_dangling_fixture_keeps_its_nearest_id_hint_after_another_edit(root):
    """SI303 says "did you mean" the nearest of every scenario id: the hand list took it as
    sliceable, and a second edit of the fixture (its slice no longer holding the scenario it
    had named) lost the hint and the related location."""
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    path = root / FIXTURE
    dangling = path.read_text().replace(f"scenario: {SID}", f"scenario: {SID[:-1]}")
    for text in (dangling, dangling + "# typed on\n"):
        edit(st, path, text)
        assert st.all_findings() == full_run(root)
        hits = [
            (f.line, f.column, f.severity, f.message, f.help)
            + tuple((r.path, r.line, r.column, r.message) for r in f.related)
            for f in st.findings_of(str(path))
            if f.code == "SI303"
        ]
        assert hits == [
            (
                1,
                11,
                "error",
                f"fixture names an unknown scenario `{SID[:-1]}`",
                f"did you mean `{SID}`?",
                (SCENARIO, 1, 5, "the nearest scenario id"),
            )
        ]


def test_references_a_failed_read_could_resolve_are_held_back(root):
    """A scenario that no longer parses (SI001) may still define the id its fixtures name:
    `check` holds their SI303 back (the locate stage's knock-on step), and so does the
    server now that it finishes findings with the pipeline's own steps."""
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    path = root / SCENARIO
    original = path.read_text()
    edit(st, path, original + "\nbroken: [\n")
    assert st.all_findings() == full_run(root)
    assert [f for f in st.all_findings() if f.code == "SI303"] == []
    assert [f.code for f in st.findings_of(str(path))] == ["SI001"]
    edit(st, path, original)
    assert st.all_findings() == full_run(root)
