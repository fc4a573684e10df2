"""Speed paths never change the output: every configuration prints, byte for byte, what
`--no-cache --jobs 1` prints -- cold with a cache, warm (every answer from the cache), one
staged file, one file changed, and `--jobs 2` with a process pool. (Random edit sequences:
tests/test_cache_differential.py.)"""

from __future__ import annotations

import importlib.util
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
    """Move every file's times into the past (a cache keyed on content must not care)."""
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


def test_a_change_of_the_same_size_and_time_is_seen(tmp_path):
    """Same size, same modification time: the cache must not serve the old answer."""
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


def test_under_jobs_the_file_checks_and_the_dry_runs_fork_and_none_outlive_the_run(
    tmp_path, monkeypatch
):
    """Under --jobs 2 the per-file stage forks its workers before any document is loaded,
    the dry runs theirs once the corpus is built (they inherit it): no worker is left when
    the run ends, and the output is --jobs 1's."""
    import multiprocessing

    from si_lint.pipeline import forkmap, perfile

    root = tmp_path / "corpus"
    _generate(root, 60)
    ref = _out(root)
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    pools = []
    real_pool = forkmap.fork_pool
    monkeypatch.setattr(forkmap, "fork_pool", lambda jobs: pools.append(jobs) or real_pool(jobs))
    assert _out(root, jobs="2") == ref
    assert pools == [2, 2]  # the per-file stage's, then the dry runs'
    assert multiprocessing.active_children() == []


def _clock_ahead(monkeypatch) -> None:
    """The stat index's clock past its racy window: every file counts as old enough."""
    import time as real

    from si_lint.cache import statindex

    class Ahead:
        @staticmethod
        def time_ns() -> int:
            return real.time_ns() + statindex.RACY_NS + 10**9

    monkeypatch.setattr(statindex, "time", Ahead)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_file_is_read_once_and_a_warm_run_runs_no_check(tmp_path, monkeypatch, jobs):
    """Every run reads and hashes each file once (the per-file stage checks those bytes),
    but for the files the stat index answers for (unchanged since a run at least 2 s after
    they were written), which are not read at all; a warm run takes every answer from the
    cache: no file check, no corpus check, no
    scenario's dry run, no graph."""
    import importlib

    from si_lint.graph import builder as graph
    from si_lint.pipeline import forkmap, perfile

    read = importlib.import_module("si_lint.pipeline.read")  # the package exports a `read`
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    root = tmp_path / "corpus"
    _generate(root, 60)
    ref = _out(root)
    files = sorted(str(p) for p in root.rglob("*") if p.is_file() and p.suffix != ".toml")
    reads = []
    real = read.read_file
    monkeypatch.setattr(read, "read_file", lambda p, **kw: reads.append(p) or real(p, **kw))
    cache = tmp_path / "cache"
    assert _out(root, cache=cache, jobs=jobs) == ref
    assert sorted(reads) == files
    reads.clear()

    def ran(*args):
        raise AssertionError("a check ran on a warm run")

    monkeypatch.setattr(perfile, "file_diags", ran)
    monkeypatch.setattr(importlib.import_module("si_lint.pipeline.corpus"), "corpus_diags", ran)
    # the dry-run stage asks each scenario's dry run for its answer (Context.map): none runs
    monkeypatch.setattr(importlib.import_module("si_lint.checks.dryrun"), "_scenario_dry_run", ran)
    monkeypatch.setattr(graph, "build_ref_graph", ran)
    assert _out(root, cache=cache, jobs=jobs) == ref
    assert sorted(reads) == files  # all written just now: the stat index answers for none
    # once the files are older than the stat index's racy window, it answers for each
    reads.clear()
    _clock_ahead(monkeypatch)
    assert _out(root, cache=cache, jobs=jobs) == ref  # read, hashed and indexed
    assert sorted(reads) == files
    reads.clear()
    assert (_out(root, cache=cache, jobs=jobs), reads) == (ref, [])


def test_a_run_is_serial_by_default_and_pooled_from_pool_files(tmp_path, monkeypatch):
    """Issue 43: with no --jobs a run forks no process below ``forkmap.POOL_FILES`` files;
    from there it takes the machine's cores, as --jobs N always does (same output)."""
    from si_lint.pipeline import forkmap, perfile

    root = tmp_path / "corpus"
    _generate(root, 60)
    ref = _out(root)
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pools = []
    real_pool = forkmap.fork_pool
    monkeypatch.setattr(
        forkmap, "fork_pool", lambda *a, **k: pools.append(a[0]) or real_pool(*a, **k)
    )
    code, out, _err = run_cli(["check", "--format", "json", "--no-cache"], root)
    assert ((code, out), pools) == (ref, [])
    monkeypatch.setattr(forkmap, "POOL_FILES", 50)  # the corpus: 59 files and si-lint.toml
    code, out, _err = run_cli(["check", "--format", "json", "--no-cache"], root)
    assert ((code, out), pools) == (ref, [2, 2])  # the per-file stage's, the dry runs'
