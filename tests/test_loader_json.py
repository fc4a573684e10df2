"""The loader's JSON path (``si_lint.loader.json_path``): where it reads a text, it gives
what the event path gives -- the same data, findings, positions and starts -- and it
declines every text where the two could differ or the event path has a finding."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED
from hypothesis import given, settings
from hypothesis import strategies as st

from si_lint.loader import decode, load_bytes, load_events, load_text
from si_lint.loader.json_path import LazyPosMap, load_json
from si_lint.loader.suppressions import scan_suppressions

SUITE = SHARED / "data" / "yaml-test-suite"
#: valid YAML 1.2 (the suite's verdict) that libyaml and ruamel both refuse; JSON reads it
#: (6CA3 and Q5MG, a tab before a flow collection, are declined: the events refuse them)
EVENTS_REFUSE = {"4MUZ/00"}


def snapshot(loaded):
    docs = [(d.index, d.data, d.pos.k, d.pos.v) for d in loaded.documents]
    return repr((loaded.failed, docs, loaded.findings, loaded.quiet_spans, loaded.starts))


def test_the_yaml_test_suite_reads_alike_on_both_paths():
    if not SUITE.is_dir():
        pytest.skip("../shared is absent: the yaml-test-suite is not beside the checkout")
    read, differ = 0, []
    for p in sorted(SUITE.rglob("in.*")):
        text, _bad = decode(p.read_bytes())
        fast = load_json(text) if text is not None else None
        if fast is None:
            continue
        read += 1
        if snapshot(fast) != snapshot(load_events(text)):
            differ.append(p.parent.relative_to(SUITE).as_posix())
    assert read == 2  # the inputs that are one JSON value (4MUZ/00, 4RWC)
    assert set(differ) == EVENTS_REFUSE, differ
    for case in EVENTS_REFUSE:
        assert not (SUITE / case / "error").exists()  # valid: the JSON path is right


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", "x" * 41, "si-lint: disable=SI101", "---", "\u2028", "\x85", "\ud800"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    _values,
    st.sampled_from([None, 0, 2, "\t"]),
    st.booleans(),
    st.sampled_from([None, (",", ":"), (" , ", " : ")]),
    st.sampled_from(["", "\n", "\r\n", "  \n\t", "\r"]),
)
def test_generated_json_reads_alike_on_both_paths(value, indent, ascii_only, seps, around):
    text = around + json.dumps(value, indent=indent, ensure_ascii=ascii_only, separators=seps)
    text += around
    fast = load_json(text)
    if fast is None:
        return  # declined: the event path reads it (load_text)
    assert snapshot(fast) == snapshot(load_events(text)), text


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',  # SI002
        '{"a": NaN}',  # a string to YAML
        "[1] # c",  # a comment
        '{"a": 1}\n---\n{"b": 2}\n',  # two documents
        '{"a": "\\ud800"}',  # a lone surrogate, escaped
        '{"a": "x # si-lint: disable=SI101"}',
        '["\u2028"]',  # a line break to libyaml
        '["\x7f"]',  # refused by YAML
        "[" * 70 + "]" * 70,  # over the nesting limit
        "[" + "1," * 50_000 + "1]",  # over the node limit
        "[" + "1" * 4_000 + "]",  # near the digit limit
        "a: 1",
        "",
    ],
)
def test_what_the_json_path_declines_is_read_by_the_events(text):
    assert load_json(text) is None
    assert snapshot(load_text(text)) == snapshot(load_events(text))


def test_the_limits_are_the_event_paths():
    """Nesting one level short of the limit is read by JSON as the events read it; at the
    limit and over it, and past the node count, the events decide (SI005)."""
    inner = "[" * 63 + "]" * 63
    assert load_json(inner) is not None
    assert snapshot(load_json(inner)) == snapshot(load_events(inner))
    for text in ("[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "[" + "0," * 50_001 + "0]"):
        assert load_json(text) is None
    assert [d.code for d in load_text("[" * 65 + "]" * 65).findings] == ["SI005"]


def test_positions_are_read_when_first_asked_for():
    text = '{\n  "id": "x",\n  "items": [1, {"k": "v"}]\n}\n'
    loaded = load_bytes(text.encode())
    pos = loaded.documents[0].pos
    assert isinstance(pos, LazyPosMap) and pos.to_blob(loaded.data) is None  # not read yet
    assert loaded.data == {"id": "x", "items": [1, {"k": "v"}]}
    assert pos.key(("items", 1, "k")) == (3, 17)
    assert pos.value(("id",)) == (2, 9)
    assert pos.to_blob(loaded.data) == load_events(text).documents[0].pos.to_blob(loaded.data)
    assert scan_suppressions(text, loaded.quiet_spans) == []


def _report(corpus, monkeypatch, json_path: bool) -> list[dict]:
    from si_lint.loader import json_path as module
    from si_lint.pipeline import Options, run

    with monkeypatch.context() as m:
        if not json_path:
            m.setattr(module, "load_json", lambda text: None)
        result = run(["."], Options(use_cache=False), cwd=corpus)
    return [f.as_json() for f in result.findings]


def test_a_corpus_reports_the_same_through_either_path(tmp_path, monkeypatch):
    """The example corpus and JSON files with findings of their own (located from the
    positions read on demand): the whole report is the event path's."""
    import shutil

    from conftest import REPO

    corpus = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", corpus)
    (corpus / "runs" / "bad.json").write_text(
        '{\n  "scenario_id": "nope",\n  "final_answer": 3,\n  "actions": [{"id": 1}]\n}\n'
    )
    (corpus / "runs" / "dup.json").write_text('{\n  "scenario_id": "a",\n  "scenario_id": "b"\n}\n')
    fast = _report(corpus, monkeypatch, json_path=True)
    assert fast == _report(corpus, monkeypatch, json_path=False)
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in fast] == [
        ("SI303", "runs/bad.json", 2, 18),  # read by JSON, located by the events
        ("SI002", "runs/dup.json", 3, 3),  # declined: read by the events
    ]
