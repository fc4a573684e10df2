"""`--format concise`: ``path:line:col: CODE [severity] message`` per finding and nothing
else, for a grep, an editor's error format or a CI log (ruff's ``concise``)."""

from __future__ import annotations

from .controls import printable
from .text import code_counts, headline


def write(result, out, statistics: bool = False, **_options) -> None:
    if statistics:
        for code, n, name in code_counts(result.findings):
            out.write(f"{n:5d}  {code:<7} {name or ''}".rstrip() + "\n")
        return
    for f in result.findings:
        out.write(printable(headline(f)) + "\n")
