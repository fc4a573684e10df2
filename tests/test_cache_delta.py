"""A run that changes a few entries of the per-file table writes them as ``delta.json``
over ``results.json`` instead of rewriting the whole table; the output is what a run
without a cache prints, whatever state the two files are in."""

from __future__ import annotations

import json
import os
import shutil
import time

from conftest import REPO, run_cli


def _out(root, cache=None):
    cache_args = ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    code, out, err = run_cli(["check", "--format", "json", "--jobs", "1", *cache_args], root)
    assert code in (0, 1), (out, err)
    return out


def _body(path):
    return json.loads(path.read_bytes().rsplit(b"\n#mac ", 1)[0])


def test_one_changed_file_writes_a_delta_and_the_table_stays(tmp_path):
    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    cache = tmp_path / "cache"
    _out(root, cache)
    table = cache / "results.json"
    before = table.read_bytes()
    assert not (cache / "delta.json").exists()
    fixture = sorted((root / "fixtures").rglob("*.yaml"))[0]
    with open(fixture, "a", encoding="utf-8") as fh:
        fh.write("# changed\n")
    assert _out(root, cache) == _out(root)
    assert table.read_bytes() == before  # not rewritten
    delta = _body(cache / "delta.json")
    assert delta["base"] == _body(table)["id"]
    assert len(delta["files_added"]) == 1 and delta["files_removed"] != []
    # a second change on top: the delta still holds both against the same table
    scenario = sorted((root / "scenarios").glob("*.yaml"))[0]
    with open(scenario, "a", encoding="utf-8") as fh:
        fh.write("# changed too\n")
    assert _out(root, cache) == _out(root)
    assert table.read_bytes() == before
    assert len(_body(cache / "delta.json")["files_added"]) == 2
    # and a run with nothing changed reads both and writes nothing
    stamp = os.stat(cache / "delta.json").st_mtime_ns
    time.sleep(0.01)
    assert _out(root, cache) == _out(root)
    assert os.stat(cache / "delta.json").st_mtime_ns == stamp


def test_a_delta_that_is_not_over_this_table_is_ignored(tmp_path):
    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    cache = tmp_path / "cache"
    _out(root, cache)
    fixture = sorted((root / "fixtures").rglob("*.yaml"))[0]
    with open(fixture, "a", encoding="utf-8") as fh:
        fh.write("# changed\n")
    _out(root, cache)
    delta = (cache / "delta.json").read_bytes()
    for bad in (b"not json", delta.replace(b'"base":"', b'"base":"0'), b""):
        (cache / "delta.json").write_bytes(bad)
        assert _out(root, cache) == _out(root)


def test_a_large_change_rewrites_the_table(tmp_path, monkeypatch):
    from si_lint.cache import store

    monkeypatch.setattr(store, "DELTA_FLOOR", 0)  # a small corpus: only the share counts
    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    cache = tmp_path / "cache"
    _out(root, cache)
    first = _body(cache / "results.json")["id"]
    for path in sorted(root.rglob("*.yaml")):
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("# all changed\n")
    assert _out(root, cache) == _out(root)
    assert _body(cache / "results.json")["id"] != first
    assert not (cache / "delta.json").exists()
