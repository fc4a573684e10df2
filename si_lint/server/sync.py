"""The notifications the server reacts to: initialisation, the open documents and the
workspace (watched files, workspace folders)."""

from __future__ import annotations

import os

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.uris import from_fs_path, to_fs_path

from . import live
from .server import SiLintServer, path_of
from .settings import parse

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
        live.after_unasked_work(ls, await ls.run(ls.sync_disk, folder) or [])


def watched_changes(ls: SiLintServer, changes: list[T.FileEvent]) -> list[tuple[str, list]]:
    """The resident roots the client saw files change in, compared with the disk again."""
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
        ls.pull = live.can_pull(params.capabilities)
        if not ls.pull:  # not advertised (diagnosticProvider): the client takes pushes only
            ls.protocol.fm.features.pop(T.TEXT_DOCUMENT_DIAGNOSTIC, None)
        ls.init_settings, warnings[:] = parse(params.initialization_options)
        warnings.extend(ls.apply_settings()[1])  # no root is resident yet: nothing is checked

    @server.feature(T.INITIALIZED)
    async def initialized(ls: SiLintServer, params: T.InitializedParams):
        live.warn(ls, warnings)
        ws = ls.client_capabilities.workspace
        if ws and ws.configuration:
            await live.take_settings(ls, None, ask=True)
        if ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration:
            try:
                await ls.client_register_capability_async(T.RegistrationParams([WATCH]))
            except JsonRpcException:
                pass  # the client refused: files changed outside the editor go unseen

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: SiLintServer, params: T.DidChangeWatchedFilesParams):
        items = await ls.run(watched_changes, ls, params.changes)
        live.after_unasked_work(ls, items or [])

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
