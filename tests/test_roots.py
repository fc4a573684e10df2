"""SPEC §9 "Corpus root" (issue 42): roots found per named path, the OASIS profile root,
one file and stdin in a copy of the published corpus, the guessed root's one warning
line, skipped named paths counted, no crawl of ``/`` or a home directory, strict JSON
under a configured root."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import SHARED, run_cli, write_files

from si_lint.roots import plan_roots

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"
DUP = "title: t\nowner: a\nowner: b\n"


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """A copy of the published corpus: no configuration, no git."""
    if not PUBLISHED.is_dir():
        pytest.skip(f"the published corpus is not here ({PUBLISHED})")
    root = tmp_path_factory.mktemp("pub") / "software-infrastructure"
    shutil.copytree(PUBLISHED, root)
    return root


def _diags(cwd: Path, *args: str, stdin: bytes | None = None) -> tuple[int, list[dict], str]:
    from click.testing import CliRunner

    from si_lint.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        res = CliRunner().invoke(
            cli, ["check", "--no-cache", "--format", "json", *args], input=stdin
        )
    finally:
        os.chdir(old)
    assert res.exit_code in (0, 1), (res.exit_code, res.stdout, res.stderr)
    return res.exit_code, json.loads(res.stdout)["diagnostics"], res.stderr


def _of_file(diags: list[dict], rel: str) -> list[dict]:
    """The findings a run naming ``rel`` alone reports (SPEC §9: its primary or a related
    location is in the file)."""
    return [
        d for d in diags if d["path"] == rel or any(r["path"] == rel for r in d.get("related", ()))
    ]


def _rebase(diags: list[dict], prefix: str) -> list[dict]:
    """Paths of a run from the corpus root, as a run from its subdirectory ``prefix`` shows them."""
    out = []
    for d in diags:
        profile = os.path.relpath("profile.md", prefix)
        d = dict(
            d,
            path=os.path.relpath(d["path"], prefix),
            message=d["message"].replace(" in profile.md", f" in {profile}"),
        )
        if "related" in d:
            d["related"] = [dict(r, path=os.path.relpath(r["path"], prefix)) for r in d["related"]]
        out.append(d)
    return out


def test_one_file_of_the_published_corpus_gives_its_whole_run_findings(published):
    _code, whole, _err = _diags(published)
    files = sorted(
        p.relative_to(published).as_posix() for p in published.rglob("scenarios/**/*.yaml")
    )
    assert len(files) == 14
    for rel in files:
        code, got, err = _diags(published, rel)
        want = _of_file(whole, rel)
        assert (got, err) == (want, ""), rel
        assert code == (1 if any(d["severity"] == "error" for d in want) else 0)
    # from the file's own directory: the profile root is found above it
    sub = "scenarios/safety"
    for rel in ("boundary-enforcement.yaml", "data-exfiltration-prevention.yaml"):
        _code, got, err = _diags(published / sub, rel)
        assert (got, err) == (_rebase(_of_file(whole, f"{sub}/{rel}"), sub), ""), rel


def test_stdin_in_the_published_corpus_gives_the_files_findings(published):
    _code, whole, _err = _diags(published)
    for rel in (
        "scenarios/safety/boundary-enforcement.yaml",
        "scenarios/safety/data-exfiltration-prevention.yaml",
    ):
        raw = (published / rel).read_bytes()
        _code, got, err = _diags(published, "-", "--stdin-filename", rel, stdin=raw)
        assert (got, err) == (_of_file(whole, rel), ""), rel


def test_the_published_layout_is_a_profile_root(published):
    _code, out, err = run_cli(
        ["check", "--no-cache", "--verbose", "safety/data-exfiltration-prevention.yaml"],
        published / "scenarios",
    )
    assert err.splitlines()[0] == "si-lint: corpus root: .. (profile); configuration: none"
    plan = plan_roots(published, ["scenarios/safety"])
    assert [(g.root.path, g.root.how, g.paths) for g in plan.groups] == [
        (published, "profile", [str(published / "scenarios" / "safety")])
    ]


GUESSED = (
    "si-lint: no corpus root found for the named file(s) (no si-lint.toml, pyproject.toml with "
    "[tool.si-lint], OASIS profile layout or git work tree above): the corpus was guessed as "
    "the file's directory and may be incomplete, so SI303, SI611, SI612, SI613, SI614, SI619 "
    "(whose targets may lie outside it) were not checked; name the corpus directory or add "
    "si-lint.toml at the corpus root\n"
)


def test_a_guessed_root_leaves_out_the_checks_whose_targets_may_lie_outside(tmp_path):
    if not PUBLISHED.is_dir():
        pytest.skip(f"the published corpus is not here ({PUBLISHED})")
    name = "data-exfiltration-prevention.yaml"
    shutil.copy(PUBLISHED / "scenarios" / "safety" / name, tmp_path / name)
    code, out, err = run_cli(["check", "--no-cache", name], tmp_path)
    assert (code, out, err) == (0, "All checks passed (1 file(s)).\n", GUESSED)
    # a named directory is the corpus the user means: its companions are checked
    code, diags, err = _diags(tmp_path, ".")
    assert err == ""
    assert [(d["code"], d["path"], d["line"], d["column"], d["severity"]) for d in diags] == [
        ("SI613", name, line, 23, "error") for line in (26, 95, 179)
    ]


def test_roots_per_named_path_whatever_the_order(tmp_path):
    """The issue's case: a workflow named before a corpus file no longer makes ``.`` the
    root; each path gets its own root and configuration."""
    write_files(
        tmp_path,
        {
            "corpus/si-lint.toml": 'ignore = ["SI002"]\n',
            "corpus/scenarios/x.yaml": DUP,
            "other/si-lint.toml": "",
            "other/y.yaml": DUP,
            ".github/workflows/ci.yml": "on: push\n",
        },
    )
    (tmp_path / ".git").mkdir()
    named = [".github/workflows/ci.yml", "corpus/scenarios/x.yaml", "other/y.yaml"]
    for order in (named, named[::-1], named[1:] + named[:1]):
        code, diags, _err = _diags(tmp_path, *order)
        assert [(d["code"], d["path"], d["line"], d["column"]) for d in diags] == [
            ("SI002", "other/y.yaml", 3, 1)
        ], order
        assert code == 1
    plan = plan_roots(tmp_path, named)
    assert [(g.root.path, g.root.how) for g in plan.groups] == [
        (tmp_path / "corpus", "config"),
        (tmp_path / "other", "config"),
    ]
    assert plan.skipped == [
        (
            str(tmp_path / ".github/workflows/ci.yml"),
            "not under a configured corpus root of its work tree (corpus, other)",
        )
    ]


def test_skipped_named_paths_are_counted_and_listed(tmp_path):
    write_files(tmp_path, {"si-lint.toml": 'exclude = ["drafts/"]\n', "drafts/a.yaml": DUP})
    os.mkfifo(tmp_path / "fifo.yaml")
    os.symlink("/etc/hostname", tmp_path / "out.yaml")
    code, out, err = run_cli(["check", "--no-cache"], tmp_path)
    assert (code, out) == (0, "All checks passed (0 file(s)).\n")
    code, out, err = run_cli(
        ["check", "--no-cache", "--verbose", "fifo.yaml", "out.yaml", "drafts/a.yaml"], tmp_path
    )
    assert code == 0
    assert out == (
        "No file checked: 3 named path(s) skipped (not corpus files or excluded; --verbose "
        "says why).\n"
    )
    assert [line for line in err.splitlines() if line.startswith("si-lint: skipped")] == [
        "si-lint: skipped fifo.yaml: a FIFO, not a regular file; never opened",
        "si-lint: skipped out.yaml: a symbolic link to a file outside the corpus root; not read",
        "si-lint: skipped drafts/a.yaml: excluded by the configuration (include/exclude)",
    ]


def test_no_crawl_of_the_filesystem_root_or_a_home_directory(tmp_path, monkeypatch):
    code, out, err = run_cli(["check", "--no-cache"], Path("/"))
    assert (code, out) == (2, "")
    assert err == (
        "si-lint: .: no corpus root found (no si-lint.toml, pyproject.toml with "
        "[tool.si-lint], OASIS profile layout or git work tree above it), and si-lint does "
        "not crawl /: name the corpus directory, or add si-lint.toml at the corpus root\n"
    )
    home = tmp_path / "home"
    write_files(home, {"notes.yaml": DUP})
    monkeypatch.setenv("HOME", str(home))
    code, out, err = run_cli(["check", "--no-cache", "notes.yaml"], home)
    assert (code, out) == (2, "")
    assert f"si-lint does not crawl {home}:" in err
    write_files(home, {"corpus/x.yaml": DUP})  # a named directory under it is fine
    code, diags, _err = _diags(home, "corpus")
    assert (code, [(d["code"], d["path"]) for d in diags]) == (1, [("SI002", "corpus/x.yaml")])


def _json_error(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.msg
    raise AssertionError("valid JSON")


def test_json_under_a_configured_root_is_strict(tmp_path):
    """A ``.json`` evidence file with a trailing comma is SI001 "invalid JSON" under a
    configured root (it was read leniently as YAML and scored 1.0)."""
    src = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
    shutil.copytree(src, tmp_path / "c", ignore=shutil.ignore_patterns(".si-lint-*"))
    ev = tmp_path / "c" / "runs" / "storefront-agent-b.json"
    text = ev.read_text(encoding="utf-8")
    bad = text.replace('"tokens": 2210}', '"tokens": 2210,}')
    assert bad != text
    ev.write_text(bad, encoding="utf-8")
    line = bad[: bad.index("2210,}")].count("\n") + 1
    code, diags, _err = _diags(tmp_path / "c", "runs/storefront-agent-b.json")
    assert code == 1
    assert [(d["code"], d["severity"], d["path"], d["line"], d["message"]) for d in diags] == [
        (
            "SI001",
            "error",
            "runs/storefront-agent-b.json",
            line,
            "invalid JSON: " + _json_error(bad),
        )
    ]
    assert diags[0]["column"] == len('  "metadata": {"duration_s": 19.4, "tokens": 2210,}')
    # a comment too
    ev.write_text("// recorded by hand\n" + text, encoding="utf-8")
    _code, diags, _err = _diags(tmp_path / "c", "runs/storefront-agent-b.json")
    assert [(d["code"], d["line"], d["column"], d["message"]) for d in diags] == [
        ("SI001", 1, 1, "invalid JSON: Expecting value")
    ]
