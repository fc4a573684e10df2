"""`review --base REV` reads a git revision's tree as data (SPEC §9 "Trust boundaries",
issue 41 items 1 and 5): the reproducers are trees made with `git mktree` — entries named
`..`, symbolic links, submodules, duplicate names — and nothing they name is ever written
outside review's temporary directory; each refused entry is reported. A `--base` that
starts with `-` never reaches git."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from si_lint.cli import cli
from si_lint.review import gittree
from si_lint.review.gittree import escape_name, materialise

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

REPO = Path(__file__).resolve().parent.parent
PROPOSED = REPO / "fixtures" / "review" / "proposed"
DOTDOTS = 40  # more `..` than any temporary directory is deep: the chain reaches `/`


def git(cwd: Path, *args: str, stdin: bytes | None = None) -> str:
    proc = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        input=stdin,
        check=True,
        capture_output=True,
    )
    return proc.stdout.decode().strip()


def blob(repo: Path, data: bytes) -> str:
    return git(repo, "hash-object", "-w", "--stdin", stdin=data)


def mktree(repo: Path, entries: list[tuple[str, str, str, str]]) -> str:
    """A tree of (mode, type, oid, name) entries, names as they are (`..` included)."""
    lines = b"".join(f"{m} {t} {o}\t{n}".encode() + b"\0" for m, t, o, n in entries)
    return git(repo, "mktree", "-z", stdin=lines)


def entries_of(repo: Path, tree: str) -> list[tuple[str, str, str, str]]:
    out = subprocess.run(
        ["git", "ls-tree", "-z", tree], cwd=repo, check=True, capture_output=True
    ).stdout
    rows = []
    for rec in filter(None, out.split(b"\0")):
        meta, _, name = rec.partition(b"\t")
        mode, typ, oid = meta.decode().split()
        rows.append((mode, typ, oid, name.decode()))
    return rows


def chain(repo: Path, names: list[str], leaf: tuple[str, str, str, str]) -> tuple:
    """The entry `names[0]` of trees nested as `names`, `leaf` in the innermost."""
    entry = leaf
    for name in reversed(names):
        entry = ("040000", "tree", mktree(repo, [entry]), name)
    return entry


def insert(repo: Path, tree: str, parts: list[str], entry: tuple) -> str:
    """`tree` with `entry` added in its subtree `parts` (made when missing)."""
    rows = entries_of(repo, tree)
    if not parts:
        return mktree(repo, [*rows, entry])
    subs = [r for r in rows if r[3] == parts[0] and r[1] == "tree"]
    sub = subs[0][2] if subs else mktree(repo, [])
    rows = [r for r in rows if r not in subs]
    return mktree(repo, [*rows, ("040000", "tree", insert(repo, sub, parts[1:], entry), parts[0])])


def outside_chain(target: Path) -> list[str]:
    """Tree names that lead from anywhere below `/` to the file `target`."""
    return [".."] * DOTDOTS + list(target.parent.parts[1:])


@pytest.fixture
def corpus(tmp_path: Path):
    """The worked example's corpus committed on `main`, and a function that commits a
    crafted tree (the profile with one extra entry) on a branch."""
    repo = tmp_path / "corpus"
    shutil.copytree(PROPOSED, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v1")

    def commit(branch: str, where: list[str], *extra: tuple) -> None:
        tree = git(repo, "rev-parse", "HEAD^{tree}")
        for entry in extra:
            tree = insert(repo, tree, where, entry)
        c = git(repo, "commit-tree", tree, "-m", branch)
        git(repo, "update-ref", f"refs/heads/{branch}", c)

    return repo, commit


def review(repo: Path, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["review", *args], catch_exceptions=False)
    return result.exit_code, result.output


def refused_lines(out: str) -> list[str]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Refused from"))
    end = lines.index("", at)
    return lines[at:end]


DOTDOT = "its path has a `..` part"
SYMLINK = "it is a symbolic link (mode 120000); not followed, not created"


def test_dotdot_entry_under_templates_is_refused_not_written(corpus, tmp_path, monkeypatch):
    repo, commit = corpus
    target = tmp_path / "elsewhere" / "pwned"
    (tmp_path / "elsewhere").mkdir()
    leaf = ("100644", "blob", blob(repo, b"written by a tree\n"), "pwned")
    commit("evil", ["profile", "templates"], chain(repo, outside_chain(target), leaf))
    code, out = review(repo, monkeypatch, "--base", "evil")
    assert not target.exists()
    assert os.listdir(tmp_path / "elsewhere") == []
    shown = "profile/templates/" + "../" * DOTDOTS + str(target)[1:]
    assert refused_lines(out) == [
        "Refused from the base revision's tree (1 entry(ies), not written):",
        f"  {shown}: {DOTDOT}",
    ]
    assert code == 1
    # the rest of the tree is read as before: the same profile on both sides
    assert (
        out.splitlines()[0]
        == "si-lint review: evil:profile (si 0.4.0-dev.1) → profile (si 0.4.0-dev.1)"
    )
    assert "Changes: none" in out.splitlines()


def test_dotdot_py_entry_is_refused_in_json_too(corpus, tmp_path, monkeypatch):
    repo, commit = corpus
    target = tmp_path / "site-packages" / "sitecustomize.py"
    target.parent.mkdir()
    leaf = ("100755", "blob", blob(repo, b"import os\n"), target.name)
    commit("evil", ["profile"], chain(repo, outside_chain(target), leaf))
    code, out = review(repo, monkeypatch, "--base", "evil", "--format", "json")
    assert not target.exists()
    assert code == 1
    assert json.loads(out)["refused"] == [
        {
            "path": "profile/" + "../" * DOTDOTS + str(target)[1:],
            "severity": "error",
            "message": DOTDOT,
        }
    ]


def test_symlinked_templates_directory_is_never_followed(corpus, tmp_path, monkeypatch):
    # `templates` twice: a symbolic link to a directory outside, and a tree with a file
    repo, commit = corpus
    outside = tmp_path / "outside"
    outside.mkdir()
    link = ("120000", "blob", blob(repo, str(outside).encode()), "templates")
    extra = ("100644", "blob", blob(repo, b"template: {id: X}\n"), "X.yaml")
    commit("evil", ["profile"], link)
    tree = git(repo, "rev-parse", "evil^{tree}")
    profile = entries_of(repo, git(repo, "rev-parse", "evil:profile"))
    templates = [e for e in profile if e[3] == "templates" and e[1] == "tree"][0]
    more = mktree(repo, [*entries_of(repo, templates[2]), extra])
    rows = [e for e in profile if e != templates] + [("040000", "tree", more, "templates")]
    root = [e for e in entries_of(repo, tree) if e[3] != "profile"]
    root.append(("040000", "tree", mktree(repo, rows), "profile"))
    c = git(repo, "commit-tree", mktree(repo, root), "-m", "evil")
    git(repo, "update-ref", "refs/heads/evil", c)

    code, out = review(repo, monkeypatch, "--base", "evil", "--format", "markdown")
    assert os.listdir(outside) == []
    assert code == 1
    md = out.splitlines()
    at = md.index("#### Refused from the base revision's tree (1, not written)")
    assert md[at : at + 5] == [
        "#### Refused from the base revision's tree (1, not written)",
        "",
        "| entry | why |",
        "|---|---|",
        f"| `profile/templates` | {SYMLINK} |",
    ]


def test_symlink_blob_is_refused_and_never_created(corpus, tmp_path, monkeypatch):
    repo, commit = corpus
    secret = tmp_path / "secret.yaml"
    secret.write_text("template: {id: SECRET}\n")
    commit(
        "evil",
        ["profile", "templates"],
        ("120000", "blob", blob(repo, str(secret).encode()), "S.yaml"),
    )
    dest = tmp_path / "copy"
    dest.mkdir()
    refused = materialise("evil", repo / "profile", dest)
    assert [(r.path, r.message) for r in refused] == [("profile/templates/S.yaml", SYMLINK)]
    written = sorted(
        str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file() or p.is_symlink()
    )
    assert written == [
        "impl/ops_precede.py",
        "registry.yaml",
        "templates/C-DA-001.yaml",
        "templates/C-DD-001.yaml",
    ]
    assert not any(p.is_symlink() for p in dest.rglob("*"))
    code, out = review(repo, monkeypatch, "--base", "evil")
    assert refused_lines(out)[1:] == [f"  profile/templates/S.yaml: {SYMLINK}"]
    assert code == 1


def test_submodules_duplicates_and_odd_names_are_refused(corpus, tmp_path, monkeypatch):
    repo, commit = corpus
    head = git(repo, "rev-parse", "HEAD")
    reg = blob(repo, b"registry: {profile: evil, version: '1'}\n")
    data = blob(repo, b"x = 1\n")
    commit(
        "evil",
        ["profile"],
        ("160000", "commit", head, "sub.py"),
        ("100644", "blob", reg, "registry.yaml"),  # a second `registry.yaml`
        ("100644", "blob", data, "a\\b.py"),
        ("100644", "blob", data, "c:d.py"),
        ("100644", "blob", data, "esc\x1b]0;title\x07.py"),
        ("100644", "blob", data, "."),
        ("040000", "tree", mktree(repo, [("100644", "blob", data, "e.py")]), "."),
    )
    dest = tmp_path / "copy"
    dest.mkdir()
    refused = materialise("evil", repo / "profile", dest)
    assert [(r.path, r.message) for r in refused] == [
        ("profile/.", "its path has a `.` part"),
        ("profile/./e.py", "its path has a `.` part"),
        ("profile/a\\\\b.py", "its path has a backslash"),
        ("profile/c:d.py", "its path has a `:` (a drive or stream name)"),
        (
            "profile/esc\\x1b]0;title\\x07.py",
            "its path has a control or other non-printable character",
        ),
        ("profile/registry.yaml", "another entry of the tree has the same path; not written"),
        ("profile/sub.py", "it is a submodule (mode 160000); not read"),
    ]
    assert (dest / "registry.yaml").read_bytes() == (
        PROPOSED / "profile/registry.yaml"
    ).read_bytes()
    assert sorted(os.listdir(dest)) == ["impl", "registry.yaml", "templates"]


def test_what_is_read_is_bounded(corpus, tmp_path, monkeypatch):
    repo, commit = corpus
    big = blob(repo, b"#" * (5 * 1024 * 1024 + 1))
    commit("big", ["profile", "templates"], ("100644", "blob", big, "big.yaml"))
    dest = tmp_path / "copy"
    dest.mkdir()
    assert [(r.path, r.message) for r in materialise("big", repo / "profile", dest)] == [
        (
            "profile/templates/big.yaml",
            "it is larger than the 5,242,880-byte safety limit; not read",
        )
    ]
    assert not (dest / "templates" / "big.yaml").exists()
    # all the files together (2,284 + 2,141 bytes fit; each template would pass 5,000)
    monkeypatch.setattr(gittree, "MAX_TOTAL_BYTES", 5000)
    dest = tmp_path / "copy2"
    dest.mkdir()
    too_many = "the files read would pass 5,000 bytes in all; not read"
    assert [(r.path, r.message) for r in materialise("main", repo / "profile", dest)] == [
        ("profile/templates/C-DA-001.yaml", too_many),
        ("profile/templates/C-DD-001.yaml", too_many),
    ]
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file()) == [
        "impl/ops_precede.py",
        "registry.yaml",
    ]
    # the number of entries listed
    monkeypatch.setattr(gittree, "MAX_ENTRIES", 4)  # the root has 4, `profile` 5
    code, out = review(repo, monkeypatch, "--base", "big")
    oid = git(repo, "rev-parse", "big:profile")
    assert (code, out) == (
        2,
        f"si-lint: --base big: git ls-tree -z -l -r {oid}: more than 4 entries; not read\n",
    )


def test_escape_name_is_unambiguous():
    assert escape_name("a\\x1b") == "a\\\\x1b"
    assert escape_name("a\x1b") == "a\\x1b"
    assert escape_name("caf\udce9\u202e\U000e0001") == "caf\\xe9\\u202e\\U000e0001"


# -- a --base that git would take for an option ---------------------------------------
@pytest.fixture
def git_log(tmp_path, monkeypatch):
    """Every git command si-lint runs, logged by a `git` in front of the real one."""
    real = shutil.which("git")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "git.log"
    shim = bin_dir / "git"
    shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    def calls() -> list[str]:
        return log.read_text().splitlines() if log.exists() else []

    return calls


@pytest.mark.parametrize("rev", ["-x", "--output=/tmp/y", "--all"])
def test_base_starting_with_dash_is_a_usage_error_before_git(corpus, git_log, monkeypatch, rev):
    repo, _commit = corpus
    code, out = review(repo, monkeypatch, "--base", rev)
    assert (code, out) == (
        2,
        f"si-lint: --base {rev}: a revision cannot start with `-` "
        "(a directory named so: pass it as ./NAME)\n",
    )
    assert git_log() == []


def test_base_rev_reaches_git_only_behind_end_of_options(corpus, git_log, monkeypatch):
    repo, _commit = corpus
    code, out = review(repo, monkeypatch, "--base", "main", "--format", "json")
    assert code == 0
    assert json.loads(out)["refused"] == []
    calls = git_log()
    assert calls[:2] == [
        "rev-parse --show-toplevel",
        "rev-parse --verify --end-of-options main^{commit}",
    ]
    assert [c for c in calls if "main" in c] == [calls[1]]


# -- paths read from a profile or a configuration stay inside --------------------------
def _profile(d: Path, impl: str) -> None:
    (d / "templates").mkdir(parents=True)
    (d / "registry.yaml").write_text(
        "registry: {profile: si, version: x}\nchannels: [agent_response]\nprimitives:\n"
        f"  - name: novel\n    implementation: {impl}\n    params: []\n"
    )


def test_implementation_sources_outside_the_profile_are_not_read(tmp_path, monkeypatch):
    for side, text in (("a", "def novel(evidence):\n    return 1\n"), ("b", "# other\n")):
        _profile(tmp_path / side / "p", "../secret.py:novel")
        (tmp_path / side / "secret.py").write_text(text)
    code, out = review(
        tmp_path, monkeypatch, "--base", "a/p", "--profile", "b/p", "--format", "json"
    )
    assert json.loads(out)["changes"] == []
    assert code == 1  # SI501: the implementation file is outside the profile directory


def test_base_directory_whose_config_points_outside_is_refused(tmp_path, monkeypatch):
    _profile(tmp_path / "elsewhere", "x.py:novel")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "si-lint.toml").write_text('profile = "../elsewhere"\n')
    code, out = review(tmp_path, monkeypatch, "--base", "corpus", "--profile", "builtin")
    assert (code, out) == (
        2,
        "si-lint: --base corpus: the configured profile `../elsewhere` is outside the "
        "directory of its configuration file; not read\n",
    )


def test_corpus_config_profile_outside_the_corpus_is_refused(tmp_path, monkeypatch):
    # the corpus's own configuration (the head side); `check` confines it in config loading
    _profile(tmp_path / "elsewhere", "x.py:novel")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "si-lint.toml").write_text('profile = "../elsewhere"\n')
    code, out = review(tmp_path / "corpus", monkeypatch, "--base", "builtin")
    assert (code, out) == (
        2,
        "si-lint: si-lint.toml:1:11: `profile` '../elsewhere' leads outside the corpus root: "
        "not used (a profile named in a configuration file must be a directory inside the "
        "corpus root)\n",
    )
