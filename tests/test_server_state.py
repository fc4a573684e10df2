"""The server's resident state (no LSP): after any edit its findings are exactly a fresh
`check` of the same texts on disk, and a half-typed buffer never raises."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO

from si_lint import pipeline as engine
from si_lint.server.state import CorpusState

CORPUS = REPO / "fixtures" / "corpus"
SCENARIO = "scenarios/mail-relay-smtp-port.yaml"


@pytest.fixture
def root(tmp_path) -> Path:
    out = tmp_path / "corpus"
    shutil.copytree(CORPUS, out, ignore=shutil.ignore_patterns(".si-lint-cache"))
    return out


def full_run(root: Path) -> list:
    return engine.run(["."], engine.Options(use_cache=False), cwd=root).findings


def edits(text: str) -> list[str]:
    """Edits that reach per-file, cross-file and dry-run findings."""
    return [
        text.replace("step_budget: 15", "step_budget: 14"),  # a fixture's verdict changes: SI401
        text.replace("exclude_tool_echo: true", "exclude_tool_echo: false"),  # SI113 + probe
        text.replace(
            "id: infra.capability.da.single-signal-diagnosis-001",
            "id: infra.capability.da.single-signal-diagnosis-002",
        ),  # fixtures lose it: SI303
        text.replace("ref: smtp-port-removed", "ref: nope"),  # a dangling ref
        text + "# si-lint: disable=SI105\n",  # a suppression that suppresses nothing: SI009
        "id: x\nscoring: [\n",  # unparsable
        "",  # empty
        text,
    ]


def test_load_equals_check(root):
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    assert st.all_findings() == full_run(root)


def test_a_load_from_the_cache_keeps_no_document_reading_it(root, tmp_path, monkeypatch):
    """The server keeps its documents for the session, and other runs rewrite the cache
    meanwhile: what a document held of its cache entry is decoded when it is loaded."""
    from si_lint.pipeline import perfile

    options = engine.Options(cache_dir=str(tmp_path / "cache"))
    engine.run(["."], options, cwd=root)  # fills the cache
    held = []
    real = perfile.process

    def spy(*args, **kwargs):
        docs, per_file = real(*args, **kwargs)
        held.extend(d for d in docs if "data" not in d.__dict__)
        return docs, per_file

    monkeypatch.setattr(perfile, "process", spy)
    st = CorpusState(root, options)
    st.load()
    docs = [d for f in st.files.values() for d in f.docs]
    assert held and len(docs) == len(held)  # every document came from the cache
    assert all("data" in d.__dict__ for d in docs)
    assert st.all_findings() == full_run(root)


@pytest.mark.parametrize("which", [SCENARIO, "fixtures/mail-relay-smtp-port/at-budget.yaml"])
def test_every_edit_equals_a_fresh_check(root, which):
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    path = root / which
    original = path.read_text()
    variants = (
        edits(original)
        if which == SCENARIO
        else [
            original.replace("expect: {score: 1.0, row: 2}", "expect: {score: 0.5, row: 3}"),
            original.replace(
                "scenario: infra.capability.da.single-signal-diagnosis-001", "scenario: nope"
            ),
            original[: len(original) // 2],
            original,
        ]
    )
    for text in variants:
        assert text != original or text is variants[-1]
        st.set_buffer(str(path), text)
        path.write_text(text)
        assert st.all_findings() == full_run(root), text[:200]
    path.write_text(original)
    st.set_buffer(str(path), None)
    assert st.all_findings() == full_run(root)


def test_a_dependent_fixture_is_in_the_outcome(root):
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    path = root / SCENARIO
    out = st.set_buffer(str(path), path.read_text().replace("step_budget: 15", "step_budget: 14"))
    fixture = "fixtures/mail-relay-smtp-port/at-budget.yaml"
    assert fixture in out.touched and not out.full
    assert [f.code for f in st.findings[fixture]] == ["SI401", "SI402"]


def _corpus_files() -> list[Path]:
    return sorted(
        p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json")
    )


def test_truncations_never_raise(root, tmp_path):
    """Every corpus file cut at many points (a half-typed buffer): the update never
    raises, no check crashes (no SI000), and an unparsable buffer is exactly one SI001."""
    from si_lint.loader import load_bytes

    st = CorpusState(root, engine.Options(cache_dir=str(tmp_path / "cache")))
    st.load()
    for src in _corpus_files():
        rel = src.relative_to(CORPUS).as_posix()
        target = root / rel
        text = src.read_text()
        cuts = sorted(
            {len(text) * k // 8 for k in range(8)} | {text.find("\n", len(text) // 3) + 1}
        )
        for cut in cuts:
            buf = text[:cut]
            st.set_buffer(str(target), buf)
            mine = st.findings_of(str(target))
            assert not [f for f in st.all_findings() if f.code == "SI000"], (rel, cut)
            if load_bytes(buf.encode()).failed or any(
                d.code == "SI001" for d in load_bytes(buf.encode()).findings
            ):
                assert [f.code for f in mine] == ["SI001"], (rel, cut, mine)
        st.set_buffer(str(target), None)
    assert st.all_findings() == full_run(root)


SHARED_SI = REPO.parent / "shared" / "data" / "oasis-si" / "software-infrastructure"


def test_published_corpus_edits_equal_a_fresh_check(tmp_path):
    """The published corpus (multi-document files, profile documents beside them): edits
    that reach other files through ids, behaviors and companions give what `check` gives."""
    if not SHARED_SI.is_dir():
        pytest.skip("../shared is absent: the published corpus is not there")
    root = tmp_path / "si"
    shutil.copytree(SHARED_SI, root)
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    assert st.all_findings() == full_run(root)
    files = sorted((root / "scenarios").rglob("*.yaml"))
    target = files[0]
    original = target.read_text()
    import re

    first_id = re.search(r"^id: (\S+)", original, re.M).group(1)
    behavior = re.search(r"behavior: (\S+)", "".join(p.read_text() for p in files))
    variants = [
        original.replace(f"id: {first_id}", f"id: {first_id}-renamed", 1),  # companions, fixtures
        original.replace(
            f"id: {first_id}", f"id: {files[1].read_text().split('id: ', 1)[1].split()[0]}", 1
        ),
        original[: len(original) * 2 // 3],
        original,
    ]
    if behavior:
        variants.insert(0, original.replace(behavior.group(0), "behavior: no_such_behavior"))
    for text in variants:
        st.set_buffer(str(target), text)
        target.write_text(text)
        assert st.all_findings() == full_run(root), text[:120]


def test_an_edit_dry_runs_its_own_scenario_and_keeps_nothing_per_text(root, tmp_path, monkeypatch):
    """With a cache: each edit dry-runs the edited scenario alone, nothing the edits
    compute is added to the cache (a buffer being typed is a new text at every keystroke:
    kept, the results would grow the server without end), and the findings stay those of
    a fresh check."""
    from si_lint.checks import dryrun

    runs = []
    real = dryrun._scenario_dry_run

    def counted(sid, *args):
        runs.append(sid)
        return real(sid, *args)

    monkeypatch.setattr(dryrun, "_scenario_dry_run", counted)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    st = CorpusState(root, engine.Options(cache_dir=str(tmp_path / "cache")))
    st.load()
    sid = "infra.capability.da.single-signal-diagnosis-001"
    path = root / SCENARIO
    original = path.read_text()
    changed = original.replace("step_budget: 15", "step_budget: 14")
    held = (dict(st.cache.files), dict(st.cache.memo))
    for text in (changed, original, changed):
        runs.clear()
        st.set_buffer(str(path), text)
        path.write_text(text)
        assert runs == [sid]
        assert st.all_findings() == full_run(root)
    for i in range(50):
        st.set_buffer(str(path), original + f"# {i}\n")
    assert (st.cache.files, st.cache.memo) == held
    path.write_text(original)
    st.set_buffer(str(path), None)
    assert st.all_findings() == full_run(root)


def test_a_profile_md_made_after_the_load_is_found_by_an_edit(root):
    """The load's walk noted which directories hold ``profile.md``; an edit after one was
    made looks for it again (the read stage does not reuse the load's listing)."""
    state = CorpusState(root)
    state.load()
    directory = str((root / SCENARIO).parent)
    assert state.profile_dirs.get(directory) is None
    (root / "profile.md").write_text("# Profile\n", encoding="utf-8")
    state.update([str(root / SCENARIO)])
    assert state.profile_dirs[directory] == str(root)
