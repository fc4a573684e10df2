"""Settings taken live (``settings.py``: ``initializationOptions``,
``workspace/didChangeConfiguration`` and ``workspace/configuration``) and pull diagnostics
(``textDocument/diagnostic``, LSP 3.17).

Push or pull, decided by the client's capabilities (as ruff's server decides, LSP 3.17):
a client that asks for diagnostics itself (``textDocument.diagnostic``) and can be told to
ask again (``workspace.diagnostics.refreshSupport``, :func:`can_pull`) gets an open
document's diagnostics when it asks — after each change; ``interFileDependencies`` is
true, so it asks again for the other open documents too — and never pushed; the server
pushes only for closed files whose findings an edit changed (a fixture of the scenario
being edited), and after work the client did not ask for (a setting changed, a file
changed on disk) sends ``workspace/diagnostic/refresh``. Every other client gets every
diagnostic pushed (``textDocument/publishDiagnostics``) and is not offered
``diagnosticProvider``, so that it never holds the same findings twice."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException

from .server import SiLintServer
from .settings import SECTION, carries_ours, parse

DIAGNOSTIC_OPTIONS = T.DiagnosticOptions(
    identifier="si-lint", inter_file_dependencies=True, workspace_diagnostics=False
)


def on_initialize(ls: SiLintServer, params: T.InitializeParams) -> list[str]:
    """The client's way of taking diagnostics and its ``initializationOptions``: warnings
    for the user (shown once the session is initialised)."""
    caps = params.capabilities
    ls.pull = can_pull(caps)
    if not ls.pull:  # not advertised (diagnosticProvider): the client takes pushes only
        ls.protocol.fm.features.pop(T.TEXT_DOCUMENT_DIAGNOSTIC, None)
    ls.init_settings, warnings = parse(params.initialization_options)
    _, more = ls.apply_settings()  # no root is resident yet: nothing is checked
    return warnings + more


def can_pull(caps: T.ClientCapabilities) -> bool:
    """The client asks for diagnostics (``textDocument.diagnostic``) and can be told to
    ask again (``workspace.diagnostics.refreshSupport``): without that, what the server
    finds unasked (a file changed on disk, a setting) could not reach an open document
    until its next edit (Neovim 0.11 pulls on open and change only, with no refresh)."""
    td, ws = caps.text_document, caps.workspace
    return bool(td and td.diagnostic and ws and ws.diagnostics and ws.diagnostics.refresh_support)


def _can_pull_configuration(ls: SiLintServer) -> bool:
    ws = ls.client_capabilities.workspace
    return bool(ws and ws.configuration)


def warn(ls: SiLintServer, warnings: list[str]) -> None:
    for w in warnings:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, w))


async def _ask_configuration(ls: SiLintServer):
    try:
        got = await ls.workspace_configuration_async(
            T.ConfigurationParams(items=[T.ConfigurationItem(section=SECTION)])
        )
    except JsonRpcException:
        return None
    return got[0] if got else None


async def take_settings(ls: SiLintServer, raw, *, ask: bool) -> None:
    """New settings from the client (``raw``; or asked for with ``workspace/configuration``
    when ``ask`` and the client answers that): applied, the open documents checked again."""
    if ask and _can_pull_configuration(ls):
        raw = await _ask_configuration(ls)
    ls.client_settings, warnings = parse(raw)
    result = await ls.run(ls.apply_settings)
    items, more = result if result is not None else ([], [])
    warn(ls, warnings + more)
    # the open documents were checked again: published even when nothing changed
    after_unasked_work(ls, items, force=set(ls.workspace.text_documents))


def after_unasked_work(
    ls: SiLintServer, items: list[tuple[str, list]], force: AbstractSet[str] = frozenset()
) -> None:
    """Publish what changed; a client that pulls is asked to pull again."""
    if items:
        ls.publish(items, force=force)
    if ls.pull and items:
        ls.workspace_diagnostic_refresh(None)


def register_configuration(server: SiLintServer) -> None:
    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def changed(ls: SiLintServer, params: T.DidChangeConfigurationParams):
        # the settings in the notification when it carries them, else asked for
        raw = params.settings
        await take_settings(ls, raw, ask=not carries_ours(raw))


def register_pull_diagnostics(server: SiLintServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_DIAGNOSTIC, DIAGNOSTIC_OPTIONS)
    async def pulled(ls: SiLintServer, params: T.DocumentDiagnosticParams):
        uri = params.text_document.uri
        doc = ls.workspace.text_documents.get(uri)
        items = await ls.run(ls.check_buffer, uri, doc.source if doc is not None else None)
        items = items or []
        ls.publish([i for i in items if i[0] != uri])
        own: list = next((f for u, f in items if u == uri), [])
        return T.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(uri, own) or [])
