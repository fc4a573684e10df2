"""The pipeline around the checks: configuration, selection, suppressions, subsets,
the cache, --jobs, exit statuses and hostile files."""

from __future__ import annotations

import dataclasses
import json
import os
import time

import pytest
from conftest import check_json, diag_tuples, run_cli, write_files

NOTES_DUP = "title: relay notes\nowner: a\nowner: b\n"


def test_select_and_ignore_by_prefix(tmp_path):
    write_files(tmp_path, {"n.yaml": NOTES_DUP, "t.yaml": "a: !!python/name:os.system x\n"})
    _, rep = check_json(tmp_path)
    assert diag_tuples(rep) == [("SI002", "n.yaml", 3, 1), ("SI007", "t.yaml", 1, 4)]
    _, rep = check_json(tmp_path, "--select", "SI00", "--ignore", "SI002")
    assert diag_tuples(rep) == [("SI007", "t.yaml", 1, 4)]
    # the longest matching prefix decides: ignore SI0, but select SI007 explicitly
    write_files(tmp_path, {"si-lint.toml": 'ignore = ["SI0"]\nselect = ["SI007", "SI"]\n'})
    _, rep = check_json(tmp_path)
    assert diag_tuples(rep) == [("SI007", "t.yaml", 1, 4)]


def test_per_file_ignores_and_exclude(tmp_path):
    write_files(
        tmp_path,
        {
            "si-lint.toml": '[per-file-ignores]\n"legacy/*.yaml" = ["SI002"]\n',
            "legacy/n.yaml": NOTES_DUP,
            "new/n.yaml": NOTES_DUP,
            "drafts/n.yaml": NOTES_DUP,
        },
    )
    _, rep = check_json(tmp_path)
    assert diag_tuples(rep) == [("SI002", "drafts/n.yaml", 3, 1), ("SI002", "new/n.yaml", 3, 1)]
    write_files(
        tmp_path,
        {"si-lint.toml": 'exclude = ["drafts"]\n[per-file-ignores]\n"legacy/*.yaml" = ["SI002"]\n'},
    )
    _, rep = check_json(tmp_path)
    assert diag_tuples(rep) == [("SI002", "new/n.yaml", 3, 1)]


def test_config_in_pyproject(tmp_path):
    write_files(
        tmp_path, {"pyproject.toml": '[tool.si-lint]\nignore = ["SI002"]\n', "n.yaml": NOTES_DUP}
    )
    code, rep = check_json(tmp_path)
    assert code == 0 and diag_tuples(rep) == []


@pytest.mark.parametrize(
    "config",
    [
        'ignore = "SI002"\n',
        "nonsense = 1\n",
        "ignore = [\n",
        'profile = "nowhere"\n',
        "require-fixtures = 1\n",
    ],
)
def test_bad_config_is_exit_2(tmp_path, config):
    write_files(tmp_path, {"si-lint.toml": config, "n.yaml": "a: 1\n"})
    code, out, err = run_cli(["check"], tmp_path)
    assert code == 2 and out == "" and "si-lint.toml" in err


def test_missing_path_is_exit_2_with_one_line(tmp_path):
    code, out, err = run_cli(["check", "nope.yaml"], tmp_path)
    assert (code, out, err) == (2, "", "si-lint: nope.yaml: no such file or directory\n")


def test_suppressions(tmp_path):
    write_files(
        tmp_path,
        {
            "a.yaml": "x: 1\nx: 2  # si-lint: disable=SI002\n",
            "b.yaml": "x: 1\n# si-lint: disable=SI0\nx: 2\n",
            "c.yaml": "# si-lint: disable-file=SI002\nx: 1\nx: 2\ny: 1\ny: 2\n",
            "d.yaml": "x: 1  # si-lint: disable=SI002,SI007\nx: 2\n",
        },
    )
    _, rep = check_json(tmp_path)
    assert diag_tuples(rep) == [
        ("SI009", "d.yaml", 1, 7),
        ("SI002", "d.yaml", 2, 1),
    ]
    _, rep = check_json(tmp_path, "--ignore", "SI009")
    assert diag_tuples(rep) == [("SI002", "d.yaml", 2, 1)]


def test_exit_status_and_fail_on(tmp_path):
    write_files(tmp_path, {"a.yaml": "x: 1  # si-lint: disable=SI002\n"})  # SI009 is a warning
    assert run_cli(["check"], tmp_path)[0] == 0
    assert run_cli(["check", "--fail-on", "warning"], tmp_path)[0] == 1
    write_files(tmp_path, {"b.yaml": NOTES_DUP})
    assert run_cli(["check"], tmp_path)[0] == 1
    assert run_cli(["check", "--exit-zero"], tmp_path)[0] == 0


def test_text_format_has_source_caret_and_help(tmp_path):
    write_files(tmp_path, {"n.yaml": NOTES_DUP})
    code, out, _ = run_cli(["check", "--no-cache"], tmp_path)
    assert out.splitlines()[:4] == [
        "n.yaml:3:1: SI002 [error] duplicate mapping key 'owner' (first at line 2, column 1)",
        " 3 | owner: b",
        "   | ^",
        "  help: remove one of the two keys; YAML readers disagree on which wins",
    ]


def test_statistics(tmp_path):
    write_files(tmp_path, {"n.yaml": NOTES_DUP, "m.yaml": NOTES_DUP})
    code, out, _ = run_cli(["check", "--statistics", "--no-cache"], tmp_path)
    assert out.splitlines()[0].split() == ["2", "SI002", "duplicate-key"]


def test_named_file_is_reported_alone(tmp_path):
    write_files(tmp_path, {"a.yaml": NOTES_DUP, "b.yaml": NOTES_DUP})
    _, rep = check_json(tmp_path, "b.yaml")
    assert diag_tuples(rep) == [("SI002", "b.yaml", 3, 1)] and rep["summary"]["files"] == 1


def _corpus_files(n: int) -> dict:
    files = {}
    for i in range(n):
        body = NOTES_DUP if i % 7 == 0 else f"title: note {i}\nitems: [{i}, {i + 1}]\n"
        if i % 11 == 0:
            body += "bad: !!python/none x\n"
        files[f"d{i % 5}/n{i:04d}.yaml"] = body
    return files


def test_jobs_and_cache_do_not_change_the_output(tmp_path):
    write_files(tmp_path, _corpus_files(260))
    outs = []
    for args in (
        ["--no-cache", "--jobs", "1"],
        ["--no-cache", "--jobs", "2"],
        ["--jobs", "2"],
        ["--jobs", "1"],
    ):
        code, out, err = run_cli(["check", "--format", "json", *args], tmp_path)
        assert code == 1, err
        outs.append(out)
    assert outs[0] == outs[1] == outs[2] == outs[3]
    assert (tmp_path / ".si-lint-cache" / "results.json").is_file()


def test_cache_follows_content_and_survives_corruption(tmp_path):
    write_files(tmp_path, {"a.yaml": NOTES_DUP})
    code, out, _ = run_cli(["check", "--format", "json"], tmp_path)
    assert diag_tuples(json.loads(out)) == [("SI002", "a.yaml", 3, 1)]
    write_files(tmp_path, {"a.yaml": "title: fixed\n"})
    code, out, _ = run_cli(["check", "--format", "json"], tmp_path)
    assert code == 0 and diag_tuples(json.loads(out)) == []
    caches = [tmp_path / ".si-lint-cache" / "results.json"]
    for garbage in (b"", b"\x80\x04garbage", b"cos\nsystem\n(S'echo pwned'\ntR."):
        for cache in caches:
            cache.write_bytes(garbage)
        write_files(tmp_path, {"a.yaml": NOTES_DUP})
        code, out, _ = run_cli(["check", "--format", "json"], tmp_path)
        assert diag_tuples(json.loads(out)) == [("SI002", "a.yaml", 3, 1)]
        assert all(cache.read_bytes().startswith(b'{"header"') for cache in caches)  # rebuilt


def test_cache_dir_option_and_env(tmp_path, monkeypatch):
    write_files(tmp_path, {"a.yaml": "a: 1\n"})
    run_cli(["check", "--cache-dir", "elsewhere"], tmp_path)
    assert (tmp_path / "elsewhere" / "results.json").is_file()
    monkeypatch.setenv("SI_LINT_CACHE_DIR", str(tmp_path / "env-cache"))
    run_cli(["check"], tmp_path)
    assert (tmp_path / "env-cache" / "results.json").is_file()
    assert not (tmp_path / ".si-lint-cache").exists()


# ---- hostile input ----------------------------------------------------------------------


def test_hostile_files_are_findings_fast(tmp_path):
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ",".join(f"*l{i - 1}" for _ in range(9)) + "]")
    write_files(
        tmp_path,
        {
            "bomb.yaml": "\n".join(lines) + "\n",
            "deep.yaml": "[" * 10_000 + "]" * 10_000,
            "nul.yaml": "a: 1\nb: \x00\n",
            "si-lint.toml": "",  # a configured root: every file is judged (SPEC §9)
        },
    )
    with open(tmp_path / "big.yaml", "wb") as fh:
        fh.write(b"a: ")
        fh.write(b"x" * (50 * 1024 * 1024))
    os.symlink("loop2.yaml", tmp_path / "loop1.yaml")
    os.symlink("loop1.yaml", tmp_path / "loop2.yaml")
    os.symlink("missing.yaml", tmp_path / "dangling.yaml")
    os.mkfifo(tmp_path / "fifo.yaml")
    os.symlink(".", tmp_path / "self")  # a directory loop: never followed
    start = time.perf_counter()
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", "--verbose"], tmp_path)
    elapsed = time.perf_counter() - start
    assert code == 1, err
    # a FIFO is not a regular file: skipped with a --verbose note, never opened (SPEC §9)
    assert "si-lint: skipped fifo.yaml: a FIFO, not a regular file; never opened\n" in err
    got = [(d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]]
    assert got == [
        ("SI005", "big.yaml", 1, 1),
        ("SI005", "bomb.yaml", 5, 10),
        ("SI001", "dangling.yaml", 1, 1),
        ("SI005", "deep.yaml", 1, 65),
        ("SI001", "loop1.yaml", 1, 1),
        ("SI001", "loop2.yaml", 1, 1),
        ("SI001", "nul.yaml", 2, 4),
    ]
    assert elapsed < 5.0


def test_an_unchanged_recheck_is_the_same_and_follows_any_change(tmp_path):
    write_files(tmp_path, {"a.yaml": NOTES_DUP, "b.yaml": "title: ok\n"})
    first = run_cli(["check", "--format", "json"], tmp_path)
    assert run_cli(["check", "--format", "json"], tmp_path) == first
    # another file's content, the named paths and the options are all part of the key
    write_files(tmp_path, {"b.yaml": "title: ok\ntitle: twice\n"})
    _, out, _ = run_cli(["check", "--format", "json"], tmp_path)
    assert diag_tuples(json.loads(out)) == [("SI002", "a.yaml", 3, 1), ("SI002", "b.yaml", 2, 1)]
    _, out, _ = run_cli(["check", "--format", "json", "b.yaml"], tmp_path)
    assert diag_tuples(json.loads(out)) == [("SI002", "b.yaml", 2, 1)]
    _, out, _ = run_cli(["check", "--format", "json", "--ignore", "SI002"], tmp_path)
    assert diag_tuples(json.loads(out)) == []


def test_cached_runs_are_served_from_the_cache(tmp_path, monkeypatch):
    """After one run, an edit to one file re-processes that file alone."""
    import si_lint.pipeline.perfile as perfile

    write_files(tmp_path, {f"n{i}.yaml": f"title: {i}\n" for i in range(5)})
    run_cli(["check"], tmp_path)
    write_files(tmp_path, {"n3.yaml": "title: 3\ntitle: again\n"})
    processed = []
    real = perfile._work

    def spy(i):
        processed.append(os.path.basename(perfile._WORKER["sources"][i].abspath))
        return real(i)

    monkeypatch.setattr(perfile, "_work", spy)
    code, out, _ = run_cli(["check", "--format", "json", "--jobs", "1"], tmp_path)
    assert processed == ["n3.yaml"]
    assert diag_tuples(json.loads(out)) == [("SI002", "n3.yaml", 2, 1)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_edited_after_it_was_read_is_cached_as_it_was_checked(tmp_path, monkeypatch, jobs):
    """The read stage reads and hashes each file once; the per-file stage checks those
    bytes (in a worker under --jobs) and the cache keeps the result under their hash. A
    file edited after it was read is checked as it was read; the next run checks it as
    it now is (the entry of the old bytes is not served for the new ones), and with the
    old content back, the findings are the old content's."""
    import si_lint.pipeline.perfile as perfile

    write_files(tmp_path, {f"n{i:03}.yaml": f"title: {i}\n" for i in range(210)})
    real = perfile._work

    def edit_then_work(i):
        source = perfile._WORKER["sources"][i]
        if source.abspath.endswith("n007.yaml"):
            with open(source.abspath, "w") as fh:
                fh.write("title: 7\ntitle: again\n")
        return real(i)

    monkeypatch.setattr(perfile, "_work", edit_then_work)
    _, out, _ = run_cli(["check", "--format", "json", "--jobs", jobs], tmp_path)
    assert diag_tuples(json.loads(out)) == []
    monkeypatch.setattr(perfile, "_work", real)
    _, out, _ = run_cli(["check", "--format", "json", "--jobs", jobs], tmp_path)
    assert diag_tuples(json.loads(out)) == [("SI002", "n007.yaml", 2, 1)]
    write_files(tmp_path, {"n007.yaml": "title: 7\n"})
    _, out, _ = run_cli(["check", "--format", "json", "--jobs", jobs], tmp_path)
    assert diag_tuples(json.loads(out)) == []


def test_suppression_text_inside_a_string_is_not_a_comment(tmp_path):
    write_files(
        tmp_path,
        {
            "a.yaml": (
                "doc: |\n"
                "  # si-lint: disable=SI002\n"
                "  write this comment on the offending line\n"
                'quoted: "# si-lint: disable-file=SI002"\n'
                "x: 1\n"
                "x: 2\n"
                "y: 'si-lint: quoted'  # si-lint: disable=SI007\n"
            ),
        },
    )
    _, rep = check_json(tmp_path)
    # the block scalar and the quoted string are data: they neither suppress SI002 nor
    # count as unused; the real comment on line 7 is unused (SI009)
    assert diag_tuples(rep) == [("SI002", "a.yaml", 6, 1), ("SI009", "a.yaml", 7, 23)]


def test_a_run_leaves_the_collector_as_it_found_it(example_corpus):
    """The per-file stage raises the gen-0 threshold while it loads; a run ends with it
    restored and nothing frozen."""
    import gc

    from si_lint.pipeline import Options, run

    before = gc.get_threshold()
    run(["."], Options(use_cache=False), cwd=example_corpus)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_run_collects_garbage_under_a_raised_threshold(monkeypatch):
    """Every si-lint process runs under one raised gen-0 threshold, set by ``cli.main``
    (loading documents and decoding cache entries allocate many containers and few
    cycles: at 40,000 files the default ran full collections, 1.2 s of a one-file-changed
    run); no stage changes it."""
    import gc

    from si_lint.cli import main

    before = gc.get_threshold()
    try:
        with pytest.raises(SystemExit):
            main(["--version"])
        assert gc.get_threshold()[0] == 200_000
    finally:
        gc.set_threshold(*before)


def test_file_checks_are_chosen_by_scope_and_kind_every_time():
    from si_lint.checks import all_checks
    from si_lint.registry import file_checks_for

    checks = all_checks()
    fixture = file_checks_for(checks, "fixture")
    assert fixture == [
        c for c in checks if c.scope == "file" and (c.kinds is None or "fixture" in c.kinds)
    ]
    scenario_only = next(c for c in checks if c.scope == "file" and c.kinds == ("scenario",))
    mutable = [c for c in checks if c.scope == "file"]
    assert scenario_only not in file_checks_for(mutable, "fixture")
    # the same list, changed in place (same length): its file checks are chosen again
    mutable[0] = dataclasses.replace(scenario_only, kinds=None)
    assert mutable[0] in file_checks_for(mutable, "fixture")
