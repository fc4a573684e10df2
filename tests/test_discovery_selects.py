"""``discovery.selects`` (what the language server asks of a file created since its walk)
answers as the walk does, for every file of a tree that exercises each rule: skipped and
dot directories, ``include``/``exclude`` (files and directories), ``.gitignore`` files at
the top of the work tree and below, with a negation."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, write_files

from si_lint.config import load_config
from si_lint.discovery import discover, selects

TREE = {
    ".gitignore": "ignored.yaml\nbuild/\n*.tmp.yaml\n",
    "corpus/si-lint.toml": 'exclude = ["drafts/", "old-*.yaml"]\n',
    "corpus/scenarios/a.yaml": "id: a\n",
    "corpus/scenarios/ignored.yaml": "id: i\n",
    "corpus/scenarios/x.tmp.yaml": "id: t\n",
    "corpus/scenarios/old-b.yaml": "id: o\n",
    "corpus/scenarios/notes.txt": "text\n",
    "corpus/scenarios/.gitignore": "local.yaml\n!keep.tmp.yaml\n",
    "corpus/scenarios/local.yaml": "id: l\n",
    "corpus/scenarios/keep.tmp.yaml": "id: k\n",
    "corpus/drafts/d.yaml": "id: d\n",
    "corpus/build/b.yaml": "id: b\n",
    "corpus/.hidden/h.yaml": "id: h\n",
    "corpus/node_modules/n.yaml": "id: n\n",
    "corpus/fixtures/deep/er/f.json": "{}\n",
    "corpus/fixtures/deep/er/f.yml": "x: 1\n",
}


def _every_file(root: Path) -> list[str]:
    return sorted(
        os.path.join(d, f)
        for d, _dirs, files in os.walk(root)
        for f in files
        if f != "si-lint.toml"
    )


@pytest.mark.parametrize("git", [True, False])
def test_selects_answers_as_the_walk_does(tmp_path, git):
    if git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    write_files(tmp_path, TREE)
    if git:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    root = tmp_path / "corpus"
    config = load_config(root)
    walked = set(discover(root, config, root).files)
    assert walked  # (the tree selects something, and leaves things out)
    for path in _every_file(root):
        assert selects(path, config) == (path in walked), path


def test_selects_answers_as_the_walk_does_on_the_example_corpus():
    root = REPO / "fixtures" / "corpus"
    config = load_config(root)
    walked = set(discover(root, config, root).files)
    for path in _every_file(root):
        if ".si-lint-cache" not in path:
            assert selects(path, config) == (path in walked), path
