"""The language server's life: the exit status LSP 3.17 gives (`si-lint server` over stdio,
the messages framed by hand), and a long session of edits that leaves nothing behind (the
server in this process, fed the same messages; bench/server_memory.py measures the RSS of
10,000 edits over stdio)."""

from __future__ import annotations

import asyncio
import gc
import json
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the server extra is not installed")

from conftest import REPO
from pygls.uris import from_fs_path

from si_lint.pipeline import Options
from si_lint.server.lsp import build_server

SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
KEPT = 80  # edits before the traced ones (more than the 67 documents)


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(
        REPO / "fixtures" / "corpus", root, ignore=shutil.ignore_patterns(".si-lint-cache")
    )
    return root


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


# --------------------------------------------------------------------------------------
# a long session


class Client:
    """The client side of a server run in this process: messages in through pygls' own
    dispatch (as its stdio loop does), what the server writes collected."""

    def __init__(self, server):
        self.server = server
        self.received: list[dict] = []
        server.protocol.set_writer(self, include_headers=False)

    def write(self, data: bytes) -> None:
        self.received.append(json.loads(data))

    def close(self) -> None:
        pass

    def send(self, message: dict) -> None:
        proto = self.server.protocol
        text = json.dumps({"jsonrpc": "2.0", **message})
        proto.handle_message(json.loads(text, object_hook=proto.structure_message))

    def published(self, uri: str) -> list[list]:
        return [
            m["params"]["diagnostics"]
            for m in self.received
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        ]

    async def next_publication(self, uri: str, count: int, timeout: float = 60.0) -> list:
        deadline = time.monotonic() + timeout
        while len(self.published(uri)) <= count:
            assert time.monotonic() < deadline, f"no diagnostics published for {uri}"
            await asyncio.sleep(0.001)
        return self.published(uri)[-1]


def held() -> int:
    """The bytes traced and alive, but for large blocks: a leak is many small objects,
    while a dictionary's table (the interned strings') is one block, reallocated now and
    then as entries come and go."""
    gc.collect()
    return sum(t.size for t in tracemalloc.take_snapshot().traces if t.size < 64 * 1024)


def did_change(uri: str, version: int, text: str) -> dict:
    return {
        "method": "textDocument/didChange",
        "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}],
        },
    }


@pytest.mark.asyncio
async def test_a_long_session_of_edits_leaves_nothing_behind(corpus, tmp_path, monkeypatch):
    """Every edit a new text (a comment that changes): pygls forgets the futures of the
    handlers that are done, no dry-run result is kept per text (nor added to the cache), and
    the memory the session holds stops growing."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    server = build_server(Options(cache_dir=str(tmp_path / "cache")), debounce=0)
    client = Client(server)
    uri = from_fs_path(str(corpus / SCENARIO))
    base = (corpus / SCENARIO).read_text()
    client.send(
        INITIALIZE
        | {
            "params": {
                "processId": None,
                "capabilities": {},
                "rootUri": None,
                "workspaceFolders": [{"uri": from_fs_path(str(corpus)), "name": "c"}],
            }
        }
    )
    client.send(INITIALIZED)
    client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": base}
            },
        }
    )
    first = await client.next_publication(uri, 0)
    edits = 0

    async def edit(n: int) -> list:
        nonlocal edits
        for _ in range(n):
            edits += 1
            count = len(client.published(uri))
            client.send(did_change(uri, edits + 1, base + f"# edit {edits}\n"))
            last = await client.next_publication(uri, count)
            client.received.clear()
        return last

    try:
        await edit(20)
        tracemalloc.start()
        await edit(KEPT + 20)  # what stays alive all traced
        before = held()
        last = await edit(200)
        grown = held() - before
    finally:
        tracemalloc.stop()
        server.worker.shutdown()
    assert last == first  # a comment changes no diagnostic
    # what pygls holds of the handlers it ran: pygls' own didChange and ours, of the last
    # edit and at most of the one before (its diagnostics are out before it is done)
    assert len(server.protocol._request_futures) <= 4
    state = server.roots[str(corpus)]
    assert state.ctx.cache is state.cache  # nothing the edits compute is kept per text
    assert grown < 32 * 1024, f"{grown} bytes more after 200 edits"
