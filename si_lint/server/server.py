"""The language server object: the corpus roots it keeps resident, the diagnostics it has
published, and the one worker thread all work on a root's state runs in.

The LSP features are registered on it by :func:`si_lint.server.lsp.build_server`
(``sync.py``: the document and workspace notifications; ``requests.py``: hover,
definition, completion and code actions)."""

from __future__ import annotations

import asyncio
import os
import traceback
from collections.abc import Set as AbstractSet
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..findings import Finding
from ..pipeline import Options
from .diagnostics import to_diagnostic
from .state import CorpusState


class Protocol(LanguageServerProtocol):
    """pygls' protocol, less a leak. pygls keeps the future of each handler it runs in
    ``_request_futures`` under the message's id (what ``$/cancelRequest`` and ``shutdown``
    cancel) and forgets it only when it answers a request: the futures of notifications
    (every ``didChange``) and of the steps of its built-in handlers, under ids of their own,
    stayed for the session (~3.3 MB per 1,000 edits). Here the finished ones are dropped
    each time a handler starts: what stays is what runs, and the last message's handlers.
    (Not from a done-callback: ``shutdown`` cancels while it walks the table.)"""

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        table = self._request_futures
        for done in [k for k, f in table.items() if f.done()]:
            del table[done]
        super()._execute_handler(msg_id, handler, callback, args, kwargs)


class SiLintServer(LanguageServer):
    def __init__(self, options: Options | None = None, debounce: float = 0.05):
        super().__init__(
            "si-lint",
            __version__,
            text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
            protocol_cls=Protocol,
        )
        self.options = options or Options()
        self.debounce = debounce
        self.roots: dict[str, CorpusState] = {}  # folder (absolute) -> state
        self.baseline: dict[str, dict[str, list[Finding]]] = {}  # folder -> relpath -> findings
        self.published: dict[str, tuple] = {}  # uri -> last published diagnostics (as a key)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="si-lint")
        self.generation: dict[str, int] = {}  # uri -> number of its latest change
        self.folders: list[str] = []
        self.shut_down = False  # a `shutdown` request came: the exit status will be 0

    # ---------------------------------------------------------------------------
    # roots

    def folder_of(self, abspath: str) -> str:
        best = None
        for f in self.folders:
            if abspath == f or abspath.startswith(f.rstrip(os.sep) + os.sep):
                if best is None or len(f) > len(best):
                    best = f
        if best is not None:
            return best
        for f in self.roots:  # a root made earlier for a file outside the folders
            if self.roots[f].owns(abspath):
                return f
        return os.path.dirname(abspath)

    def state_for(self, abspath: str) -> CorpusState:
        """The resident state of the root that holds ``abspath`` (loaded on first use)."""
        folder = self.folder_of(abspath)
        st = self.roots.get(folder)
        if st is None:
            st = CorpusState(folder, Options(**vars(self.options)))
            open_docs = {to_fs_path(u) or "": d for u, d in self.workspace.text_documents.items()}
            for path, doc in open_docs.items():
                if path:
                    st.overrides[os.path.abspath(path)] = doc.source.encode("utf-8")
            st.load()
            self.roots[folder] = st
            self.baseline[folder] = {r: list(v) for r, v in st.findings.items()}
            if not st.owns(abspath):
                st.overrides.pop(abspath, None)
        return st

    def reload(self, folder: str) -> list[tuple[str, list]]:
        st = self.roots.pop(folder, None)
        stale = list(self.published) if st is not None else []
        out: list[tuple[str, list]] = []
        new = self.state_for(folder)
        for uri in stale:
            path = to_fs_path(uri) or ""
            if self.folder_of(path) == folder:
                out.append((uri, []))
        out += self.publishable(new, set(new.findings))
        return out

    # ---------------------------------------------------------------------------
    # diagnostics

    def lines_of(self, st: CorpusState, abspath: str) -> list[str]:
        """The text of a file as the client sees it: its open buffer, else the file."""
        uri = from_fs_path(abspath)
        doc = self.workspace.text_documents.get(uri) if uri else None
        text = doc.source if doc is not None else (st.text_of(abspath) or "")
        return text.split("\n")

    def publishable(self, st: CorpusState, rels) -> list[tuple[str, list]]:
        """(uri, findings) to publish for these files of ``st``: open documents always,
        other files when their findings differ from the root's baseline, or to withdraw
        what was published for them."""
        base = self.baseline.get(str(st.folder), {})
        out = []
        for rel in sorted(rels):
            abspath = st.abspath_of(rel)
            uri = from_fs_path(abspath)
            if uri is None or os.path.isdir(abspath):
                continue
            current = st.findings.get(rel, [])
            if uri in self.workspace.text_documents:
                out.append((uri, current))
            elif current != base.get(rel, []):
                out.append((uri, current))
            elif uri in self.published:
                out.append((uri, []))
        return out

    def publish(self, items: list[tuple[str, list]], force: AbstractSet[str] = frozenset()) -> None:
        codec = self.workspace.position_codec
        for uri, findings in items:
            path = to_fs_path(uri) or ""
            st = self.roots.get(self.folder_of(path))
            if st is None:
                continue
            lines = self.lines_of(st, path)
            diags = [
                to_diagnostic(
                    f, lines, codec, st.abspath_of, partial(self.lines_of, st), from_fs_path
                )
                for f in findings
            ]
            key = tuple(
                (d.code, d.range.start.line, d.range.start.character, d.message) for d in diags
            )
            if (
                uri not in force
                and self.published.get(uri, ()) == key
                and (key or uri not in self.published)
            ):
                continue
            if diags or uri in self.workspace.text_documents:
                self.published[uri] = key
            else:
                self.published.pop(uri, None)
            doc = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(
                    uri=uri, diagnostics=diags, version=doc.version if doc else None
                )
            )

    # ---------------------------------------------------------------------------
    # running work off the event loop

    async def run(self, fn, *args):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, lambda: self._guarded(fn, *args))

    def _guarded(self, fn, *args):
        """The one guard: whatever a feature raises is logged to the client, never sent
        as a crash (a crashing check is already an SI000 finding)."""
        try:
            return fn(*args)
        except Exception:
            self.window_log_message(
                T.LogMessageParams(T.MessageType.Error, "si-lint: " + traceback.format_exc())
            )
            return None

    def check_buffer(self, uri: str, text: str | None) -> list[tuple[str, list]]:
        path = os.path.abspath(to_fs_path(uri) or "")
        if not path.endswith((".yaml", ".yml", ".json")):
            return []
        st = self.state_for(path)
        if not st.owns(path):
            return []
        outcome = st.set_buffer(path, text)
        items = self.publishable(
            st, outcome.touched | ({st.files[path].relpath} if path in st.files else set())
        )
        if outcome.full:
            items += self._withdrawn(st, {i[0] for i in items})
        return items

    def _withdrawn(self, st: CorpusState, publishing: set[str]) -> list[tuple[str, list]]:
        """Empty diagnostics for the closed files of ``st`` that were published and are no
        longer part of its corpus (after an update of the whole corpus)."""
        return [
            (u, [])
            for u in list(self.published)
            if u not in publishing
            and self.folder_of(to_fs_path(u) or "") == str(st.folder)
            and st.findings.get(os.path.relpath(to_fs_path(u) or "", st.cwd).replace(os.sep, "/"))
            is None
            and u not in self.workspace.text_documents
        ]

    async def schedule(self, uri: str, delay: float) -> None:
        gen = self.generation.get(uri, 0) + 1
        self.generation[uri] = gen
        if delay:
            await asyncio.sleep(delay)
            if self.generation.get(uri) != gen:
                return  # a newer change is on its way
        doc = self.workspace.text_documents.get(uri)
        text = doc.source if doc is not None else None
        items = await self.run(self.check_buffer, uri, text)
        if items is not None and self.generation.get(uri) == gen:
            self.publish(items, force={uri})
        elif items:
            self.publish([i for i in items if i[0] != uri])
