"""Hover, go-to-definition, completion and code actions: the answers of ``lookup.py``,
``completion.py`` and ``actions.py`` (code points) as LSP types, in the client's encoding."""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types as T
from pygls.uris import from_fs_path

from . import actions, completion, lookup
from .server import SiLintServer, path_of

FIX_ALL = "source.fixAll.si-lint"
CODE_ACTION_OPTIONS = T.CodeActionOptions(
    code_action_kinds=[T.CodeActionKind.QuickFix, T.CodeActionKind.SourceFixAll, FIX_ALL]
)


async def _ask(ls: SiLintServer, params, feature):
    """``feature(state, path, text, line0, char0)`` at the request's position, in the worker."""
    uri = params.text_document.uri
    path, doc = path_of(uri), ls.workspace.get_text_document(uri)
    p = doc.position_codec.position_from_client_units(doc.lines, params.position)
    text = doc.source
    return await ls.run(lambda: feature(ls.state_for(path), path, text, p.line, p.character))


def _location(ls: SiLintServer, target) -> T.Location | None:
    if target is None:
        return None
    path, line0, char0 = target
    doc, pos = ls.workspace.text_documents.get(from_fs_path(path)), T.Position(line0, char0)
    try:
        text = doc.source if doc is not None else Path(path).read_text("utf-8", errors="replace")
    except OSError:
        text = ""
    lines = text.splitlines(keepends=True)
    if lines:
        pos = ls.workspace.position_codec.position_to_client_units(lines, pos)
    return T.Location(uri=from_fs_path(path), range=T.Range(pos, pos))


def _edit(doc, old: str, new: str) -> T.TextEdit:
    """The smallest whole-line edit that turns ``old`` into ``new``."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    i = len(os.path.commonprefix([a, b]))  # lines the same at the start, then at the end
    j = len(os.path.commonprefix([a[i:][::-1], b[i:][::-1]]))
    start = T.Position(i, 0)
    if j == 0 and a and not a[-1].endswith(("\n", "\r")):
        end = T.Position(len(a) - 1, doc.position_codec.client_num_units(a[-1]))
    else:
        end = T.Position(len(a) - j, 0)
    return T.TextEdit(range=T.Range(start, end), new_text="".join(b[i : len(b) - j]))


def register(server: SiLintServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: SiLintServer, params: T.HoverParams):
        md = await _ask(ls, params, lookup.hover)
        if not md:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=md))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: SiLintServer, params: T.DefinitionParams):
        return _location(ls, await _ask(ls, params, lookup.definition))

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[":", " "]))
    async def on_completion(ls: SiLintServer, params: T.CompletionParams):
        items = await _ask(ls, params, completion.completion)
        return T.CompletionList(is_incomplete=False, items=items) if items else None

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, CODE_ACTION_OPTIONS)
    async def on_code_action(ls: SiLintServer, params: T.CodeActionParams):
        uri = params.text_document.uri
        path, doc = path_of(uri), ls.workspace.get_text_document(uri)
        text = doc.source
        first, last = params.range.start.line, params.range.end.line
        only = params.context.only

        def work():
            st = ls.state_for(path)
            if st.overrides.get(path) != text.encode("utf-8"):
                st.set_buffer(path, text)  # findings of exactly this text
            return actions.code_actions(st, path, text, first, last)

        found = await ls.run(work) or []
        out = []
        diags = {(d.code, d.range.start.line): d for d in params.context.diagnostics or []}
        for a in found:
            kind = FIX_ALL if a.kind == "source.fixAll" else T.CodeActionKind.QuickFix
            if only and not any(kind == k or kind.startswith(str(k) + ".") for k in only):
                continue
            action = T.CodeAction(
                title=a.title,
                kind=kind,
                is_preferred=a.preferred or None,
                diagnostics=[d for (c, _l), d in diags.items() if c in a.codes] or None,
                edit=T.WorkspaceEdit(changes={uri: [_edit(doc, text, a.new_text)]}),
            )
            out.append(action)
        return out
