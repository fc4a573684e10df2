"""Suppression comments (``# si-lint: disable=CODES``, ``# si-lint: disable-file=CODES``)
of a file's text, outside its scalars (the loader's ``quiet_spans``)."""

from __future__ import annotations

import re


def scan_suppressions(text: str, quiet_spans=()) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Suppression comments: (line the comment is on, column, kind, codes). ``kind`` is
    ``line`` (inline), ``above`` (alone on its line: covers the next line) or ``file``.
    Text inside a scalar (``quiet_spans``, from the loader) is data, never a comment.
    They are the file's: they work on its lines whatever document a line is in."""
    if "si-lint:" not in text:
        return []
    pattern = re.compile(
        r"#\s*si-lint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)"
    )
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        if "si-lint:" not in line:
            continue
        # the first match outside a scalar: a quoted ``si-lint:`` before the comment is data
        m = next(
            (
                m
                for m in pattern.finditer(line)
                if not any(start <= (i, m.start() + 1) < end for start, end in quiet_spans)
            ),
            None,
        )
        if m is None:
            continue
        codes = tuple(c.strip() for c in m.group(2).split(",") if c.strip())
        col = m.start() + 1
        if m.group(1) == "disable-file":
            kind = "file"
        elif line[: m.start()].strip() == "":
            kind = "above"
        else:
            kind = "line"
        out.append((i, col, kind, codes))
    return out
