import base64
import json
import os
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis_settings

# CI runs are reproducible: hypothesis derives its examples from the test, not a random seed
_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    _hypothesis_settings.load_profile("ci")
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def need_shared(path: Path) -> Path:
    """``path`` (under ../shared), or skip the test when ../shared is absent (a user's clone
    has no ../shared beside it: the README's test command must pass there)."""
    if not path.exists():
        pytest.skip(f"../shared is absent: {path} is not here")
    return path


def write_files(root: Path, files: dict) -> None:
    """Materialise ``{relpath: content}``; content is text, or ``{base64: ...}`` for bytes."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "base64" in content:
            path.write_bytes(base64.b64decode(content["base64"]))
        else:
            path.write_bytes(str(content).encode("utf-8"))


def age(root, seconds: float = 10) -> None:
    """Every file and directory under ``root`` into the past: the run memo, the replay memo
    and the stat index trust no path modified within their racy window of their writing."""
    import time

    past = time.time() - seconds
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(dirpath, name), (past, past))
        os.utime(dirpath, (past, past))


def run_cli(args: list[str], cwd: Path):
    """Run the CLI in-process in ``cwd``; returns (exit_code, stdout, stderr)."""
    from si_lint.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def check_json(cwd: Path, *args: str):
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return code, json.loads(out)


def diag_tuples(report: dict) -> list[tuple]:
    return [(d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]]


@pytest.fixture
def corpus_dir(tmp_path):
    def make(files: dict) -> Path:
        write_files(tmp_path, files)
        return tmp_path

    return make
