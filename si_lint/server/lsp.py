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

The server object is ``server.py``; the features it answers are registered from
``sync.py`` (notifications) and ``requests.py`` (hover, definition, completion, code
actions).
"""

from __future__ import annotations

import logging
import os
import sys

from ..pipeline import Options
from .requests import register_code_actions, register_completion, register_hover_and_definition
from .server import SiLintServer
from .sync import register_document_sync, register_lifecycle, register_workspace

#: every feature group, in the order they are registered
FEATURE_GROUPS = (
    register_lifecycle,
    register_document_sync,
    register_workspace,
    register_hover_and_definition,
    register_completion,
    register_code_actions,
)


def build_server(options: Options | None = None, debounce: float = 0.05) -> SiLintServer:
    server = SiLintServer(options, debounce)
    for register in FEATURE_GROUPS:
        register(server)
    return server


def serve(options: Options | None = None) -> int:
    """Answer LSP on stdin/stdout until ``exit`` (or the end of stdin); the exit status LSP
    3.17 asks for: 0 when a ``shutdown`` request came first, else 1."""
    logging.basicConfig(level=logging.WARNING)
    server = build_server(options)
    # pygls closes the stream it writes to on `exit` (and swallows its own sys.exit): it
    # gets a handle of its own on fd 1, so that sys.stdout is still open for the flush on
    # the way out (a closed one would make any exit status 1)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    try:
        server.start_io(sys.stdin.buffer, out)
    finally:
        out.close()
    return 0 if server.shut_down else 1


__all__ = ["SiLintServer", "build_server", "serve"]
