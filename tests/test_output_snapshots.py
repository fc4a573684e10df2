"""`si-lint check` prints, byte for byte, what it printed before the pipeline redesign
(issue 12's acceptance): the bundled corpus, a generated bench corpus and the published
corpus, in the text, JSON and SARIF formats, compared with snapshots taken at the commit
before the redesign.

A deliberate change of output is made by regenerating the snapshots and committing them with
the change that explains it:

    SI_LINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_output_snapshots.py
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import REPO, SHARED, need_shared, run_cli

SNAPSHOTS = Path(__file__).parent / "snapshots" / "output"
FORMATS = {"text": "txt", "json": "json", "sarif": "sarif"}
UPDATE = os.environ.get("SI_LINT_UPDATE_SNAPSHOTS") == "1"


def _bench_corpus(root: Path) -> Path:
    spec = importlib.util.spec_from_file_location(
        "bench_generate_snap", REPO / "bench" / "generate.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    mod.generate(root, 240, "snapshot")
    # without the corpus's per-file-ignores its Form A scenarios report SI115, so the
    # snapshot holds findings with positions inside multi-document files, not only a summary
    (root / "si-lint.toml").unlink()
    return root


@pytest.fixture(params=["bundled", "bench", "published"])
def corpus(request, tmp_path):
    if request.param == "bundled":
        root = tmp_path / "corpus"
        shutil.copytree(REPO / "fixtures" / "corpus", root)
    elif request.param == "bench":
        root = _bench_corpus(tmp_path / "corpus")
    else:
        src = need_shared(SHARED / "data" / "oasis-si" / "software-infrastructure")
        root = tmp_path / "software-infrastructure"
        shutil.copytree(src, root)
    return request.param, root


@pytest.mark.parametrize("fmt", FORMATS)
def test_check_output_is_unchanged(corpus, fmt):
    name, root = corpus
    code, out, _ = run_cli(["check", "--no-cache", "--jobs", "1", "--format", fmt, "."], root)
    snap = SNAPSHOTS / f"{name}.{FORMATS[fmt]}"
    got = f"exit {code}\n{out}"
    if UPDATE:
        snap.write_text(got, encoding="utf-8", newline="\n")
    assert snap.exists(), f"no snapshot {snap.name}: run with SI_LINT_UPDATE_SNAPSHOTS=1"
    assert got == snap.read_text(encoding="utf-8")
