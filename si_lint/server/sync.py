"""The notifications the server reacts to: initialisation, the open documents, the workspace
(watched files, workspace folders), settings taken live (``settings.py``), and pull
diagnostics. A client that pulls and takes ``workspace/diagnostic/refresh``
(:func:`can_pull`) gets an open document's diagnostics when it asks, never pushed (closed
files are pushed; work it did not ask for ends with a refresh); every other client gets
every diagnostic pushed and is not offered ``diagnosticProvider``: never the same findings
twice."""

from __future__ import annotations

import os
from collections.abc import Set as AbstractSet

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.uris import from_fs_path, to_fs_path

from .server import SiLintServer, path_of
from .settings import SECTION, carries_ours, parse

DIAGNOSTIC_OPTIONS = T.DiagnosticOptions(
    identifier="si-lint", inter_file_dependencies=True, workspace_diagnostics=False
)


def can_pull(caps: T.ClientCapabilities) -> bool:
    """The client pulls and can be told to pull again: without a refresh, what the server
    finds unasked would not reach an open document (Neovim 0.11 pulls on open and change)."""
    td, ws = caps.text_document, caps.workspace
    return bool(td and td.diagnostic and ws and ws.diagnostics and ws.diagnostics.refresh_support)


def warn(ls: SiLintServer, warnings: list[str]) -> None:
    for w in warnings:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, w))


async def take_settings(ls: SiLintServer, raw, *, ask: bool) -> None:
    """New settings from the client (``raw``, or asked for when ``ask``) applied."""
    ws = ls.client_capabilities.workspace
    if ask and ws and ws.configuration:
        item = T.ConfigurationItem(section=SECTION)
        try:
            got = await ls.workspace_configuration_async(T.ConfigurationParams(items=[item]))
            raw = got[0] if got else None
        except JsonRpcException:
            raw = None
    ls.client_settings, warnings = parse(raw)
    items, more = await ls.run(ls.apply_settings) or ([], [])
    warn(ls, warnings + more)
    # the open documents were checked again: published even when nothing changed
    after_unasked_work(ls, items, force=set(ls.workspace.text_documents))


def after_unasked_work(
    ls: SiLintServer, items: list[tuple[str, list]], force: AbstractSet[str] = frozenset()
) -> None:
    if items:
        ls.publish(items, force=force)
        if ls.pull:
            ls.workspace_diagnostic_refresh(None)


def register_live(server: SiLintServer) -> None:
    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def changed(ls: SiLintServer, params: T.DidChangeConfigurationParams):
        # the settings in the notification when it carries them, else asked for
        await take_settings(ls, params.settings, ask=not carries_ours(params.settings))

    @server.feature(T.TEXT_DOCUMENT_DIAGNOSTIC, DIAGNOSTIC_OPTIONS)
    async def pulled(ls: SiLintServer, params: T.DocumentDiagnosticParams):
        uri = params.text_document.uri
        doc = ls.workspace.text_documents.get(uri)
        items = await ls.run(ls.check_buffer, uri, doc.source if doc is not None else None) or []
        ls.publish([i for i in items if i[0] != uri])
        own: list = next((f for u, f in items if u == uri), [])
        return T.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(uri, own) or [])


WATCHED = ("**/*.yaml", "**/*.yml", "**/*.json", "**/si-lint.toml", "**/pyproject.toml")

WATCH = T.Registration(
    id="si-lint-watch",
    method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
    register_options=T.DidChangeWatchedFilesRegistrationOptions(
        watchers=[T.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
    ),
)


async def _sync_disk(ls: SiLintServer, uri: str) -> None:
    """For a client that pulls: files changed on disk re-checked; asked to pull again."""
    folder = ls.folder_of(path_of(uri))
    if folder in ls.roots:
        after_unasked_work(ls, await ls.run(ls.sync_disk, folder) or [])


def watched_changes(ls: SiLintServer, changes: list[T.FileEvent]) -> list[tuple[str, list]]:
    folders = {ls.folder_of(path_of(ev.uri)) for ev in changes} & set(ls.roots)
    return [item for folder in sorted(folders) for item in ls.sync_disk(folder)]


def register(server: SiLintServer) -> None:
    @server.feature(T.SHUTDOWN)
    def shutdown(ls: SiLintServer, params: None):
        ls.shut_down = True

    warnings: list[str] = []

    @server.feature(T.INITIALIZE)
    def initialize(ls: SiLintServer, params: T.InitializeParams):
        root = (params.root_uri and to_fs_path(params.root_uri)) or params.root_path
        if not ls.folders and root:  # no workspace folder: the root is the one
            root = os.path.abspath(root)
            ls.workspace.add_folder(T.WorkspaceFolder(from_fs_path(root) or root, root))
        ls.pull = can_pull(params.capabilities)
        if not ls.pull:  # not advertised (diagnosticProvider): the client takes pushes only
            ls.protocol.fm.features.pop(T.TEXT_DOCUMENT_DIAGNOSTIC, None)
        ls.init_settings, warnings[:] = parse(params.initialization_options)
        warnings.extend(ls.apply_settings()[1])  # no root is resident yet: nothing is checked

    @server.feature(T.INITIALIZED)
    async def initialized(ls: SiLintServer, params: T.InitializedParams):
        warn(ls, warnings)
        ws = ls.client_capabilities.workspace
        if ws and ws.configuration:
            await take_settings(ls, None, ask=True)
        if ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration:
            try:
                await ls.client_register_capability_async(T.RegistrationParams([WATCH]))
            except JsonRpcException:
                pass  # the client refused: files changed outside the editor go unseen

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: SiLintServer, params: T.DidChangeWatchedFilesParams):
        items = await ls.run(watched_changes, ls, params.changes)
        after_unasked_work(ls, items or [])

    @server.feature(T.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(ls: SiLintServer, params: T.DidChangeWorkspaceFoldersParams):
        for wf in params.event.removed:
            p = path_of(wf.uri)
            ls.roots.pop(p, None)
            withdrawn = [u for u in ls.published if (to_fs_path(u) or "").startswith(p + os.sep)]
            ls.publish([(u, []) for u in withdrawn if u not in ls.workspace.text_documents])


def register_documents(server: SiLintServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: SiLintServer, params: T.DidOpenTextDocumentParams):
        uri = params.text_document.uri
        if ls.pull:  # the client asks for this document's diagnostics itself
            if uri in ls.published:  # pushed while it was closed: withdrawn
                ls.published.pop(uri)
                ls.text_document_publish_diagnostics(
                    T.PublishDiagnosticsParams(uri=uri, diagnostics=[])
                )
            await _sync_disk(ls, uri)
            return
        await ls.schedule(uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: SiLintServer, params: T.DidChangeTextDocumentParams):
        if not ls.pull:
            await ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE, T.SaveOptions(include_text=False))
    async def did_save(ls: SiLintServer, params: T.DidSaveTextDocumentParams):
        uri = params.text_document.uri
        if ls.pull or not uri.endswith((".yaml", ".yml", ".json")):  # (a configuration file)
            await _sync_disk(ls, uri)
        else:
            await ls.schedule(uri, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: SiLintServer, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        ls.generation[uri] = ls.generation.get(uri, 0) + 1
        items = await ls.run(ls.check_buffer, uri, None)
        ls.publish(items or ([(uri, [])] if uri in ls.published else []))
