"""Fixtures and evidence held packed in the parent (``Document.pack``): a worker sends
their data as marshal bytes (as JSON text when the run writes a cache entry) and a cache
entry stores it as JSON text; the parent reads only their refs (the scenario they name)
for the graph and the dry runs' grouping, and decodes a fixture only where its data is
read: a dry run outside a worker, or a finding located in it."""

from __future__ import annotations

import pickle

import pytest

from si_lint.corpus import Document, artifact_refs, packed_form, unpacked_form
from si_lint.pipeline.context import Source
from si_lint.pipeline.data import from_entry, to_entry

FIXTURE = {
    "scenario": "s.one",
    "expect": {"score": 1.0},
    "events": [{"kind": "agent_response", "text": "ok", "n": -0.0}],
    "metadata": {"nan": float("inf"), "big": 10**30},
}


def _doc(data, kind="fixture", abspath="/nowhere/f.yaml") -> Document:
    return Document("f.yaml", abspath, kind, data, None, sha="ab" * 32)


@pytest.mark.parametrize("text", [False, True])
def test_packed_data_reads_back_as_the_data_and_only_on_first_use(text):
    doc = _doc(FIXTURE)
    doc.pack(packed_form(FIXTURE, text), artifact_refs(FIXTURE))
    assert "data" not in doc.__dict__
    assert doc.artifact_refs() == ("s.one", ("scenario",), "s.one")
    assert doc.held == (None, doc.packed)
    assert doc.unpacked() == FIXTURE and "data" not in doc.__dict__  # not kept
    assert doc.data == FIXTURE  # decoded on first use, and kept
    assert doc.packed is None and doc.held == (FIXTURE, None)


def test_a_packed_document_travels_between_processes_packed():
    doc = _doc(FIXTURE)
    doc.pack(packed_form(FIXTURE, False), artifact_refs(FIXTURE))
    back = pickle.loads(pickle.dumps(doc))
    assert "data" not in back.__dict__ and back.refs == doc.refs
    assert back.data == FIXTURE


def test_refs_are_what_the_graph_and_the_dry_runs_read_of_the_data():
    # the graph links the first of scenario/scenario_id; the dry runs group by the key of
    # the document's form (artifact form: scenario_id); an id that is not a string: None
    assert artifact_refs({"scenario_id": "a", "final_answer": "x"}) == (
        "a",
        ("scenario_id",),
        "a",
    )
    assert artifact_refs({"scenario": "a", "scenario_id": "b", "final_answer": "x"}) == (
        "a",
        ("scenario",),
        "b",
    )
    assert artifact_refs({"scenario": 3, "events": []}) == (None, None, None)


def test_packed_data_that_does_not_decode_is_read_from_the_file_again(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("scenario: s.one\nexpect: {score: 1}\nevents: []\n")
    doc = _doc(None, abspath=str(path))
    doc.pack('{"scenario": ', ("s.one", ("scenario",), "s.one"))
    assert doc.data == {"scenario": "s.one", "expect": {"score": 1}, "events": []}
    with pytest.raises(ValueError):
        unpacked_form("[1, 2]")  # a fixture is a mapping


def _source(tmp_path, path=None) -> Source:
    if path is None:
        path = tmp_path / "f.yaml"
        path.write_text("x")
    return Source(str(path), None, None, "ab" * 32)


def test_a_cache_entry_stores_a_fixture_as_json_text_and_gives_it_back_packed(tmp_path):
    doc = _doc(FIXTURE, abspath=str(tmp_path / "f.yaml"))
    doc.pos_blob = "1,1,0,0"
    head, body = to_entry([doc], [])
    assert head["docs"] == [[0, "fixture", ["s.one", ["scenario"], "s.one"]]]
    assert body == [[None, "1,1,0,0", packed_form(FIXTURE, True)]]
    (back,), findings = from_entry([head, body], _source(tmp_path), tmp_path)
    assert findings == [] and "data" not in back.__dict__ and back.lazy is not None
    assert back.refs == ("s.one", ("scenario",), "s.one")
    assert back.held == (None, packed_form(FIXTURE, True))  # the body read: packed
    assert back.lazy is None and back.pos_blob == "1,1,0,0"
    assert back.data == FIXTURE
    # a scenario's data is stored as data, its id in the head
    scenario = {"id": "s.one", "classification": "capability", "scoring": {}}
    head, body = to_entry([_doc(scenario, kind="scenario")], [])
    assert head["docs"] == [[0, "scenario", ["s.one"]]] and body == [[scenario, None, None]]


def test_a_cached_document_s_data_is_decoded_only_when_read(tmp_path):
    """The head is what every run reads (kind, refs, a scenario's id); the body of the
    entry is decoded, for every document of the file at once, on the first read of one
    document's data or positions."""
    import msgspec

    scenario = {"id": "s.one", "classification": "capability", "scoring": {"a": [1]}}
    docs = [_doc(scenario, kind="scenario"), _doc(FIXTURE)]
    for i, d in enumerate(docs):
        d.index, d.ndocs = i, 2
    head, body = to_entry(docs, [])
    raw = msgspec.json.decode(msgspec.json.encode(body), type=msgspec.Raw)
    back, _findings = from_entry([head, raw], _source(tmp_path), tmp_path)
    assert [d.scenario_id() for d in back] == ["s.one", None]
    assert all("data" not in d.__dict__ and d.lazy is not None for d in back)
    assert back[0].data == scenario  # one read fills both documents
    assert back[1].lazy is None and back[1].held == (None, packed_form(FIXTURE, True))


@pytest.mark.parametrize(
    "row",
    [
        [0, "scenario", [None, None, None]],  # a scenario's refs are its id
        [0, "scenario", [5]],  # an id that is not a string
        [0, "template", ["a"]],  # a kind that has no refs
        [0, "fixture", ["a", None]],  # refs of the wrong length
        [0, "fixture", [1, None, None]],  # an id that is not a string
        [0, "fixture", ["a", [1], "a"]],  # a key path of a number
        [0, "fixture"],  # no refs
    ],
)
def test_an_entry_row_that_is_not_what_to_entry_writes_is_a_miss(row, tmp_path):
    head = {"docs": [row], "ndocs": 1, "suppressions": [], "findings": []}
    assert from_entry([head, [[None, None, "{}"]]], _source(tmp_path), tmp_path) is None


@pytest.mark.parametrize(
    "body",
    [
        [[None, None, 7]],  # text is not a string
        [[None, None, "{\u00e9}"]],  # not ASCII
        [[{"scenario": "s.one"}, None, None]],  # a fixture's data as data
        [[None, None, "{}"], [None, None, "{}"]],  # a row for a document there is not
        "[[null, null, 5]]",  # neither data nor JSON text the cache left undecoded
    ],
)
def test_an_entry_body_that_is_not_what_to_entry_writes_is_read_from_the_file(body, tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("scenario: s.one\nexpect: {score: 1}\nevents: []\n")
    head = {"docs": [[0, "fixture", ["s.one", ["scenario"], "s.one"]]], "ndocs": 1}
    head.update(suppressions=[], findings=[])
    (doc,), _findings = from_entry([head, body], _source(tmp_path, path), tmp_path)
    assert doc.data == {"scenario": "s.one", "expect": {"score": 1}, "events": []}
    assert doc.pos.value(("expect", "score")) == (2, 17)


def _docs_of_runs(monkeypatch) -> list:
    from si_lint.pipeline import perfile

    seen = []
    real = perfile.process

    def spy(*args, **kwargs):
        docs, per_file = real(*args, **kwargs)
        seen.append(docs)
        return docs, per_file

    monkeypatch.setattr(perfile, "process", spy)
    return seen


def _fixtures_held(docs) -> list:
    return sorted((d.relpath, type(d.held[1]).__name__) for d in docs if d.kind == "fixture")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_parent_holds_fixtures_packed_to_the_end_of_the_run(tmp_path, monkeypatch, jobs):
    """Cold: marshal bytes; the first cached run: the JSON text its entries store; the
    next run: the entries' text. No stage decodes one (nothing is found in them), and the
    output is ``--no-cache --jobs 1``'s (which holds them packed too)."""
    from test_speed_parity import _generate, _out

    from si_lint.pipeline import forkmap, perfile

    root = tmp_path / "corpus"
    _generate(root, 30)
    ref = _out(root)
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    seen = _docs_of_runs(monkeypatch)
    cache = tmp_path / "cache"
    assert _out(root, jobs=jobs) == ref
    assert _out(root, jobs=jobs, cache=cache) == ref
    (root / "scenarios" / "touched.yaml").write_text("# a new file: the run is not reused\n")
    ref_touched = _out(root)
    assert _out(root, jobs=jobs, cache=cache) == ref_touched
    cold, fill, plain, hit = (_fixtures_held(docs) for docs in seen)
    fixtures = sorted(
        str(p.relative_to(root))
        for p in root.glob("fixtures/**/*")
        if p.suffix in (".yaml", ".json")
    )
    assert len(fixtures) > 10
    assert cold == plain == [(f, "bytes") for f in fixtures]
    assert fill == hit == [(f, "str") for f in fixtures]


def test_a_finding_located_in_a_packed_fixture_decodes_only_that_fixture():
    """Positions are read back with the data: a cross-file finding into a fixture held
    packed decodes it, at the right line and column."""
    from si_lint.loader import load_bytes

    text = b"scenario: s.one\nexpect: {score: 1.0}\nevents:\n  - {kind: agent_response}\n"
    loaded = load_bytes(text).documents[0]
    doc = _doc(loaded.data)
    doc.pos_blob = loaded.pos.to_blob(loaded.data)
    doc.pack(packed_form(loaded.data, True), artifact_refs(loaded.data))
    assert doc.pos.value(("scenario",)) == (1, 11)
    assert doc.pos.key(("events", 0, "kind")) == (4, 6)
    assert "data" in doc.__dict__


def test_json_text_is_the_cache_s_own_json():
    from si_lint.cache.signed import decode_json, dumps

    assert packed_form(FIXTURE, True) == dumps(FIXTURE).decode()
    assert unpacked_form(packed_form(FIXTURE, True)) == decode_json(dumps(FIXTURE))


def test_a_cached_fixture_text_that_does_not_decode_is_read_from_its_file(tmp_path):
    """A signed entry whose fixture text is not JSON (only a bug could write one) is read
    from the fixture's file where its data is needed: a dry run (its scenario changed)
    and a finding located in it. The output is ``--no-cache``'s."""
    from test_cache_hostile import _resign, inline_body, rerun_reads_fixtures, stray_fixture_corpus

    root, cache = stray_fixture_corpus(tmp_path)

    def corrupt(obj):  # every body inline, each fixture's text cut short
        for entry in obj["files"].values():
            body = inline_body(cache, obj, entry[1])
            entry[1] = [r[:2] + ["{"] if r[2] is not None else r for r in body]

    _resign(cache / "results.json", corrupt)
    rerun_reads_fixtures(root, cache)


def _plain():
    """What the loader builds: str keys; str, int, float (with NaN and infinities), bool
    and None leaves; lists and mappings."""
    from conftest import python_floats
    from hypothesis import strategies as st

    leaves = st.none() | st.booleans() | st.integers() | python_floats() | st.text(max_size=20)
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=30,
    )


def test_packed_data_reads_back_exactly_whatever_the_data():
    """Both packed forms give back the loader's data exactly -- types, key order, NaN,
    infinities, -0.0, big integers -- so a fixture held packed is scored as the one just
    loaded."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, derandomize=True, deadline=None)
    @given(st.dictionaries(st.text(max_size=8), _plain(), max_size=5))
    def round_trip(data):
        for text in (False, True):
            # repr tells 1 from True and 1.0, -0.0 from 0.0, and shows the key order
            assert repr(unpacked_form(packed_form(data, text))) == repr(data)

    round_trip()
