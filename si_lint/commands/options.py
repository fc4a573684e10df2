"""Options that several commands take, declared once (the same names, types and help
everywhere they appear)."""

from __future__ import annotations

import click

select = click.option(
    "--select", multiple=True, help="Only these codes or code prefixes (comma-separated)."
)
ignore = click.option(
    "--ignore", multiple=True, help="Skip these codes or code prefixes (comma-separated)."
)
no_cache = click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
cache_dir = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="SI_LINT_CACHE_DIR",
    help="Cache directory (default: .si-lint-cache/ at the corpus root).",
)
trust_implementations = click.option(
    "--trust-implementations",
    is_flag=True,
    help="Import and run the corpus profile's primitive implementations.",
)
