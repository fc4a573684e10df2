"""Settings taken live (``settings.py``) and pull diagnostics. A client that pulls and
takes ``workspace/diagnostic/refresh`` (:func:`can_pull`) gets an open document's
diagnostics when it asks, never pushed (closed files are pushed; work it did not ask for
ends with a refresh); every other client gets every diagnostic pushed and is not offered
``diagnosticProvider``: never the same findings twice."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException

from .server import SiLintServer
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


def register(server: SiLintServer) -> None:
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
