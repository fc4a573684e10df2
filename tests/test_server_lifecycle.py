"""The language server's life: the exit status LSP 3.17 gives (`si-lint server` over stdio,
the messages framed by hand)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("pygls", reason="the server extra is not installed")

from conftest import REPO

# --------------------------------------------------------------------------------------
# exit status


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def unframe(data: bytes) -> list[dict]:
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.startswith(b"Content-Length")
        )
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


INITIALIZE = {"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}}
INITIALIZED = {"method": "initialized", "params": {}}
SHUTDOWN = {"id": 2, "method": "shutdown"}
EXIT = {"method": "exit"}
NOTES = "file:///nowhere/notes.txt"
OPEN = {
    "method": "textDocument/didOpen",
    "params": {"textDocument": {"uri": NOTES, "languageId": "text", "version": 1, "text": ""}},
}
PENDING = [  # a change whose handler still waits out its debounce (2 s) at the shutdown
    {**INITIALIZE, "params": {**INITIALIZE["params"], "initializationOptions": {"debounce": 2000}}},
    INITIALIZED,
    OPEN,
    {
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": NOTES, "version": 2}, "contentChanges": [{"text": "x"}]},
    },
]


@pytest.mark.parametrize(
    "messages, status",
    [
        ([INITIALIZE, INITIALIZED, SHUTDOWN, EXIT], 0),
        ([INITIALIZE, INITIALIZED, EXIT], 1),  # exit without shutdown
        ([INITIALIZE, INITIALIZED, SHUTDOWN], 0),  # then stdin closes
        ([INITIALIZE, INITIALIZED], 1),  # stdin closes: the client is gone
        ([*PENDING, SHUTDOWN, EXIT], 0),  # the shutdown cancels the pending handlers
    ],
    ids=["shutdown-exit", "exit", "shutdown-eof", "eof", "pending-shutdown-exit"],
)
def test_exit_status_is_the_one_lsp_gives(tmp_path, messages, status):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "si_lint.cli", "server", "--no-cache"],
        input=b"".join(frame(m) for m in messages),
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        timeout=120,
    )
    assert (proc.returncode, proc.stderr) == (status, b"")
    answers = unframe(proc.stdout)
    assert answers[0]["id"] == 1
    assert answers[0]["result"]["serverInfo"]["name"] == "si-lint"
    if SHUTDOWN in messages:
        assert answers[1:] == [{"id": 2, "jsonrpc": "2.0", "result": None}]
    else:
        assert answers[1:] == []
