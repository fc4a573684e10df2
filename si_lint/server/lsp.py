"""``si-lint server``: the Language Server (LSP 3.17 over stdio, pygls). Each workspace
folder is a corpus root of its own (a file outside every folder gets the root ``check``
would give it)."""

from __future__ import annotations

import logging
import os
import sys

from ..pipeline import Options
from . import requests, sync
from .server import SiLintServer


def build_server(options: Options | None = None, debounce: float = 0.05) -> SiLintServer:
    server = SiLintServer(options, debounce)
    for register in (sync.register, sync.register_documents, sync.register_live, requests.register):
        register(server)
    return server


def serve(options: Options | None = None) -> int:
    """Answer LSP on stdin/stdout until ``exit`` (or the end of stdin): 0 when a
    ``shutdown`` request came first, else 1 (LSP 3.17)."""
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
