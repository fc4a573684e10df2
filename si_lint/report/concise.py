"""`--format concise`: one line per finding, ``path:line:col: CODE [severity] message``,
and nothing else -- no source line, no ``help:``/``note:`` lines, no summary: the text
format's first line of each finding, for a grep, an editor's error format or a CI log
(ruff's ``concise``, yamllint's ``parsable``). Control characters are escaped as in the
text format. Under ``--statistics``: the count per code, as the text format prints it."""

from __future__ import annotations

from collections import Counter

from .text import printable


def line(f) -> str:
    """One finding on one line."""
    return (
        f"{printable(f.path)}:{f.line}:{f.column}: {f.code} [{f.severity}] {printable(f.message)}"
    )


def write(result, out, statistics: bool = False, **_options) -> None:
    """The report of ``result`` written to ``out`` (``out.write(str)``), line by line."""
    if statistics:
        from ..catalogue import rules

        catalogue = rules()
        counts = Counter(f.code for f in result.findings)
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            name = catalogue[code].name if code in catalogue else ""
            out.write(f"{n:5d}  {code:<7} {name}".rstrip() + "\n")
        return
    for f in result.findings:
        out.write(line(f) + "\n")


def render(result, **options) -> str:
    """The whole report as one string."""
    import io

    buf = io.StringIO()
    write(result, buf, **options)
    return buf.getvalue()
