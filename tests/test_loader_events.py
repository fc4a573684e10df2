"""The lighter event classes the loader swaps into PyYAML's binding (si_lint.loader.events):
the same documents, positions and findings as PyYAML's own classes, on the whole YAML test
suite and on hostile input; the originals back after every read."""

from __future__ import annotations

import pytest
from test_loader import SUITE_CASES, _snapshot

from si_lint.findings import Diag
from si_lint.loader import events as ev_mod
from si_lint.loader import load_bytes

binding = pytest.importorskip("yaml._yaml", reason="PyYAML is built without its C extension")
import yaml.events


def _no_swap(monkeypatch) -> None:
    monkeypatch.setattr(ev_mod, "_SWAP", [()])


def _originals_back() -> None:
    for name in ev_mod.FIELDS:
        assert getattr(binding, name) is getattr(yaml.events, name), name


def test_the_swap_is_made_here():
    load_bytes(b"a: 1\n")
    (swap,) = ev_mod._SWAP
    assert swap, "the probe refused the swap for this PyYAML"
    module, originals, lighter = swap
    assert module is binding
    assert set(lighter) == set(ev_mod.FIELDS)
    assert all(originals[name] is getattr(yaml.events, name) for name in ev_mod.FIELDS)
    _originals_back()


def test_suite_reads_the_same_with_either_classes(monkeypatch):
    if not SUITE_CASES:
        pytest.skip("../shared is absent: the yaml-test-suite is not beside the checkout")
    raws = {case.name: (case / "in.yaml").read_bytes() for case in SUITE_CASES}
    swapped = {name: _snapshot(load_bytes(raw)) for name, raw in raws.items()}
    _originals_back()
    _no_swap(monkeypatch)
    own = {name: _snapshot(load_bytes(raw)) for name, raw in raws.items()}
    assert [name for name in raws if swapped[name] != own[name]] == []


@pytest.mark.parametrize(
    "raw",
    [
        b"a: &x [1, 'b', {c: d}]\nb: *x\n",
        b"? [complex]\n: 1\nk: !!int 2\nt: !custom 3\n",
        b"a: [1, 2\n",  # invalid: libyaml raises mid-read
        b"- " * 200 + b"x\n",
        b"a: 1\na: 2\n---\n%YAML 1.2\n",
    ],
)
def test_hostile_input_reads_the_same_and_puts_the_originals_back(monkeypatch, raw):
    swapped = _snapshot(load_bytes(raw))
    _originals_back()
    _no_swap(monkeypatch)
    assert swapped == _snapshot(load_bytes(raw))


def test_a_binding_that_calls_its_classes_otherwise_keeps_them(monkeypatch):
    """A PyYAML whose binding passed the fields in another order: the probe sees other
    events, so the loader reads with the binding's own classes."""
    fields = dict(ev_mod.FIELDS)
    fields["ScalarEvent"] = (
        "tag",
        "anchor",
        "implicit",
        "value",
        "start_mark",
        "end_mark",
        "style",
    )
    monkeypatch.setattr(ev_mod, "FIELDS", fields)
    monkeypatch.setattr(ev_mod, "_SWAP", [])
    assert ev_mod.prepare(binding) == {}
    assert ev_mod._SWAP == [()]
    _originals_back()
    loaded = load_bytes(b"a: &x 1\nb: !!str 2\nc: *x\n")
    assert [d.data for d in loaded.documents] == [{"a": 1, "b": "2", "c": 1}]
    _originals_back()


def test_the_originals_are_back_after_a_read_that_raises(monkeypatch):
    from si_lint.loader import builder

    def boom(self):
        assert binding.ScalarEvent is not yaml.events.ScalarEvent  # swapped meanwhile
        raise RuntimeError("check")

    def pure(text):
        raise RuntimeError("check")

    monkeypatch.setattr(builder.Builder, "build", boom)
    monkeypatch.setattr("si_lint.loader._PureEvents", pure)  # the second parser fails too
    loaded = load_bytes(b"a: 1\n")
    assert loaded.failed
    assert loaded.findings[0] == Diag("SI001", (), "invalid YAML: check", line=1, col=1)
    _originals_back()


def test_no_lighter_classes_made_keeps_the_bindings_own(monkeypatch):
    def refuse(module):
        raise TypeError("no such struct")

    monkeypatch.setattr(ev_mod, "lighter_classes", refuse)
    monkeypatch.setattr(ev_mod, "_SWAP", [])
    assert ev_mod.prepare(binding) == {}
    loaded = load_bytes(b"a: [1, x]\n")
    assert [d.data for d in loaded.documents] == [{"a": [1, "x"]}]
    _originals_back()
