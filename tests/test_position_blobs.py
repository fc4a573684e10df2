"""Position blobs (``PosMap.to_blob``/``from_blob``): what a cache entry and a worker's
result keep of a document's positions -- four numbers per node of the data, in the order
``walk`` visits it, the paths left out (they are the data's own). Read back with the same
data they give the loader's positions exactly; anything else gives None (a cache can
arrive in a pull request), and the document's file is read again instead."""

from __future__ import annotations

import glob

import pytest
from conftest import REPO, SHARED

from si_lint.corpus import Document
from si_lint.loader import documents as docmod
from si_lint.loader import load_bytes
from si_lint.loader.documents import PosMap, walk

TEXT = b"a: 1\nb:\n  - x\n  - {c: [2]}\n"


def test_the_blob_is_four_numbers_per_node_in_walk_order():
    doc = load_bytes(TEXT).documents[0]
    assert list(walk(doc.data)) == [
        (),
        ("a",),
        ("b",),
        ("b", 0),
        ("b", 1),
        ("b", 1, "c"),
        ("b", 1, "c", 0),
    ]
    # per node: value line (change from the last value line), value column, key line
    # (change from the value line), key column; a column of 0: no such position
    assert doc.pos.to_blob(doc.data) == "1,1,0,0,0,4,0,1,2,3,-1,1,0,5,0,0,1,5,0,0,0,9,0,6,0,10,0,0"
    back = PosMap.from_blob(doc.pos.to_blob(doc.data), doc.data)
    assert (back.k, back.v) == (doc.pos.k, doc.pos.v)
    assert back.key(("b", 1, "c")) == (4, 6) and back.value(("b", 1, "c", 0)) == (4, 10)


def _round_trips(paths) -> list[str]:
    wrong = []
    for path in paths:
        with open(path, "rb") as fh:
            loaded = load_bytes(fh.read())
        for d in loaded.documents:
            d.pos.v  # noqa: B018 - a JSON text's positions are read when first asked for
            back = PosMap.from_blob(d.pos.to_blob(d.data), d.data)
            if back is None or (back.k, back.v) != (d.pos.k, d.pos.v):
                wrong.append(f"{path}#{d.index}")
    return wrong


def test_the_bundled_corpus_round_trips_exactly():
    paths = sorted(glob.glob(str(REPO / "fixtures" / "**" / "*.yaml"), recursive=True))
    assert len(paths) > 50
    assert _round_trips(paths) == []


@pytest.mark.skipif(
    not (SHARED / "data").is_dir(), reason="../shared (the YAML test suite) is absent"
)
def test_the_yaml_test_suite_round_trips_exactly():
    suite = SHARED / "data" / "yaml-test-suite"
    paths = sorted(str(p) for p in suite.glob("*/in.yaml") if not (p.parent / "error").exists())
    assert len(paths) > 200
    assert _round_trips(paths) == []


@pytest.mark.parametrize(
    "blob",
    [
        "1,1,0,0",  # too few numbers for the data
        "1,1,0,0,0,4,0,1,2,3,-1,1,0,5,0,0,1,5,0,0,0,9,0,6,0,10,0,0,7",  # one too many
        "1,1,0,0,0,4,0,1,2,3,-1,1,0,5,0,0,1,5,0,0,0,9,0,6,0,10,0,x",
        "",
        "１,1,0,0",  # not ASCII
        ["1", "1"],
        None,
        12,
    ],
)
def test_a_blob_that_is_not_this_datas_is_none(blob):
    doc = load_bytes(TEXT).documents[0]
    assert PosMap.from_blob(blob, doc.data) is None


def test_a_document_with_a_bad_blob_reads_its_file_again(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_bytes(TEXT)
    data = load_bytes(TEXT).documents[0].data
    from si_lint.pipeline.data import Content

    content = Content(str(path))
    doc = Document("a.yaml", str(path), None, data, content=content)
    content.docs.append(doc)
    content.blobs[0] = "1,1,0,0"  # written by someone else
    assert doc.pos.key(("b", 1, "c")) == (4, 6)


def test_data_too_large_to_walk_keeps_no_blob(monkeypatch):
    monkeypatch.setattr(docmod, "MAX_WALK", 5)
    doc = load_bytes(TEXT).documents[0]
    assert doc.pos.to_blob(doc.data) is None
    assert len(list(walk(doc.data))) == 5


def test_the_builder_s_positions_are_1_based_pairs():
    doc = load_bytes(TEXT).documents[0]
    assert doc.pos.k == {("a",): (1, 1), ("b",): (2, 1), ("b", 1, "c"): (4, 6)}
    assert doc.pos.v == {
        (): (1, 1),
        ("a",): (1, 4),
        ("b",): (3, 3),
        ("b", 0): (3, 5),
        ("b", 1): (4, 5),
        ("b", 1, "c"): (4, 9),
        ("b", 1, "c", 0): (4, 10),
    }


def test_a_lookup_falls_back_to_the_item_or_the_nearest_ancestor():
    pos = load_bytes(TEXT).documents[0].pos
    assert (pos.key(("b", 1, "c", 0, "deeper")), pos.value(("b", 1, "c", 0, "deeper"))) == (
        (4, 10),
        (4, 10),
    )
    assert (pos.key(("nope",)), pos.value(("nope",))) == ((1, 1), (1, 1))
    assert (pos.key(("b", 1, "c")), pos.value(("b", 1, "c"))) == ((4, 6), (4, 9))


def test_a_position_map_pickles():
    import pickle

    doc = load_bytes(TEXT).documents[0]
    assert pickle.loads(pickle.dumps(doc.pos)) == doc.pos


def test_the_pure_parser_s_marks_give_the_same_positions(monkeypatch):
    # a text libyaml rejects is read by ruamel's pure parser, whose marks differ in type
    from si_lint import loader

    monkeypatch.setattr(loader, "_c_parser", lambda: None)
    pure = load_bytes(TEXT).documents[0]
    monkeypatch.undo()
    c = load_bytes(TEXT).documents[0]
    assert (pure.data, pure.pos.k, pure.pos.v) == (c.data, c.pos.k, c.pos.v)


@pytest.mark.parametrize("cached", [False, True])
def test_a_workers_documents_travel_as_their_entry(tmp_path, cached):
    """A pool worker sends a file's entry (``data.to_entry``) as marshal bytes
    (``perfile._work_sent``), the body decoded when the data is read: the parent's
    documents equal what the worker made -- the
    data, the suppressions, the position blobs under a cache --, the file's documents
    share one ``Content``, and the loader's interned keys stay interned."""
    import hashlib
    import marshal
    import pickle
    import sys

    from si_lint.pipeline import perfile
    from si_lint.pipeline.context import Source
    from si_lint.pipeline.data import from_entry
    from si_lint.registry import Check

    def source():
        raw = path.read_bytes()
        return Source(str(path), raw, None, hashlib.sha256(raw).hexdigest())

    scenario = "id: S-1\nkind: scenario\ntitle: t  # si-lint: disable=SI101\n"
    fixture = "scenario: S-1\nevents:\n  - kind: agent_response\n    content: hi\n"
    path = tmp_path / "two.yaml"
    path.write_text(scenario + "---\n" + fixture)
    checks = (Check(lambda doc, ctx: (), ("SI999",), "corpus"),)  # no file check runs
    perfile._WORKER.update(sources=[source()], ctx=None, checks=checks, cwd=tmp_path, cached=cached)
    try:
        head, body, _ = pickle.loads(pickle.dumps(perfile._work_sent(0)))
        perfile._WORKER["sources"] = [source()]
        want, _ = perfile._work(0)
        got, findings = from_entry([marshal.loads(head), body], source(), tmp_path)
    finally:
        perfile._WORKER.clear()
    for g, w in zip(got, want):
        for name in ("relpath", "abspath", "kind", "sha", "suppressions", "index", "ndocs"):
            assert getattr(g, name) == getattr(w, name), name
        assert g.data == w.data and g.artifact_refs() == w.artifact_refs()
        assert g.content.blobs == w.content.blobs
    assert got[0].content is got[1].content
    key = next(iter(got[0].data))
    assert sys.intern(key) is key
    assert bool(got[0].content.blobs) == cached
