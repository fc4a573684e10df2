"""Documents read back from a cache entry (``pipeline.data``): the head holds what every
run reads (kind, a fixture's refs, a scenario's id), the body each document's data and
positions, decoded for the whole file on the first read of one document's; an entry that is
not what ``to_entry`` writes is a miss, or its file is read again."""

from __future__ import annotations

import pytest

from si_lint.corpus import Document, artifact_refs
from si_lint.pipeline.context import Source
from si_lint.pipeline.data import from_entry, to_entry

FIXTURE = {
    "scenario": "s.one",
    "expect": {"score": 1.0},
    "events": [{"kind": "agent_response", "text": "ok", "n": -0.0}],
}


def _doc(data, kind="fixture", abspath="/nowhere/f.yaml", **given) -> Document:
    return Document("f.yaml", abspath, kind, data, sha="ab" * 32, **given)


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


def _source(tmp_path, path=None) -> Source:
    if path is None:
        path = tmp_path / "f.yaml"
        path.write_text("x")
    return Source(str(path), None, None, "ab" * 32)


def test_a_cached_document_s_data_is_decoded_only_when_read(tmp_path):
    """The head is what every run reads (kind, refs, a scenario's id); the body of the
    entry is decoded, for every document of the file at once, on the first read of one
    document's data or positions."""
    import msgspec

    scenario = {"id": "s.one", "classification": "capability", "scoring": {"a": [1]}}
    docs = [_doc(scenario, kind="scenario", ndocs=2), _doc(FIXTURE, index=1, ndocs=2)]
    head, body = to_entry(docs, [])
    raw = msgspec.json.decode(msgspec.json.encode(body), type=msgspec.Raw)
    back, _findings = from_entry([head, raw], _source(tmp_path), tmp_path)
    assert [d.scenario_id() for d in back] == ["s.one", None]
    assert all("data" not in d.__dict__ for d in back) and back[0].content.raw is not None
    assert back[0].data == scenario  # one read fills both documents
    assert back[1].content.raw is None and back[1].content.data[1] == FIXTURE
    assert back[1].data == FIXTURE
    assert back[1].artifact_refs() == ("s.one", ("scenario",), "s.one")


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
    assert from_entry([head, [[{}, None]]], _source(tmp_path), tmp_path) is None


@pytest.mark.parametrize(
    "body",
    [
        [[{"scenario": "s.one"}, None, None]],  # a row of three
        [[{}, None], [{}, None]],  # a row for a document there is not
        "[[null, null, 5]]",  # not what the cache left undecoded
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
