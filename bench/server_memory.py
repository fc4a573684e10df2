"""`si-lint server`'s resident memory over many edits of one buffer (issue 41, item 5).

    python bench/server_memory.py                       # 10,000 edits, RSS every 1,000
    python bench/server_memory.py --edits 2000 --every 250 --mode alternate
    python bench/server_memory.py --trace 10 --edits 3000   # + where the memory went

It copies ``fixtures/corpus`` into a temporary directory, starts ``si-lint server`` there
(its own process, over stdio, driven by pygls' LSP client), opens a scenario and sends
``--edits`` ``didChange`` notifications of the whole buffer: ``--mode comment`` appends a
comment that changes with every edit (each text is new: the worst case for anything keyed
on text or content hash), ``--mode alternate`` switches between the scenario and the
scenario with the classic mistakes (diagnostics change every time). Every ``--wait``
edits it waits for the diagnostics of the last one; every ``--every`` edits it samples
the server's VmRSS (/proc/PID/status), after a short idle so the debounced work is done.

``--trace N`` runs the server under ``tracemalloc`` (N frames) and prints, at the end, the
allocations that grew most between the first sample and the last one (the server writes
them to a file when it gets SIGUSR1; nothing in si-lint itself is instrumented).

The verdict line: growth over the samples after the warm-up (the first ``--warmup``
edits), goal ±5 MB over 10,000 edits. Exit status 0 when met.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
GOAL_MB = 5.0


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"no VmRSS for {pid}")


def mistakes(text: str) -> str:
    out = text.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    return out.replace("exclude_tool_echo: true", "exclude_tool_echo: false")


def texts(base: str, mode: str, i: int) -> str:
    if mode == "comment":
        return base + f"# edit {i}\n"
    return mistakes(base) if i % 2 else base


async def drive(corpus: Path, args) -> dict:
    from lsprotocol import types as T
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    client = LanguageClient("si-lint-memory", "1")
    count: dict[str, int] = {}

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: T.PublishDiagnosticsParams):
        count[params.uri] = count.get(params.uri, 0) + 1

    @client.feature(T.WINDOW_LOG_MESSAGE)
    def logged(params):
        print(f"server: {params.message}", file=sys.stderr)

    cmd = [sys.executable, "-m", "si_lint.cli", "server"]
    if args.trace:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-traced", str(args.trace)]
    cmd += ["--no-cache"] if args.no_cache else []
    await client.start_io(*cmd, cwd=str(corpus))
    pid = client._server.pid
    await client.initialize_async(
        T.InitializeParams(
            capabilities=T.ClientCapabilities(),
            workspace_folders=[T.WorkspaceFolder(uri=from_fs_path(str(corpus)), name="memory")],
            initialization_options={"debounce": args.debounce},
        )
    )
    client.initialized(T.InitializedParams())
    path = corpus / SCENARIO
    uri = from_fs_path(str(path))
    base = path.read_text()

    async def settled(n: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while count.get(uri, 0) < n:
            if time.monotonic() > deadline:
                raise RuntimeError("no diagnostics published")
            await asyncio.sleep(0.002)

    client.text_document_did_open(
        T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "yaml", 1, base))
    )
    await settled(1)
    samples = [(0, rss_mb(pid))]
    t0 = time.monotonic()
    for i in range(1, args.edits + 1):
        before = count.get(uri, 0)
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(version=i + 1, uri=uri),
                [T.TextDocumentContentChangeWholeDocument(texts(base, args.mode, i))],
            )
        )
        if i % args.wait == 0:
            await settled(before + 1)
        if i % args.every == 0:
            await asyncio.sleep(0.3)  # the debounced check of the last edit is done
            samples.append((i, rss_mb(pid)))
            print(f"{i:6d} edits  VmRSS {samples[-1][1]:7.1f} MB", file=sys.stderr, flush=True)
            if args.trace and i == args.warmup:
                os.kill(pid, signal.SIGUSR1)  # the reference snapshot
    wall = time.monotonic() - t0
    if args.trace:
        os.kill(pid, signal.SIGUSR1)  # the diff against the reference
        await asyncio.sleep(2.0)
    await client.shutdown_async(None)
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), 30)
    await client.stop()
    after = [mb for n, mb in samples if n >= args.warmup]
    return {
        "edits": args.edits,
        "mode": args.mode,
        "seconds": round(wall, 1),
        "samples": samples,
        "growth_after_warmup_mb": round(after[-1] - after[0], 2) if len(after) > 1 else 0.0,
        "exit_status": code,
    }


# ------------------------------------------------------------------------------------------
# the server under tracemalloc (a separate process, started by ``drive``)


def serve_traced(frames: int, argv: list[str]) -> int:
    import tracemalloc

    tracemalloc.start(frames)
    out = Path("tracemalloc.txt").resolve()
    ref: list = []

    def dump(signum, frame):
        snap = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        if not ref:
            ref.append(snap)
            return
        stats = snap.compare_to(ref[0], "traceback")[:15]
        with out.open("w") as fh:
            for s in stats:
                fh.write(f"{s.size_diff / 1024:+10.1f} KiB {s.count_diff:+8d} blocks\n")
                for line in s.traceback.format()[-frames * 2 :]:
                    fh.write(f"    {line}\n")

    signal.signal(signal.SIGUSR1, dump)
    from si_lint.cli import main

    try:
        main(["server", *argv])
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def main(argv=None) -> int:
    if argv is None and sys.argv[1:2] == ["--serve-traced"]:
        return serve_traced(int(sys.argv[2]), sys.argv[3:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edits", type=int, default=10_000)
    ap.add_argument("--every", type=int, default=1_000, help="sample VmRSS every N edits")
    ap.add_argument("--warmup", type=int, default=1_000, help="edits before the baseline")
    ap.add_argument("--wait", type=int, default=1, help="wait for diagnostics every N edits")
    ap.add_argument("--mode", choices=["comment", "alternate"], default="comment")
    ap.add_argument("--debounce", type=float, default=0.0, help="the server's debounce, ms")
    ap.add_argument("--no-cache", action="store_true", help="run the server with --no-cache")
    ap.add_argument("--trace", type=int, default=0, help="tracemalloc frames (0: off)")
    ap.add_argument("--format", choices=["text", "json"], default="text")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="si-lint-server-memory-"))
    try:
        corpus = tmp / "corpus"
        shutil.copytree(
            REPO / "fixtures" / "corpus", corpus, ignore=shutil.ignore_patterns(".si-lint-cache")
        )
        result = asyncio.run(drive(corpus, args))
        if args.trace and (corpus / "tracemalloc.txt").exists():
            result["tracemalloc"] = (corpus / "tracemalloc.txt").read_text()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ok = abs(result["growth_after_warmup_mb"]) <= GOAL_MB
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['edits']} edits ({result['mode']}) in {result['seconds']} s")
        for n, mb in result["samples"]:
            print(f"  {n:6d} edits  VmRSS {mb:7.1f} MB")
        print(
            f"growth after {args.warmup} edits: {result['growth_after_warmup_mb']:+.2f} MB "
            f"(goal within ±{GOAL_MB:.0f} MB: {'met' if ok else 'NOT met'}); "
            f"exit status after shutdown + exit: {result['exit_status']}"
        )
        if "tracemalloc" in result:
            print("largest growth after the warm-up (tracemalloc):")
            print(result["tracemalloc"])
    return 0 if ok and result["exit_status"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
