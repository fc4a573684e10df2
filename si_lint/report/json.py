"""`--format json`: SPEC §7, plus ``end_line``/``end_column`` (exclusive, 1-based) where the
end of the offending key or value is known (the file can be read)."""

from __future__ import annotations

import json

from . import summary_counts


def diagnostic(f, cache) -> dict:
    from ..source import token_end

    out = f.as_json()
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        src = cache.line(f.path, f.line)
        if src is not None:
            end_line, end_col = f.line, token_end(src, f.column)
    if end_line is not None and end_col is not None:
        out["end_line"] = int(end_line)
        out["end_column"] = int(end_col)
    return out


def render(result, **_options) -> str:
    from ..source import SourceCache

    cache = SourceCache()
    doc = {
        "version": 1,
        "diagnostics": [diagnostic(f, cache) for f in result.findings],
        "summary": {"files": result.files, **summary_counts(result.findings)},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
