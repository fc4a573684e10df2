"""docs/tutorial.md, followed word for word in an empty directory: every fenced block whose
info string names a file (```` ```yaml file=PATH ````) is written there, and every
``console`` block's commands (the lines after ``$ ``) are run in order, in a shell, by the
``si-lint`` of this checkout; each must print exactly the lines the page shows under it
(stdout and stderr together). The one other block is the install command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO

DOC = REPO / "docs" / "tutorial.md"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(kind, argument, body) of every fenced block in order: ("file", path, content),
    ("console", "", body) or ("other", info string, body)."""
    out = []
    for m in FENCE.finditer(text):
        info, body = m.group(1).strip(), m.group(2)
        words = info.split()
        files = [w[len("file=") :] for w in words if w.startswith("file=")]
        if files:
            out.append(("file", files[0], body))
        elif words == ["console"]:
            out.append(("console", "", body))
        else:
            out.append(("other", info, body))
    return out


def commands(body: str) -> list[tuple[str, str]]:
    """(command, the output shown under it) of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"output before any command: {line!r}"
            out[-1][1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


def test_the_page_is_files_commands_and_the_install_line():
    kinds = [(k, a) for k, a, _ in blocks(DOC.read_text(encoding="utf-8"))]
    assert [k for k, _ in kinds if k == "other"] == ["other"]
    assert ("other", "sh") in kinds
    assert sum(1 for k, _ in kinds if k == "console") >= 4


def test_following_the_tutorial_word_for_word(tmp_path):
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["XDG_CACHE_HOME"] = str(tmp_path / ".user-cache")
    for var in ("CI", "GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "SI_LINT_CACHE_DIR"):
        env.pop(var, None)
    work = tmp_path / "tutorial"
    work.mkdir()
    ran = []
    for kind, arg, body in blocks(DOC.read_text(encoding="utf-8")):
        if kind == "file":
            target = work / arg
            assert target.parent.is_dir(), f"{arg}: its directory was not made by the page"
            target.write_text(body, encoding="utf-8")
        elif kind == "console":
            for cmd, shown in commands(body):
                proc = subprocess.run(
                    ["bash", "-c", cmd],
                    cwd=work,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    timeout=120,
                )
                assert proc.stdout.rstrip("\n") == shown, cmd
                ran.append(cmd)
    assert ran[-2:] == [
        "si-lint eval scenarios/mail-relay.yaml runs/agent-a.yaml runs/agent-b.yaml",
        "si-lint check",
    ]
