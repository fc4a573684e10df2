"""`si-lint server`: the Language Server (LSP 3.17 over stdio)."""

from __future__ import annotations

import click

from ..errors import UsageError


@click.command("server")
@click.option(
    "--select", multiple=True, help="Only these codes or code prefixes (comma-separated)."
)
@click.option(
    "--ignore", multiple=True, help="Skip these codes or code prefixes (comma-separated)."
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="SI_LINT_CACHE_DIR",
    help="Cache directory (default: .si-lint-cache/ at the corpus root).",
)
@click.option(
    "--trust-implementations",
    is_flag=True,
    help="Import and run the corpus profile's primitive implementations.",
)
@click.option(
    "--stdio",
    is_flag=True,
    help="Speak LSP over stdin/stdout (the default; for clients that pass it).",
)
def command(select, ignore, no_cache, cache_dir, trust_implementations, stdio):
    """Run the Language Server (LSP over stdio) for editors: every `check` finding as
    the file is typed (cross-file and dry-run ones included), quick fixes, hover,
    go-to-definition and completion. Needs the `server` extra: pip install 'si-lint[server]'."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("`si-lint server` needs pygls: pip install 'si-lint[server]'") from None
    from ..pipeline import Options
    from ..server.lsp import serve
    from .check import split_codes

    serve(
        Options(
            select=split_codes(select),
            ignore=split_codes(ignore),
            use_cache=not no_cache,
            cache_dir=cache_dir,
            trust_implementations=trust_implementations,
        )
    )
