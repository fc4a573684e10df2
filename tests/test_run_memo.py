"""The run memo (si_lint.pipeline.memo): an unchanged re-check is answered from the last
run's findings after a ``stat`` of every path that run depended on -- and any change to a
file, a directory's entries, a ``.gitignore``, the configuration or the profile documents
is seen. Outputs are compared whole with a run without any cache."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from conftest import REPO, age, run_cli


def _out(root, *args, cache=None, fmt="json"):
    cache_args = ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    code, out, err = run_cli(["check", "--format", fmt, "--jobs", "1", *cache_args, *args], root)
    assert code in (0, 1), (out, err)
    return code, out


@pytest.fixture
def corpus(example_copy):
    return example_copy


@pytest.fixture
def no_selection(monkeypatch):
    """Make any run that walks the corpus fail: only the memo can answer."""
    import importlib

    select = importlib.import_module("si_lint.pipeline.select")  # the package exports `select`

    def walked(*_a, **_k):
        raise AssertionError("the corpus was walked: the memo did not answer")

    def arm():
        monkeypatch.setattr(select, "make_selection", walked)

    return arm


def test_an_unchanged_re_check_is_answered_by_the_memo(corpus, tmp_path, no_selection):
    cache = tmp_path / "cache"
    # JUnit and SARIF read the corpus (reporters declare it): never answered by a memo
    formats = ("json", "text", "github", "gitlab")
    for fmt in formats:
        _out(corpus, cache=cache, fmt=fmt)  # the full run writes the memo
    refs = {fmt: _out(corpus, fmt=fmt) for fmt in formats}
    memo = json.loads((cache / "memo.json").read_bytes().rsplit(b"\n#mac ", 1)[0])
    assert memo["magic"] == "si-lint-memo/1"
    assert str(corpus / "scenarios") in memo["deps"]  # a walked directory
    no_selection()
    for fmt, ref in refs.items():
        assert _out(corpus, cache=cache, fmt=fmt) == ref, fmt
        assert _out(corpus, ".", cache=cache, fmt=fmt) == ref, fmt


def test_a_staged_file_is_answered_from_the_whole_run(corpus, tmp_path, no_selection):
    cache = tmp_path / "cache"
    staged = "scenarios/" + sorted(os.listdir(corpus / "scenarios"))[0]
    ref = _out(corpus, staged)
    verbose = run_cli(["check", "--no-cache", "--verbose", staged], corpus)
    _out(corpus, cache=cache)
    no_selection()
    assert _out(corpus, staged, cache=cache) == ref
    with pytest.raises(AssertionError, match="walked"):  # --verbose notes need the selection
        assert run_cli(["check", "--cache-dir", str(cache), "--verbose", staged], corpus) == verbose


def _edit_cases(root):
    """(name, edit of the corpus) -- each one changes what a check reports."""
    scenario = sorted((root / "scenarios").glob("*.yaml"))[0]

    def new_file():
        (root / "scenarios" / "sub").mkdir()
        (root / "scenarios" / "sub" / "broken.yaml").write_text("id: [unclosed\n")

    def same_size_same_mtime():
        st = scenario.stat()
        text = scenario.read_text()
        i = text.index("id:")
        j = text.index("\n", i)
        line = text[i:j]
        swapped = line[:-1] + ("x" if line[-1] != "x" else "y")
        scenario.write_text(text[:i] + swapped + text[j:])
        os.utime(scenario, ns=(st.st_atime_ns, st.st_mtime_ns))

    def new_sibling():  # a directory already walked gets an entry: its mtime changes
        (root / "scenarios" / "broken.yaml").write_text("id: [unclosed\n")

    def removed():
        sorted((root / "fixtures").rglob("*.yaml"))[0].unlink()

    def gitignored():
        (root / ".gitignore").write_text("fixtures/\n")

    def configured():  # the per-file ignore of the Form A scenario's SI115 goes
        cfg = root / "si-lint.toml"
        cfg.write_text("\n".join(ln for ln in cfg.read_text().splitlines() if "per-file" not in ln))

    return [
        ("a new file in a new directory", new_file),
        ("a new file beside the others", new_sibling),
        ("same size, same mtime", same_size_same_mtime),
        ("a fixture removed", removed),
        ("a .gitignore appears", gitignored),
        ("the configuration changed", configured),
    ]


@pytest.mark.parametrize("case", range(6))
def test_any_change_is_seen(tmp_path, case, monkeypatch):
    from si_lint import statcache

    monkeypatch.setattr(statcache, "RACY_NS", 0)  # trust entries written just now: the edit is seen
    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    (root / ".git").mkdir()  # a work tree, so .gitignore files count
    cache = tmp_path / "cache"
    before = _out(root, cache=cache)
    name, edit = _edit_cases(root)[case]
    edit()
    after = _out(root)
    assert after != before, f"{name}: the edit changes nothing, the case tests nothing"
    assert _out(root, cache=cache) == after, name


def test_a_file_edited_in_place_reuses_the_walk(corpus, tmp_path, no_selection, monkeypatch):
    """Only a file's content changed (no directory listing, no .gitignore): the run reads
    and checks again, but takes the files to read from the memo instead of walking."""
    from si_lint import statcache

    monkeypatch.setattr(statcache, "RACY_NS", 0)
    cache = tmp_path / "cache"
    before = _out(corpus, cache=cache)
    scenario = sorted((corpus / "scenarios").glob("*.yaml"))[0]
    text = scenario.read_text()
    scenario.write_text(text.replace("id:", "id: [unclosed\nx:", 1))
    after = _out(corpus)
    no_selection()
    assert after != before, "the edit must change the findings"
    assert _out(corpus, cache=cache) == after


def test_a_run_after_an_edit_in_place_stats_each_path_once(corpus, tmp_path, monkeypatch):
    """The check that finds the memo changed goes on to the end and keeps what it stat'ed
    (``statcache.taken``): the walk's directories and the read stage's files take those
    ``stat`` results instead of new ones. The output is --no-cache's."""
    import collections
    import sys

    from si_lint import statcache

    monkeypatch.setattr(statcache, "RACY_NS", 0)  # trust entries written just now
    cache = tmp_path / "cache"
    _out(corpus, cache=cache)
    scenario = sorted((corpus / "scenarios").glob("*.yaml"))[-1]
    scenario.write_text(scenario.read_text() + "# edited\n")
    after = _out(corpus)
    calls: collections.Counter = collections.Counter()
    real = os.stat
    checkers = ("si_lint.statcache", "si_lint.pipeline.read")

    def counted(path, *args, **kwargs):
        if sys._getframe(1).f_globals.get("__name__") in checkers:
            calls[os.fspath(path)] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counted)
    assert _out(corpus, cache=cache) == after
    walked = {os.path.join(d, n) for d, dirs, files in os.walk(corpus) for n in (*dirs, *files)}
    assert {p: n for p, n in calls.items() if n > 1} == {}
    corpus_files = {str(p) for p in corpus.rglob("*.yaml")}
    assert corpus_files <= set(calls) and str(corpus / "scenarios") in calls
    assert set(calls) & walked >= corpus_files


def test_a_reused_walk_is_not_written_again(corpus, tmp_path, monkeypatch):
    """The memo names its walk by id: a run that reuses the walk writes a new memo naming
    the same walk and leaves walk.json as it was (a run that walked would write a walk of
    a new id); the run after it still reuses it."""
    from si_lint import statcache

    monkeypatch.setattr(statcache, "RACY_NS", 0)
    cache = tmp_path / "cache"
    _out(corpus, cache=cache)
    walk_bytes = (cache / "walk.json").read_bytes()
    walk = json.loads(walk_bytes.rsplit(b"\n#mac ", 1)[0])
    scenarios = sorted((corpus / "scenarios").glob("*.yaml"))
    for n, scenario in enumerate(scenarios[:2]):  # two edits in place, two runs
        scenario.write_text(scenario.read_text() + f"# edit {n}\n")
        assert _out(corpus, cache=cache) == _out(corpus)
        memo = json.loads((cache / "memo.json").read_bytes().rsplit(b"\n#mac ", 1)[0])
        assert memo["walk"] == walk["id"]
        assert (cache / "walk.json").read_bytes() == walk_bytes


def test_a_commit_in_the_work_tree_keeps_the_memo(corpus, tmp_path, no_selection):
    """Every `git add` or commit changes the mtime of `.git` (git writes its index there):
    only whether `.git` exists decides the work tree, so the memo still answers."""
    (corpus / ".git").mkdir()
    age(corpus)
    cache = tmp_path / "cache"
    ref = _out(corpus, cache=cache)
    (corpus / ".git" / "index").write_text("changed")  # the directory's mtime is now
    no_selection()
    assert _out(corpus, cache=cache) == ref


@pytest.mark.parametrize(
    "bad",
    [b"not json", b"[]", b'{"magic": "si-lint-memo/1"}', "signed-lie"],
)
def test_a_bad_memo_is_ignored(corpus, tmp_path, bad):
    from si_lint.cache.signed import MAC_SEP, mac

    cache = tmp_path / "cache"
    ref = _out(corpus)
    _out(corpus, cache=cache)
    path = cache / "memo.json"
    if bad == "signed-lie":  # a signed memo whose findings are not findings
        memo = json.loads(path.read_bytes().rsplit(MAC_SEP, 1)[0])
        memo["result"][0] = [{"code": 1}]
        body = json.dumps(memo).encode()
        bad = body + MAC_SEP + mac(body) + b"\n"
    path.write_bytes(bad)
    assert _out(corpus, cache=cache) == ref


def test_a_memo_answer_parses_no_toml(corpus, tmp_path, no_selection, monkeypatch):
    """The memo's key holds the configuration file's digest and the memo its table: an
    answer reads ``si-lint.toml`` but does not parse it (nor import tomllib)."""
    from si_lint import root as config

    cache = tmp_path / "cache"
    staged = "scenarios/" + sorted(os.listdir(corpus / "scenarios"))[0]
    refs = [_out(corpus), _out(corpus, staged)]
    _out(corpus, cache=cache)
    no_selection()

    def parsed(*_a, **_k):
        raise AssertionError("si-lint.toml was parsed: the memo did not answer from its table")

    monkeypatch.setattr(config, "_parse_toml", parsed)
    assert [_out(corpus, cache=cache), _out(corpus, staged, cache=cache)] == refs


def test_the_same_table_in_other_bytes_is_a_miss(corpus, tmp_path, monkeypatch):
    """A comment added to ``si-lint.toml``: other bytes, another key -- the run is not
    answered by the old memo, and reports what a run without any cache reports."""
    from si_lint import root as config

    cache = tmp_path / "cache"
    ref = _out(corpus)
    _out(corpus, cache=cache)
    cfg = corpus / "si-lint.toml"
    cfg.write_text(cfg.read_text() + "# a comment\n")
    age(corpus)
    calls = []
    real = config._parse_toml
    monkeypatch.setattr(config, "_parse_toml", lambda *a: calls.append(a) or real(*a))
    assert _out(corpus, cache=cache) == ref
    assert [str(path) for path, _raw in calls] == [str(cfg)]


@pytest.mark.parametrize(
    "table, kept",
    [
        ({"select": ["SI1"], "per-file-ignores": {"a/*.yaml": ["SI115"]}, "x": 1.5}, True),
        ({"when": __import__("datetime").date(2026, 12, 1)}, False),  # TOML dates
        ({"x": float("nan")}, False),
        ({"x": [float("inf")]}, False),
        (None, False),
    ],
)
def test_the_memo_keeps_a_table_json_gives_back(table, kept):
    from si_lint.pipeline import memo

    assert memo._plain_table(table) == (table if kept else None)


def test_a_lazy_root_parses_the_bytes_it_digested(corpus):
    """``Root.parsed`` parses the bytes ``find_root_info`` read and digested, not the file
    as it is later: the memo never pairs one file's digest with another's table."""
    from si_lint.root import find_root_info

    cfg = corpus / "si-lint.toml"
    root = find_root_info(corpus, lazy=True)
    assert root.table is None and root.source == cfg
    eager = find_root_info(corpus)
    cfg.write_text('select = ["SI1"]\n')
    assert root.parsed() == eager
    assert root.parsed().digest == eager.digest != find_root_info(corpus).digest


def test_dependencies_found_changed_are_not_stat_again(tmp_path, monkeypatch):
    """The replay check and the recall stage ask about the same run memo: once its
    dependencies are found changed, the second asking stats nothing; other dependencies
    are checked as ever."""
    import os as os_module
    import time as time_module

    from si_lint import statcache

    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    os_module.utime(path, (time_module.time() - 60,) * 2)
    deps = {str(path): statcache.stat_of(str(path))}
    now = time_module.time_ns()
    assert statcache.unchanged(deps, now)
    path.write_text("a: 22\n")
    assert not statcache.unchanged(deps, now)
    stats = []
    real = os_module.stat
    monkeypatch.setattr(statcache.os, "stat", lambda *a, **k: stats.append(a) or real(*a, **k))
    assert not statcache.unchanged(deps, now) and stats == []
    os_module.utime(path, (time_module.time() - 60,) * 2)
    other = {str(path): statcache.stat_of(str(path))}
    assert statcache.unchanged(other, now) and stats
