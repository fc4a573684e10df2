"""The records si-lint's data travels in (si_lint.findings.value_object): value objects compare by
their fields but the ignored ones, and only with their own class; records by attributes."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from si_lint.config import Config
from si_lint.findings import Diag, Finding, Location
from si_lint.pipeline import Options
from si_lint.root import Root


def test_a_finding_compares_and_hashes_without_its_fix():
    f = Finding("a.yaml", 1, 2, "SI101", "error", "m", fix=["one"])
    g = f._replace(fix=["two"])
    assert f == g and not f != g and hash(f) == hash(g)
    assert f != f._replace(line=3)
    assert f != tuple(f)  # never equal to a plain tuple of the same values


def test_a_diag_compares_by_every_field_and_only_with_diags():
    d = Diag("SI101", ("id",), "m")
    assert d == Diag("SI101", ("id",), "m") and hash(d) == hash(Diag("SI101", ("id",), "m"))
    assert d != d._replace(fix="x") and d != tuple(d)
    with pytest.raises(AttributeError):
        d.code = "SI102"
    assert pickle.loads(pickle.dumps(d)) == d


def test_locations_order_field_by_field():
    a, b = Location("a.yaml", 2, 1), Location("a.yaml", 1, 9)
    assert sorted([a, b]) == [b, a]


def test_a_root_compares_without_its_bytes():
    r = Root(Path("/r"), None, None, "config", b"x")
    s = r._replace(raw=None)
    assert r == s and hash(r) == hash(s) and r != r._replace(how="git")
    assert repr(r) == "Root(path=PosixPath('/r'), source=None, table=None, how='config')"


def test_config_and_options():
    c = Config(root=Path("/r"))
    assert c == Config(Path("/r")) and hash(c) == hash(Config(Path("/r")))
    assert c.with_cli(["SI1"], None) == c._replace(select=("SI1",))
    assert Options(jobs=2) == Options(jobs=2) != Options(jobs=1)
    assert repr(Options(jobs=2)).startswith("Options(select=(), ignore=(), ")
    with pytest.raises(TypeError):
        hash(Options())
