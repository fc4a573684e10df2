"""The cache's signing key is trusted only where a pull request cannot put it (SPEC §9
"Trust boundaries", issue 41 item 2): a key file inside the corpus root or the git work
tree being checked, or one others may read, signs nothing si-lint reads. A committed key
with the cache forged under it (every finding removed, re-signed) never makes a broken
corpus pass."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, age, run_cli, si_lint_process

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

BROKEN = "id: [unclosed\n"
#: the one finding of the example corpus with ``scenarios/broken.yaml`` broken, as the
#: text report prints it (what ``--no-cache`` prints)
REPORT = (
    "scenarios/broken.yaml:2:1: SI001 [error] invalid YAML: expected ',' or ']', but got"
    " '<stream end>' (while parsing a flow sequence)\n"
    " 2 | \n"
    "   | ^\n"
    "\n"
    "Found 1 finding(s) in 66 file(s): 1 error(s), 0 warning(s), 0 info(s).\n"
)
FORGED = "All checks passed (66 file(s)).\n"
MAC_SEP = b"\n#mac "


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    """(a git work tree, the corpus root in it): the example corpus with a broken file,
    and the directories a workspace's XDG_CACHE_HOME would be made in."""
    work = tmp_path / "ws"
    root = work / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    (root / "scenarios" / "broken.yaml").write_text(BROKEN)
    (root / ".gitignore").write_text(".xdg/\n")
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    for xdg in (root / ".xdg", work / ".xdg"):
        (xdg / "si-lint").mkdir(parents=True)
    age(work)
    return work, root


def _env(user_env: dict, xdg: Path) -> dict:
    return dict(user_env, XDG_CACHE_HOME=str(xdg))


def _sign(key: bytes, value) -> bytes:
    body = json.dumps(value, separators=(",", ":")).encode()
    return body + MAC_SEP + hmac.new(key, body, hashlib.sha256).hexdigest().encode() + b"\n"


def _body(path: Path):
    raw = path.read_bytes()
    return json.loads(raw[: raw.rfind(MAC_SEP)])


def _blank_findings(value):
    """``value`` with every ``findings`` list emptied (what a forger claims)."""
    if isinstance(value, dict):
        return {k: [] if k == "findings" else _blank_findings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_blank_findings(v) for v in value]
    return value


def _forge(root: Path, key: bytes) -> None:
    """What a pull request commits: the cache's signed files with every finding removed,
    re-signed with ``key``."""
    cache = root / ".si-lint-cache"
    forged = 0
    for path in sorted(cache.iterdir()):
        raw = path.read_bytes()
        if MAC_SEP not in raw:
            continue
        path.write_bytes(_sign(key, _blank_findings(_body(path))))
        forged += 1
    assert forged, sorted(p.name for p in cache.iterdir())


def _plant(key: bytes, xdg: Path, mode: int = 0o600) -> Path:
    path = xdg / "si-lint" / "cache-key"
    path.write_bytes(key)
    path.chmod(mode)
    return path


def _first_run(root: Path, user_env: dict) -> bytes:
    """A run with the user's own cache (a key outside the workspace): the cache files the
    forgery starts from. Returns that key."""
    code, out, err, _ = si_lint_process(root, user_env, "check")
    assert (code, out, err) == (1, REPORT, "")
    return (Path(user_env["XDG_CACHE_HOME"]) / "si-lint" / "cache-key").read_bytes()


@pytest.mark.parametrize("where", ["corpus root", "git work tree"])
def test_a_key_in_the_workspace_signs_nothing_read(tmp_path, user_env, where):
    """XDG_CACHE_HOME inside the corpus root, or inside the git work tree beside it (a
    CI that sets HOME to its workspace): the key planted there (0600, the runner's own)
    and the cache forged with it are ignored, and no key is written."""
    work, root = _workspace(tmp_path)
    xdg = root / ".xdg" if where == "corpus root" else work / ".xdg"
    key = _first_run(root, user_env)
    planted = _plant(key, xdg)
    env = _env(user_env, xdg)
    _forge(root, key)
    code, out, err, _ = si_lint_process(root, env, "check")
    assert (code, out, err) == (1, REPORT, "")
    assert planted.read_bytes() == key  # the planted key was neither used nor replaced
    assert sorted(p.name for p in (xdg / "si-lint").iterdir()) == ["cache-key"]
    code, out, err, _ = si_lint_process(root, env, "check", "--no-cache")
    assert (code, out, err) == (1, REPORT, "")


def test_the_pipeline_distrusts_the_key_before_it_reads_a_memo(tmp_path, user_env, monkeypatch):
    """The check command run without ``cli.main`` (no replay memo asked first, as a test or
    an embedding caller runs it): the configure stage tells the key of the root before
    the run memo is read, so the forged memo and run.json are ignored all the same."""
    from si_lint.cache import signed

    _work, root = _workspace(tmp_path)
    xdg = root / ".xdg"
    key = _first_run(root, user_env)
    _plant(key, xdg)
    _forge(root, key)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    for name, value in (("_SECRET", None), ("_KEY_FILE", None), ("_UNTRUSTED", set())):
        monkeypatch.setattr(signed, name, value)
    assert run_cli(["check"], root) == (1, REPORT, "")
    signed.secret()
    assert signed._KEY_FILE is None  # the key in use is no user's key


def test_a_key_others_may_read_is_replaced(tmp_path, user_env):
    """A key of mode 0644 in the user's own cache directory (outside the workspace):
    anyone could have signed with it. The forged cache is ignored and a fresh 0600 key
    takes its place."""
    _work, root = _workspace(tmp_path)
    xdg = Path(user_env["XDG_CACHE_HOME"])
    key = _first_run(root, user_env)
    _forge(root, key)
    planted = _plant(key, xdg, 0o644)
    code, out, err, _ = si_lint_process(root, user_env, "check")
    assert (code, out, err) == (1, REPORT, "")
    fresh = planted.read_bytes()
    assert len(fresh) == 32 and fresh != key
    assert planted.stat().st_mode & 0o777 == 0o600


def test_the_users_own_key_still_answers(tmp_path, user_env):
    """The control: a 0600 key in a cache directory outside the workspace is the user's,
    and what it signs is served -- the same cache forged with it answers "All checks
    passed" (so the tests above pass because the key is refused, not because the forgery
    is malformed), and the key is kept."""
    _work, root = _workspace(tmp_path)
    key = _first_run(root, user_env)
    code, out, err, _ = si_lint_process(root, user_env, "check")
    assert (code, out, err) == (1, REPORT, "")
    _forge(root, key)
    code, out, err, _ = si_lint_process(root, user_env, "check")
    assert (code, out, err) == (0, FORGED, "")
    keyfile = Path(user_env["XDG_CACHE_HOME"]) / "si-lint" / "cache-key"
    assert keyfile.read_bytes() == key and keyfile.stat().st_mode & 0o777 == 0o600


def test_distrust_drops_a_key_in_use_inside_a_new_root(tmp_path, monkeypatch):
    """A long-lived process (the language server) told of a root that holds the key it
    uses drops that key, and what it read under it, for one of its own."""
    from si_lint.cache import signed

    xdg = tmp_path / "corpus" / ".cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    monkeypatch.setattr(signed, "_SECRET", None)
    monkeypatch.setattr(signed, "_KEY_FILE", None)
    monkeypatch.setattr(signed, "_UNTRUSTED", set())
    key = signed.secret()
    assert signed._KEY_FILE is not None and (xdg / "si-lint" / "cache-key").read_bytes() == key
    signed.distrust([tmp_path / "elsewhere"])
    assert signed.secret() == key
    os.unlink(xdg / "si-lint" / "cache-key")
    signed.distrust([tmp_path / "corpus"])
    other = signed.secret()
    assert other != key and signed._KEY_FILE is None
    assert not (xdg / "si-lint" / "cache-key").exists()  # never made inside the root
