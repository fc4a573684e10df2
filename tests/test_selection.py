"""SPEC §9 "Corpus root" and "Which files" (issue 11 items 3, 4, 7)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from conftest import run_cli, si_lint_process, write_files

from si_lint.config import load_config
from si_lint.discovery import discover
from si_lint.root import find_root_info

DUP = "title: t\nowner: a\nowner: b\n"


def _rels(sel, root: Path) -> list[str]:
    return [os.path.relpath(p, root) for p in sel.files]


def _check(cwd: Path, *args: str):
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", "--verbose", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return [
        (d["code"], d["path"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]
    ], err


# ----------------------------------------------------------------------------- root


def test_root_is_the_nearest_configured_ancestor_of_cwd(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", "a/b/x.yaml": "a: 1\n"})
    info = find_root_info(tmp_path / "a" / "b")
    assert (info.path, info.source, info.how) == (tmp_path, tmp_path / "si-lint.toml", "config")


def test_pyproject_without_the_table_is_not_a_config(tmp_path):
    write_files(tmp_path, {"pyproject.toml": "[tool.other]\nx = 1\n", "d/x.yaml": "a: 1\n"})
    info = find_root_info(tmp_path / "d")
    assert info.how == "dir" and info.path == tmp_path / "d"


def test_root_from_the_first_named_path(tmp_path):
    write_files(
        tmp_path,
        {
            "corpus/pyproject.toml": "[tool.si-lint]\n",
            "corpus/s/x.yaml": "a: 1\n",
            "work/.keep": "",
        },
    )
    info = find_root_info(tmp_path / "work", [tmp_path / "corpus" / "s" / "x.yaml"])
    assert (info.path, info.how) == (tmp_path / "corpus", "config")


def test_root_is_the_git_work_tree_top(tmp_path):
    (tmp_path / ".git").mkdir()
    write_files(tmp_path, {"sub/deeper/x.yaml": "a: 1\n"})
    info = find_root_info(tmp_path / "sub" / "deeper")
    assert (info.path, info.how) == (tmp_path, "git")


def test_config_file_wins(tmp_path):
    write_files(tmp_path, {"si-lint.toml": "", "elsewhere/si-lint.toml": 'ignore = ["SI002"]\n'})
    info = find_root_info(tmp_path, [], tmp_path / "elsewhere" / "si-lint.toml")
    assert (info.path, info.how, info.table) == (
        tmp_path / "elsewhere",
        "config",
        {"ignore": ["SI002"]},
    )


def test_one_file_reads_its_directory_never_the_parents_or_the_cwd(tmp_path):
    """No config, no work tree: a named file's directory is its root — never its parents,
    never the current directory (issue 11 item 4: from /tmp, one file crawled all of /tmp)."""
    big = tmp_path / "big"
    write_files(tmp_path, {"dup-parent.yaml": DUP, "other/dup.yaml": DUP})
    write_files(big, {"x.yaml": "id: s\n", "sibling.yaml": DUP, "sub/deep.yaml": DUP})
    got, err = _check(tmp_path, "big/x.yaml")
    assert got == []
    assert "corpus root: big (file)" in err
    cfg = load_config(tmp_path, [big / "x.yaml"])
    assert (cfg.root, cfg.root_how) == (big, "file")
    assert _rels(discover(cfg.root, cfg, tmp_path), big) == [
        "sibling.yaml",
        "sub/deep.yaml",
        "x.yaml",
    ]
    assert not (tmp_path / ".si-lint-cache").exists()


# ----------------------------------------------------------------------------- which files


def test_include_exclude_and_gitignore(tmp_path):
    write_files(
        tmp_path,
        {
            "si-lint.toml": 'include = ["scenarios/**/*.yaml", "*.json"]\nexclude = ["drafts/", "*.tmp.yaml"]\n',
            "scenarios/a.yaml": "a: 1\n",
            "scenarios/x/b.tmp.yaml": "a: 1\n",
            "scenarios/drafts/c.yaml": "a: 1\n",
            "scenarios/gen/d.yaml": "a: 1\n",
            "scenarios/gen/keep.yaml": "a: 1\n",
            "scenarios/.gitignore": "gen/*\n!gen/keep.yaml\n",
            "helm/chart.yaml": "a: 1\n",
            "top.json": "{}",
            "deep/tsconfig.json": "{}",
            ".gitignore": "ignored.json\nbuild/\n",
            "ignored.json": "{}",
            "build/x.json": "{}",
        },
    )
    cfg = load_config(tmp_path)
    assert _rels(discover(tmp_path, cfg, tmp_path), tmp_path) == [
        "deep/tsconfig.json",
        "scenarios/a.yaml",
        "scenarios/gen/keep.yaml",
        "top.json",
    ]


def test_star_does_not_cross_a_slash(tmp_path):
    write_files(
        tmp_path, {"si-lint.toml": 'include = ["s/*.yaml"]\n', "s/a.yaml": "", "s/t/b.yaml": ""}
    )
    cfg = load_config(tmp_path)
    assert _rels(discover(tmp_path, cfg, tmp_path), tmp_path) == ["s/a.yaml"]


def test_a_named_file_the_configuration_excludes_is_skipped(tmp_path):
    write_files(
        tmp_path,
        {
            "si-lint.toml": 'exclude = ["drafts/"]\n',
            "drafts/a.yaml": DUP,
            "README.md": "x",
            "ok.yaml": DUP,
        },
    )
    got, err = _check(tmp_path, "drafts/a.yaml", "README.md", "ok.yaml")
    assert got == [("SI002", "ok.yaml", 3, 1)]
    assert "skipped drafts/a.yaml: excluded by the configuration (include/exclude)" in err
    assert "skipped README.md: excluded by the configuration (include/exclude)" in err


def test_bad_pattern_is_a_config_error(tmp_path):
    write_files(tmp_path, {"si-lint.toml": 'include = ["a/**/***/["]\n', "a.yaml": ""})
    code, out, err = run_cli(["check", "--no-cache"], tmp_path)
    assert code in (0, 2)  # pathspec accepts most patterns; a refused one is a config error
    assert "internal error" not in err


def test_pathspec_is_imported_only_where_a_pattern_is_matched(tmp_path, user_env):
    """The default ``include`` and no ``exclude`` or ``.gitignore``: the walk selects by
    name and never imports pathspec (17 ms); a pattern of the user's is compiled, and a
    refused one is still the configuration error it was."""
    write_files(tmp_path / "plain", {"si-lint.toml": "", "a.yaml": DUP})
    write_files(tmp_path / "excl", {"si-lint.toml": 'exclude = ["drafts/"]\n', "a.yaml": DUP})
    write_files(tmp_path / "git", {"si-lint.toml": "", ".gitignore": "b.yaml\n", "a.yaml": DUP})
    args = ("check", "--no-cache", "--format", "json")
    code, out, _err, imported = si_lint_process(tmp_path / "plain", user_env, *args)
    assert code == 1 and '"code": "SI002"' in out  # the walk selected a.yaml and checked it
    assert "si_lint.discovery" in imported and "pathspec" not in imported
    assert "pathspec" in si_lint_process(tmp_path / "excl", user_env, *args)[3]
    assert "pathspec" in si_lint_process(tmp_path / "git", user_env, *args)[3]
    write_files(tmp_path / "bad", {"si-lint.toml": 'exclude = ["a/**/***/["]\n', "a.yaml": ""})
    code, _out, err = run_cli(["check", "--no-cache"], tmp_path / "bad")
    assert code in (0, 2) and "internal error" not in err


# ----------------------------------------------------------------------------- links and special files


def test_links_that_leave_the_root_are_never_read_or_printed(tmp_path):
    outside = tmp_path / "outside"
    write_files(outside, {"secrets.yaml": "DB_PASSWORD: hunter2\nDB_PASSWORD: hunter3\n"})
    root = tmp_path / "corpus"
    write_files(root, {"si-lint.toml": "", "real.yaml": DUP})
    os.symlink(outside / "secrets.yaml", root / "leak.yaml")
    os.symlink("real.yaml", root / "alias.yaml")  # inside the root: followed
    os.symlink(outside, root / "linkdir")  # a linked directory is never entered
    for fmt in ("text", "json", "sarif", "junit", "github"):
        code, out, err = run_cli(["check", "--no-cache", "--verbose", "--format", fmt], root)
        assert code == 1, err
        assert "hunter" not in out + err
        assert "leak.yaml: a symbolic link to a file outside the corpus root; not read" in err
    got, _ = _check(root)
    assert got == [("SI002", "alias.yaml", 3, 1), ("SI002", "real.yaml", 3, 1)]
    # named explicitly: still never read
    code, out, err = run_cli(["check", "--no-cache", "--verbose", "leak.yaml"], root)
    assert code == 0 and "hunter" not in out + err and "skipped leak.yaml" in err


def test_fifo_socket_and_devices_are_never_opened(tmp_path):
    write_files(tmp_path, {"ok.yaml": DUP})
    os.mkfifo(tmp_path / "fifo.yaml")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock.yaml"))
        os.symlink("/dev/zero", tmp_path / "zero.yaml")
        os.symlink("fifo.yaml", tmp_path / "tofifo.yaml")
        got, err = _check(tmp_path)
    finally:
        sock.close()
    assert got == [("SI002", "ok.yaml", 3, 1)]
    assert "skipped fifo.yaml: a FIFO, not a regular file; never opened" in err
    assert "skipped sock.yaml: a socket, not a regular file; never opened" in err
    assert "skipped zero.yaml: a symbolic link to a file outside the corpus root; not read" in err
    assert "skipped tofifo.yaml: a symbolic link to a FIFO; not read" in err


def test_named_fifo_to_eval_and_eio_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "ev.yaml")
    write_files(
        tmp_path, {"s.yaml": "id: x\nclassification: {}\nscoring: {}\n", "m.yaml": "eio: {}\n"}
    )
    for args in (
        ["eval", "s.yaml", "ev.yaml"],
        ["eio", "m.yaml", "ev.yaml"],
        ["eval", "ev.yaml", "s.yaml"],
    ):
        code, out, err = run_cli(args, tmp_path)
        assert code in (0, 1, 2), (args, code, out, err)
        assert "internal error" not in out + err


def test_the_walk_by_name_selects_what_the_long_way_selects(tmp_path, monkeypatch):
    """The default ``include`` with no ``exclude`` and no ``.gitignore`` in force selects a
    regular file by its name alone (``Config.name_decides``); everything else takes the long
    way. Both give the same selection, problems and notes."""
    write_files(
        tmp_path,
        {
            "si-lint.toml": "",
            "a.yaml": "a: 1\n",
            "b.yml": "a: 1\n",
            "c.json": "{}\n",
            "notes.txt": "x\n",
            "d.yaml/e.yaml": "a: 1\n",  # a directory named like a file
            "g/.gitignore": "skip.yaml\n",
            "g/skip.yaml": "a: 1\n",
            "g/keep.yaml": "a: 1\n",
        },
    )
    os.mkfifo(tmp_path / "fifo.yaml")
    os.symlink("a.yaml", tmp_path / "alias.yaml")
    os.symlink("missing.yaml", tmp_path / "dangling.yaml")
    (tmp_path / os.fsdecode(b"bad\xff.yaml")).write_text("a: 1\n")
    config = load_config(tmp_path)

    def walk():
        sel = discover(tmp_path, config, tmp_path)
        return _rels(sel, tmp_path), sorted(map(str, sel.problems)), sorted(sel.notes)

    assert config.name_decides()
    fast = walk()
    monkeypatch.setattr(type(config), "name_decides", lambda self: False)  # the long way
    assert walk() == fast
    assert config.name_decides() is False  # (the patch took: the long way was walked)
    assert fast[0] == ["a.yaml", "alias.yaml", "b.yml", "c.json", "d.yaml/e.yaml", "g/keep.yaml"]
