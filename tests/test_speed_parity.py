"""Speed paths never change the output: every configuration prints, byte for byte, what
`--no-cache --jobs 1` prints -- cold with a cache, warm (the stat index and the reused
run), one staged file (a run over a path answered from the whole run's findings), one
file changed, and `--jobs 2` with a process pool."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import shutil
import sys
import time

import pytest
from conftest import REPO, run_cli

FORMATS = ("json", "text")


def _generate(root, files):
    spec = importlib.util.spec_from_file_location(
        "bench_generate_parity", REPO / "bench" / "generate.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    mod.generate(root, files, "parity")


@pytest.fixture(params=["example-corpus", "bench-corpus"])
def corpus(request, tmp_path):
    root = tmp_path / "corpus"
    if request.param == "example-corpus":
        shutil.copytree(REPO / "fixtures" / "corpus", root)
    else:
        _generate(root, 60)
    return root


def _out(root, *args, fmt="json", cache=None, jobs="1"):
    cache_args = ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    code, out, _err = run_cli(["check", "--format", fmt, "--jobs", jobs, *cache_args, *args], root)
    assert code in (0, 1), out
    return code, out


def _age(root, seconds=10):
    """Move every file's times into the past: the stat index trusts entries only for files
    older than its racy window (files written in the same instant could change unseen)."""
    past = time.time() - seconds
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(dirpath, name), (past, past))


def test_every_configuration_prints_what_no_cache_jobs_1_prints(corpus, tmp_path, monkeypatch):
    from si_lint.pipeline import forkmap, perfile

    _age(corpus)
    staged = sorted(
        p.relative_to(corpus).as_posix() for p in (corpus / "scenarios").rglob("*.yaml")
    )
    fixture = sorted((corpus / "fixtures").rglob("*.yaml"))[0]
    cache = tmp_path / "cache"
    for fmt in FORMATS:
        ref = _out(corpus, fmt=fmt)
        assert _out(corpus, fmt=fmt, cache=cache) == ref  # cold, filling
        assert _out(corpus, fmt=fmt, cache=cache) == ref  # warm (stat index)
        assert _out(corpus, ".", fmt=fmt, cache=cache) == ref  # warm, `check .`
        for rel in (staged[0], staged[-1]):  # one staged file
            assert _out(corpus, rel, fmt=fmt, cache=cache) == _out(corpus, rel, fmt=fmt), rel
        assert _out(corpus, "scenarios", fmt=fmt, cache=cache) == _out(corpus, "scenarios", fmt=fmt)
    # a warm whole run after a subset run, and the other way round
    assert _out(corpus, cache=cache) == _out(corpus)
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)  # the dry runs in workers too
    assert _out(corpus, jobs="2") == _out(corpus)  # process pool
    assert _out(corpus, jobs="2", cache=tmp_path / "cache2") == _out(corpus)
    # one file changed (a comment, then a real change), and a file changed unseen by size
    with open(fixture, "a", encoding="utf-8") as fh:
        fh.write("# edited\n")
    assert _out(corpus, cache=cache) == _out(corpus)
    rel = fixture.relative_to(corpus).as_posix()
    assert _out(corpus, rel, cache=cache) == _out(corpus, rel)
    text = fixture.read_text()
    fixture.write_text(text.replace("expect: {score: ", "expect: {score: 9"))
    changed = _out(corpus)
    assert _out(corpus, cache=cache) == changed
    assert _out(corpus, jobs="2", cache=cache) == changed


def test_a_change_within_the_racy_window_is_seen(tmp_path):
    """Same size, same second: the stat index must not serve the old hash."""
    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    cache = tmp_path / "cache"
    target = sorted((root / "fixtures").rglob("*.yaml"))[0]
    ref = _out(root, cache=cache)
    st = target.stat()
    text = target.read_text()
    swapped = (
        text.replace("score: 1.0", "score: 0.0", 1)
        if "score: 1.0" in text
        else text.replace("score: 0.0", "score: 1.0", 1)
    )
    assert len(swapped) == len(text) and swapped != text
    target.write_text(swapped)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size and mtime as before
    got = _out(root, cache=cache)
    assert got == _out(root)
    assert got != ref


def test_stat_index_is_data_and_a_bad_one_is_ignored(tmp_path):
    from si_lint.cache.signed import MAC_SEP, mac, verified_json
    from si_lint.statcache import FILENAME, MAGIC

    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    _age(root)
    cache = tmp_path / "cache"
    ref = _out(root)
    assert _out(root, cache=cache) == ref
    index = verified_json(cache / FILENAME)
    assert index["magic"] == MAGIC and type(index["written_ns"]) is int
    n = len(index["paths"])
    assert n > 0 and all(os.path.isabs(p) for p in index["paths"])
    sizes = {k: len(base64.b64decode(index[k])) for k in ("times", "ids", "shas")}
    assert sizes == {"times": 24 * n, "ids": 16 * n, "shas": 32 * n}

    def signed(text):
        body = text.encode()
        return body + MAC_SEP + mac(body) + b"\n"

    def with_(**changes):
        return signed(json.dumps(dict(index, **changes)))

    for bad in (
        b'{"magic": "x"}',
        b"[]",
        b"not json",
        json.dumps(index).encode(),  # unsigned
        signed('{"magic": "x"}'),
        signed("[]"),
        with_(shas="not base64!"),
        with_(times=base64.b64encode(b"\0" * 24 * (n - 1)).decode()),  # a row short
        with_(paths=index["paths"][:1] * n),  # the same path twice
        with_(paths=[*index["paths"][:-1], 7]),
        with_(ids=None),
    ):
        (cache / FILENAME).write_bytes(bad)
        assert _out(root, cache=cache) == ref, bad
    # a signed index that lies (a wrong hash for an unchanged stat): still the right
    # output -- the per-file cache has no entry for that hash, the file is read and hashed
    shas = base64.b64decode(index["shas"])
    (cache / FILENAME).write_bytes(with_(shas=base64.b64encode(bytes(32) + shas[32:]).decode()))
    assert _out(root, cache=cache) == ref


@pytest.mark.parametrize("edited", [1, 17])
def test_a_small_change_leaves_the_stat_index_as_it_was(tmp_path, monkeypatch, edited):
    """One edited file (up to ``SMALL_CHANGE``) does not rewrite the stat index: the next
    run reads and hashes that file again, and only it; more edits rewrite it. The output
    is --no-cache's either way."""
    import importlib

    from si_lint.statcache import FILENAME, SMALL_CHANGE

    read = importlib.import_module("si_lint.pipeline.read")
    root = tmp_path / "corpus"
    _generate(root, 60)
    _age(root, 60)
    cache = tmp_path / "cache"
    _out(root, cache=cache)
    index = (cache / FILENAME).read_bytes()
    targets = sorted((root / "fixtures").rglob("*.yaml"))[:edited]
    past = time.time() - 30
    for path in targets:
        path.write_text(path.read_text() + "# edited\n")
        os.utime(path, (past, past))  # edited, but not racy
    ref = _out(root)
    assert _out(root, cache=cache) == ref
    rewritten = (cache / FILENAME).read_bytes() != index
    assert rewritten == (edited > SMALL_CHANGE)
    reads = []
    real = read.read_file
    monkeypatch.setattr(read, "read_file", lambda p, st=None: reads.append(p) or real(p, st))
    (cache / "run.json").unlink()
    assert _out(root, cache=cache) == ref
    assert sorted(reads) == ([] if rewritten else sorted(str(p) for p in targets))


def test_warm_runs_read_no_file_and_a_staged_file_builds_no_corpus(tmp_path, monkeypatch):
    import importlib

    import si_lint.checks as registry

    read = importlib.import_module("si_lint.pipeline.read")  # the package exports a `read`

    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    _age(root)
    cache = tmp_path / "cache"
    ref = _out(root, cache=cache)
    staged = "scenarios/" + sorted(os.listdir(root / "scenarios"))[0]
    staged_ref = _out(root, staged)
    reads = []
    real = read.read_file
    monkeypatch.setattr(read, "read_file", lambda p: reads.append(p) or real(p))

    def no_checks():
        raise AssertionError("the checks were imported: the run was not reused")

    monkeypatch.setattr(registry, "all_checks", no_checks)
    assert _out(root, cache=cache) == ref
    assert _out(root, staged, cache=cache) == staged_ref
    assert reads == []


def test_the_dry_runs_reuse_the_per_file_workers_and_none_outlive_the_run(tmp_path, monkeypatch):
    """Under --jobs 2 the per-file stage's workers are kept for the dry runs (forked
    before any document was loaded, they get each scenario's data, packed, instead of
    inheriting the whole corpus): one pool per run, every dry run packed, no worker left
    when the run ends, and the output is --jobs 1's."""
    import multiprocessing

    from si_lint.pipeline import forkmap, perfile

    root = tmp_path / "corpus"
    _generate(root, 60)
    ref = _out(root)
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    pools, streamed = [], []
    real_pool, real_streamed = forkmap.fork_pool, forkmap._streamed
    monkeypatch.setattr(
        forkmap,
        "fork_pool",
        lambda *a, **k: pools.append(a + tuple(k.values())) or real_pool(*a, **k),
    )

    def spy(pool, tasks, jobs, meanwhile):
        streamed.append(len(tasks))
        return real_streamed(pool, tasks, jobs, meanwhile)

    monkeypatch.setattr(forkmap, "_streamed", spy)
    assert _out(root, jobs="2") == ref
    assert pools == [(2, perfile._start_worker)]  # the per-file stage's, and no other
    assert len(streamed) == 1 and streamed[0] >= 2
    assert multiprocessing.active_children() == []
    assert forkmap._CTX is None


def test_the_stat_index_keeps_every_64_bit_stat_number(tmp_path):
    """Sizes and times are signed (an mtime before 1970 is negative), inodes and devices
    unsigned up to 2**64 - 1; a number past 64 bits writes no index (every file is read
    and hashed next time, as without one)."""
    from types import SimpleNamespace

    from si_lint.cache.signed import dumps, write_signed
    from si_lint.statcache import FILENAME, StatIndex

    class Cache:  # what the index asks of the run's cache
        enabled = True
        directory = tmp_path

        def write(self, name, obj):
            write_signed(tmp_path / name, [dumps(obj)], mode=0o600)

    def stat(**kw):
        base = dict(st_size=7, st_mtime_ns=-5, st_ctime_ns=10, st_ino=2**64 - 1, st_dev=2**63)
        return SimpleNamespace(**{**base, **kw})

    index = StatIndex(Cache())
    index.record("/a", stat(), "ab" * 32)
    index.record("/b", stat(st_ino=3), "cd" * 32)
    index.save()
    again = StatIndex(Cache())
    assert again.lookup("/a", stat()) == "ab" * 32
    assert again.lookup("/b", stat(st_ino=3)) == "cd" * 32
    assert again.lookup("/b", stat(st_ino=4)) is None
    assert again.lookup("/c", stat()) is None
    (tmp_path / FILENAME).unlink()
    index.record("/c", stat(st_dev=2**64), "ef" * 32)
    index.save()
    assert not (tmp_path / FILENAME).exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_first_run_reads_each_file_once_where_it_is_checked(tmp_path, monkeypatch, jobs):
    """With a cache that holds no file yet (a first run: CI's) the read stage stats each
    file and leaves reading and hashing to the per-file stage: every file is read once
    (the read stage read and hashed it too, before), and the stat index and the run's key
    come out as they did: a run after every file was touched (new stats, same bytes)
    hashes each file once and is answered from the run's findings, loading no check."""
    import hashlib
    import importlib

    import si_lint.checks as registry
    from si_lint.cache.signed import verified_json
    from si_lint.pipeline import forkmap, perfile
    from si_lint.statcache import FILENAME

    read = importlib.import_module("si_lint.pipeline.read")  # the package exports a `read`
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    root = tmp_path / "corpus"
    _generate(root, 60)
    _age(root, 60)
    ref = _out(root)
    files = sorted(str(p) for p in root.rglob("*") if p.is_file() and p.suffix != ".toml")
    reads = []
    real = read.read_file
    monkeypatch.setattr(read, "read_file", lambda p, st=None: reads.append(p) or real(p, st))
    cache = tmp_path / "cache"
    assert _out(root, cache=cache, jobs=jobs) == ref
    if jobs == "1":  # (a worker's reads are its own)
        assert sorted(reads) == files
    else:
        assert reads == []
    index = verified_json(cache / FILENAME)
    shas = base64.b64decode(index["shas"])
    assert sorted(index["paths"]) == files
    for i, path in enumerate(index["paths"]):
        with open(path, "rb") as fh:
            assert shas[32 * i : 32 * i + 32] == hashlib.sha256(fh.read()).digest(), path

    _age(root, 30)  # every stat is new, no byte is
    (cache / "memo.json").unlink()
    reads.clear()

    def no_checks():
        raise AssertionError("the checks were imported: the run was not reused")

    monkeypatch.setattr(registry, "all_checks", no_checks)
    assert _out(root, cache=cache, jobs=jobs) == ref
    assert sorted(reads) == files
