"""``si-lint server``: the Language Server (LSP 3.17 over stdio, pygls).

* Each workspace folder is a corpus root of its own (SPEC §9: the folder's configuration
  decides the root); a file outside every folder gets the root ``check`` would give it.
* Diagnostics on open, change (debounced) and save: the buffer is checked against the
  rest of the corpus on disk by :class:`~si_lint.server.state.CorpusState` — the engine
  of ``check`` kept resident. Published: every open document, and every other file whose
  findings differ from what ``check`` gave on disk when the root was loaded (a fixture
  whose scenario is being edited, say); such a file is withdrawn (empty diagnostics) as
  soon as its findings are back to that.
* All work on a root's state runs in one worker thread, one request at a time; the event
  loop only reads and writes messages. Nothing a check raises reaches the client: a
  crashing check is an SI000 finding, anything else is logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..findings import Finding
from ..pipeline import Options
from . import features
from .state import CorpusState

log = logging.getLogger("si-lint.server")

SEVERITY = {
    "error": T.DiagnosticSeverity.Error,
    "warning": T.DiagnosticSeverity.Warning,
    "info": T.DiagnosticSeverity.Information,
}
CONFIG_NAMES = ("si-lint.toml", "pyproject.toml")
FIX_ALL = "source.fixAll.si-lint"


class SiLintServer(LanguageServer):
    def __init__(self, options: Options | None = None, debounce: float = 0.05):
        super().__init__(
            "si-lint", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental
        )
        self.options = options or Options()
        self.debounce = debounce
        self.roots: dict[str, CorpusState] = {}  # folder (absolute) -> state
        self.baseline: dict[str, dict[str, list[Finding]]] = {}  # folder -> relpath -> findings
        self.published: dict[str, tuple] = {}  # uri -> last published diagnostics (as a key)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="si-lint")
        self._generation: dict[str, int] = {}
        self.folders: list[str] = []

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
        out = []
        new = self.state_for(folder if os.path.isdir(folder) else folder)
        for uri in stale:
            path = to_fs_path(uri) or ""
            if self.folder_of(path) == folder:
                out.append((uri, []))
        out += self._publishable(new, set(new.findings), full=True)
        return out

    # ---------------------------------------------------------------------------
    # diagnostics

    def _lines(self, st: CorpusState, abspath: str) -> list[str]:
        uri = from_fs_path(abspath)
        doc = self.workspace.text_documents.get(uri) if uri else None
        text = doc.source if doc is not None else (st.text_of(abspath) or "")
        return text.split("\n")

    def _range(self, lines: list[str], line: int, col: int, end_line=None, end_col=None) -> T.Range:
        from ..report.sarif import token_end

        l0 = max(line - 1, 0)
        src = lines[l0] if l0 < len(lines) else ""
        src = src.rstrip("\r")
        if end_line is None:
            end_line, end_col = line, token_end(src, col)
        e0 = max(end_line - 1, 0)
        esrc = (lines[e0] if e0 < len(lines) else "").rstrip("\r")
        codec = self.workspace.position_codec
        start = codec.position_to_client_units([src], T.Position(0, max(col - 1, 0)))
        end = codec.position_to_client_units(
            [esrc], T.Position(0, max((end_col or col + 1) - 1, 0))
        )
        return T.Range(T.Position(l0, start.character), T.Position(e0, end.character))

    def to_diagnostic(self, st: CorpusState, f: Finding, lines: list[str]) -> T.Diagnostic:
        related = []
        for r in f.related:
            rpath = st.abspath_of(r.path)
            rlines = self._lines(st, rpath)
            related.append(
                T.DiagnosticRelatedInformation(
                    location=T.Location(
                        uri=from_fs_path(rpath), range=self._range(rlines, r.line, r.column)
                    ),
                    message=r.message or f.code,
                )
            )
        message = f.message + (f"\nhelp: {f.help}" if f.help else "")
        return T.Diagnostic(
            range=self._range(lines, f.line, f.column, f.end_line, f.end_column),
            message=message,
            severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
            code=f.code,
            source="si-lint",
            related_information=related or None,
            data={"fixable": bool(features_fixes(f))},
        )

    def _publishable(self, st: CorpusState, rels, full: bool = False) -> list[tuple[str, list]]:
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

    def publish(self, items: list[tuple[str, list]], force: set[str] = frozenset()) -> None:
        for uri, findings in items:
            path = to_fs_path(uri) or ""
            st = self.roots.get(self.folder_of(path))
            if st is None:
                continue
            lines = self._lines(st, path)
            diags = [self.to_diagnostic(st, f, lines) for f in findings]
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
        items = self._publishable(
            st, outcome.touched | ({st.files[path].relpath} if path in st.files else set())
        )
        if outcome.full:
            items += [
                (u, [])
                for u in list(self.published)
                if u not in {i[0] for i in items}
                and self.folder_of(to_fs_path(u) or "") == str(st.folder)
                and st.findings.get(
                    os.path.relpath(to_fs_path(u) or "", st.cwd).replace(os.sep, "/")
                )
                is None
                and u not in self.workspace.text_documents
            ]
        return items

    async def schedule(self, uri: str, delay: float) -> None:
        gen = self._generation.get(uri, 0) + 1
        self._generation[uri] = gen
        if delay:
            await asyncio.sleep(delay)
            if self._generation.get(uri) != gen:
                return  # a newer change is on its way
        doc = self.workspace.text_documents.get(uri)
        text = doc.source if doc is not None else None
        items = await self.run(self.check_buffer, uri, text)
        if items is not None and self._generation.get(uri) == gen:
            self.publish(items, force={uri})
        elif items:
            self.publish([i for i in items if i[0] != uri])


def features_fixes(f: Finding) -> list:
    from ..fix import fixes_of

    return fixes_of(f.fix)


def _root_uri_folders(params: T.InitializeParams) -> list[str]:
    out = []
    for wf in params.workspace_folders or []:
        p = to_fs_path(wf.uri)
        if p:
            out.append(os.path.abspath(p))
    if not out and params.root_uri:
        p = to_fs_path(params.root_uri)
        if p:
            out.append(os.path.abspath(p))
    if not out and params.root_path:
        out.append(os.path.abspath(params.root_path))
    return out


def build_server(options: Options | None = None, debounce: float = 0.05) -> SiLintServer:
    server = SiLintServer(options, debounce)

    @server.feature(T.INITIALIZE)
    def initialize(ls: SiLintServer, params: T.InitializeParams):
        ls.folders = _root_uri_folders(params)
        opts = (
            params.initialization_options if isinstance(params.initialization_options, dict) else {}
        )
        if isinstance(opts.get("debounce"), (int, float)) and 0 <= opts["debounce"] <= 10_000:
            ls.debounce = opts["debounce"] / 1000.0

    @server.feature(T.INITIALIZED)
    async def initialized(ls: SiLintServer, params: T.InitializedParams):
        caps = ls.client_capabilities
        dyn = (
            caps.workspace
            and caps.workspace.did_change_watched_files
            and caps.workspace.did_change_watched_files.dynamic_registration
        )
        if dyn:
            watchers = [
                T.FileSystemWatcher(glob_pattern=g)
                for g in (
                    "**/*.yaml",
                    "**/*.yml",
                    "**/*.json",
                    "**/si-lint.toml",
                    "**/pyproject.toml",
                )
            ]
            try:
                await ls.client_register_capability_async(
                    T.RegistrationParams(
                        registrations=[
                            T.Registration(
                                id="si-lint-watch",
                                method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                register_options=T.DidChangeWatchedFilesRegistrationOptions(
                                    watchers=watchers
                                ),
                            )
                        ]
                    )
                )
            except Exception:
                pass

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: SiLintServer, params: T.DidOpenTextDocumentParams):
        await ls.schedule(params.text_document.uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: SiLintServer, params: T.DidChangeTextDocumentParams):
        await ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
    async def did_save(ls: SiLintServer, params: T.DidSaveTextDocumentParams):
        path = os.path.abspath(to_fs_path(params.text_document.uri) or "")
        if os.path.basename(path) in CONFIG_NAMES:
            items = await ls.run(ls.reload, ls.folder_of(path))
            if items:
                ls.publish(items)
            return
        await ls.schedule(params.text_document.uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: SiLintServer, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        ls._generation[uri] = ls._generation.get(uri, 0) + 1
        items = await ls.run(ls.check_buffer, uri, None)
        if items:
            ls.publish(items)
        elif uri in ls.published:
            ls.publish([(uri, [])])

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: SiLintServer, params: T.DidChangeWatchedFilesParams):
        def work():
            items = []
            reloads = set()
            changed: dict[str, list[str]] = {}
            for ev in params.changes:
                path = os.path.abspath(to_fs_path(ev.uri) or "")
                if ev.uri in ls.workspace.text_documents:
                    continue  # the buffer wins
                folder = ls.folder_of(path)
                if folder not in ls.roots:
                    continue
                if os.path.basename(path) in CONFIG_NAMES:
                    reloads.add(folder)
                else:
                    changed.setdefault(folder, []).append(path)
            for folder in sorted(reloads):
                items += ls.reload(folder)
            for folder, paths in sorted(changed.items()):
                if folder in reloads:
                    continue
                st = ls.roots[folder]
                outcome = st.update(paths)
                items += ls._publishable(st, outcome.touched)
            return items

        items = await ls.run(work)
        if items:
            ls.publish(items)

    @server.feature(T.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(ls: SiLintServer, params: T.DidChangeWorkspaceFoldersParams):
        for wf in params.event.removed:
            p = os.path.abspath(to_fs_path(wf.uri) or "")
            ls.folders = [f for f in ls.folders if f != p]
            ls.roots.pop(p, None)
            withdrawn = [u for u in ls.published if (to_fs_path(u) or "").startswith(p + os.sep)]
            ls.publish([(u, []) for u in withdrawn if u not in ls.workspace.text_documents])
        for wf in params.event.added:
            p = os.path.abspath(to_fs_path(wf.uri) or "")
            if p not in ls.folders:
                ls.folders.append(p)

    # ---------------------------------------------------------------------------
    # language features

    def _request(ls: SiLintServer, uri: str):
        path = os.path.abspath(to_fs_path(uri) or "")
        doc = ls.workspace.get_text_document(uri)
        return path, doc

    def _server_pos(doc, position: T.Position) -> tuple[int, int]:
        p = doc.position_codec.position_from_client_units(
            doc.lines, T.Position(position.line, position.character)
        )
        return p.line, p.character

    def _location(ls: SiLintServer, target) -> T.Location | None:
        if target is None:
            return None
        path, line0, char0 = target
        uri = from_fs_path(path)
        doc = ls.workspace.text_documents.get(uri)
        if doc is not None:
            lines = doc.lines
        else:
            try:
                lines = (
                    Path(path)
                    .read_text(encoding="utf-8", errors="replace")
                    .splitlines(keepends=True)
                )
            except OSError:
                lines = []
        codec = ls.workspace.position_codec
        pos = (
            codec.position_to_client_units(lines, T.Position(line0, char0))
            if lines
            else T.Position(line0, char0)
        )
        return T.Location(uri=uri, range=T.Range(pos, pos))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls: SiLintServer, params: T.HoverParams):
        path, doc = _request(ls, params.text_document.uri)
        line0, char0 = _server_pos(doc, params.position)
        text = doc.source

        def work():
            return features.hover(ls.state_for(path), path, text, line0, char0)

        md = await ls.run(work)
        if not md:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=md))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: SiLintServer, params: T.DefinitionParams):
        path, doc = _request(ls, params.text_document.uri)
        line0, char0 = _server_pos(doc, params.position)
        text = doc.source
        target = await ls.run(
            lambda: features.definition(ls.state_for(path), path, text, line0, char0)
        )
        return _location(ls, target)

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[":", " "]))
    async def completion(ls: SiLintServer, params: T.CompletionParams):
        path, doc = _request(ls, params.text_document.uri)
        line0, char0 = _server_pos(doc, params.position)
        text = doc.source
        items = await ls.run(
            lambda: features.completion(ls.state_for(path), path, text, line0, char0)
        )
        if not items:
            return None
        return T.CompletionList(
            is_incomplete=False,
            items=[
                T.CompletionItem(
                    label=i.label,
                    detail=i.detail or None,
                    kind=T.CompletionItemKind.Property
                    if i.kind == "property"
                    else T.CompletionItemKind.Value,
                    insert_text=i.insert or i.label,
                )
                for i in items
            ],
        )

    @server.feature(
        T.TEXT_DOCUMENT_CODE_ACTION,
        T.CodeActionOptions(
            code_action_kinds=[T.CodeActionKind.QuickFix, T.CodeActionKind.SourceFixAll, FIX_ALL]
        ),
    )
    async def code_action(ls: SiLintServer, params: T.CodeActionParams):
        uri = params.text_document.uri
        path, doc = _request(ls, uri)
        text = doc.source
        first, last = params.range.start.line, params.range.end.line
        only = params.context.only

        def work():
            st = ls.state_for(path)
            if st.overrides.get(path) != text.encode("utf-8"):
                st.set_buffer(path, text)  # findings of exactly this text
            return features.code_actions(st, path, text, first, last)

        actions = await ls.run(work) or []
        out = []
        diags = {(d.code, d.range.start.line): d for d in params.context.diagnostics or []}
        for a in actions:
            kind = FIX_ALL if a.kind == "source.fixAll" else T.CodeActionKind.QuickFix
            if only and not any(kind == k or kind.startswith(str(k) + ".") for k in only):
                continue
            out.append(
                T.CodeAction(
                    title=a.title,
                    kind=kind,
                    is_preferred=a.preferred or None,
                    diagnostics=[d for (c, _l), d in diags.items() if c in a.codes] or None,
                    edit=T.WorkspaceEdit(changes={uri: [_edit(doc, text, a.new_text)]}),
                )
            )
        return out

    return server


def _edit(doc, old: str, new: str) -> T.TextEdit:
    """The smallest whole-line edit that turns ``old`` into ``new``."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    j = 0
    while j < len(a) - i and j < len(b) - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    start = T.Position(i, 0)
    if len(a) - j >= len(a) and a and not a[-1].endswith(("\n", "\r")):
        last = a[-1]
        codec = doc.position_codec
        end = T.Position(len(a) - 1, codec.client_num_units(last))
    else:
        end = T.Position(len(a) - j, 0)
    return T.TextEdit(range=T.Range(start, end), new_text="".join(b[i : len(b) - j]))


def serve(options: Options | None = None) -> None:
    logging.basicConfig(level=logging.WARNING)
    server = build_server(options)
    server.start_io()


__all__ = ["SiLintServer", "build_server", "serve", "Any"]
