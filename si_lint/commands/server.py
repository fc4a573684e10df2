"""`si-lint server`: the Language Server (LSP 3.17 over stdio)."""

from __future__ import annotations

import click

from ..errors import UsageError
from ..pipeline import Options
from . import options


@click.command("server")
@options.declare(
    options.SELECT,
    options.IGNORE,
    ("--no-cache", "Do not read or write the cache."),
    options.CACHE_DIR,
    options.TRUST,
    ("--stdio", "Speak LSP over stdin/stdout (the default; for clients that pass it)."),
)
def command(select, ignore, no_cache, cache_dir, trust_implementations, stdio):
    """Run the Language Server (LSP over stdio) for editors: every `check` finding as
    the file is typed (cross-file and dry-run ones included), quick fixes, hover,
    go-to-definition and completion. Needs the `server` extra: pip install 'si-lint[server]'.

    Exit status (LSP 3.17): 0 when a shutdown request came before exit (or before the end
    of stdin), 1 otherwise, 2 usage error."""
    try:  # pygls and lsprotocol: the optional `server` extra, imported here only
        from ..server.lsp import serve
    except ModuleNotFoundError as exc:
        if str(exc.name).split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise UsageError("`si-lint server` needs pygls: pip install 'si-lint[server]'") from None
    return serve(
        Options(
            select=options.split_codes(select),
            ignore=options.split_codes(ignore),
            use_cache=not no_cache,
            cache_dir=cache_dir,
            trust_implementations=trust_implementations,
        )
    )
