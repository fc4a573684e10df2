"""Determinism: `check --format json` (dry runs included), `eval --format json` and `graph`
give the same bytes whatever the hash seed, the order in which the files were created on
disk, and the order in which files are named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

SEEDS = ("0", "4242", "random")

#: extra files with findings of many kinds (cross-file, dry runs, probes)
EXTRA = {
    "scenarios/dup.yaml": None,  # a copy of the mail-relay scenario: SI301
    "fixtures/typo.yaml": "scenario: infra.capability.da.single-signal-diagnosis-01\n"
    "expect: {score: 1.0}\nevents: []\n",
    "fixtures/wrong.yaml": "scenario: infra.capability.da.single-signal-diagnosis-001\n"
    "expect: {score: 0.5, row: 1}\nevents:\n"
    "  - {kind: agent_response, text: SMTP_PORT is missing., final: true}\n",
    "scenarios/echo.yaml": None,  # exclude_tool_echo false under another id: SI404, SI306
}


def _materialise(dest: Path, reverse: bool) -> None:
    src = REPO / "fixtures" / "corpus"
    files = sorted(p for p in src.rglob("*") if p.is_file())
    mail = (src / "scenarios" / "mail-relay-smtp-port.yaml").read_text()
    extra = dict(EXTRA)
    extra["scenarios/dup.yaml"] = mail
    extra["scenarios/echo.yaml"] = mail.replace("single-signal-diagnosis-001", "echo-001").replace(
        "exclude_tool_echo: true", "exclude_tool_echo: false"
    )
    items = [(p.relative_to(src).as_posix(), p.read_bytes()) for p in files]
    items += [(k, v.encode()) for k, v in extra.items()]
    if reverse:  # create files (and so directory entries) in the opposite order
        items.reverse()
    for rel, data in items:
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _run(cwd: Path, seed: str, *args: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    env.pop("GITHUB_ACTIONS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "si_lint.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr.decode()
    return proc.stdout


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    a = tmp_path_factory.mktemp("forward")
    b = tmp_path_factory.mktemp("backward")
    _materialise(a, reverse=False)
    _materialise(b, reverse=True)
    return a, b


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--format", "json", "--no-cache"),
        ("eval", "--format", "json", "scenarios/mail-relay-smtp-port.yaml", "runs", "fixtures"),
        ("graph", "--format", "json"),
        ("graph", "--format", "dot"),
        ("graph", "--format", "graphml"),
    ],
    ids=["check", "eval", "graph-json", "graph-dot", "graph-graphml"],
)
def test_same_bytes_across_hash_seeds_and_creation_orders(corpora, args):
    outputs = {(str(root), seed): _run(root, seed, *args) for root in corpora for seed in SEEDS}
    reference = next(iter(outputs.values()))
    assert reference
    assert all(out == reference for out in outputs.values())


def test_check_output_exercises_the_cross_file_rules(corpora):
    out = _run(corpora[0], "0", "check", "--format", "json", "--no-cache").decode()
    for code in ("SI301", "SI303", "SI306", "SI401", "SI402", "SI404"):
        assert f'"{code}"' in out


def test_named_file_order_does_not_matter(corpora):
    root = corpora[0]
    files = [
        "scenarios/dup.yaml",
        "fixtures/wrong.yaml",
        "fixtures/typo.yaml",
        "scenarios/echo.yaml",
    ]
    one = _run(root, "1", "check", "--format", "json", "--no-cache", *files)
    two = _run(root, "2", "check", "--format", "json", "--no-cache", *reversed(files))
    assert one == two
