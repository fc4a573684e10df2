"""`--format github`: GitHub Actions workflow commands (SPEC §9), chosen automatically
under ``GITHUB_ACTIONS=true``.

One ``::error|warning|notice file=...,line=...,col=...,endLine=...,endColumn=...,title=CODE::message``
per finding (info → ``notice``). Escaping follows GitHub's runner (``toolkit/core``
``escapeData``/``escapeProperty``): in the message ``%``, ``\\r`` and ``\\n`` become ``%25``,
``%0D`` and ``%0A``; in properties ``:`` and ``,`` also become ``%3A`` and ``%2C``. Every
other control character (ESC, BEL, the rest of C0 and C1, DEL, tab) and the bidi controls
are shown as escapes (``\\x1b``; :mod:`.controls`): the runner prints annotations to the
job log, and a file name holding ``ESC ] 8 ;;`` ... ``BEL`` must not become a link or a
terminal command there.
"""

from __future__ import annotations

import re

from ..source import SourceCache, token_end
from . import summary_counts
from .controls import printable
from .text import passed_line, skipped_part

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
#: what the runner cannot carry raw, but for ``\r`` and ``\n`` (``%0D``, ``%0A``)
_CONTROL = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escape_data(text: str) -> str:
    text = printable(text, _CONTROL)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f, cache: SourceCache | None = None) -> str:
    cache = cache or SourceCache()
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        end_line, end_col = f.line, token_end(cache.line(f.path, f.line), f.column)
    props = [
        ("file", f.path),
        ("line", str(f.line)),
        ("col", str(f.column)),
        ("endLine", str(end_line)),
        ("endColumn", str(end_col)),
        ("title", f.code),
    ]
    body = [f.message]
    if f.help:
        body.append(f"help: {f.help}")
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        body.append(f"note: {r.path}:{r.line}:{r.column}{msg}")
    head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{_COMMAND.get(f.severity, 'error')} {head}::{escape_data(chr(10).join(body))}"


def write(result, out, **_options) -> None:
    cache = SourceCache()
    for f in result.findings:
        out.write(annotation(f, cache) + "\n")
    counts = summary_counts(result.findings)
    total = len(result.findings)
    if total:
        out.write(
            f"si-lint: {total} finding(s) in {result.files} file(s){skipped_part(result)}: "
            f"{counts['errors']} error(s), "
            f"{counts['warnings']} warning(s), {counts['infos']} info(s)\n"
        )
    else:
        line = passed_line(result)
        out.write("si-lint: " + line[0].lower() + line[1:] + "\n")
