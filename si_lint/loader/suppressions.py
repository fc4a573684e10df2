"""Suppression comments (``# si-lint: disable=CODES``, ``# si-lint: disable-file=CODES``)
of a file's text, outside its scalars (the loader's ``quiet_spans``)."""

from __future__ import annotations

import re

_COMMENT = re.compile(
    r"#\s*si-lint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)"
)


def scan_suppressions(text: str, quiet_spans=()) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Suppression comments: (line the comment is on, column, kind, codes). ``kind`` is
    ``line`` (inline), ``above`` (alone on its line: covers the next line) or ``file``.
    They are the file's: they work on its lines whatever document a line is in."""
    if "si-lint:" not in text:
        return []
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        if "si-lint:" not in line:
            continue
        for m in _COMMENT.finditer(line):
            # the first match outside a scalar: a quoted ``si-lint:`` before it is data
            if not any(start <= (i, m.start() + 1) < end for start, end in quiet_spans):
                break
        else:
            continue
        codes = tuple(c.strip() for c in m.group(2).split(",") if c.strip())
        inline = bool(line[: m.start()].strip())
        kind = "file" if m.group(1) == "disable-file" else "line" if inline else "above"
        out.append((i, m.start() + 1, kind, codes))
    return out
