"""`--format json` (SPEC §7; its fields: docs/integration.md; its JSON Schema:
``schemas/report.schema.json``). Written one diagnostic at a time: byte for byte what
``json.dumps(doc, indent=2, ensure_ascii=False)`` gives for the whole document, but with
DEL, C1 and the bidi controls as ``\\u`` escapes too (:func:`.controls.json_safe`)."""

from __future__ import annotations

import json

from .. import rule_url
from ..fix.files import fixable
from ..source import SourceCache, token_end
from .controls import json_safe
from .json_fix import fix_edits
from .text import code_counts, summary_counts


def diagnostic(f, cache: SourceCache, fix_of) -> dict:
    """One finding as the report writes it."""
    out = f.as_json()
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        src = cache.line(f.path, f.line)
        if src is not None:
            end_line, end_col = f.line, token_end(src, f.column)
    if end_line is not None and end_col is not None:
        out["end_line"] = int(end_line)
        out["end_column"] = int(end_col)
    out["url"] = rule_url(f.code)
    fix = fix_of(f) if f.fix is not None else None
    if fix is not None:
        out["fix"] = fix
    return out


def dump_items(items, out, indent: str, *, sort_keys: bool = False) -> None:
    """A JSON array of ``items`` (each dumped alone) written to ``out`` as
    ``json.dumps(..., indent=2)`` writes it ``indent`` deep: ``[]`` when empty."""
    first = True
    inner = indent + "  "
    for item in items:
        text = json.dumps(item, indent=2, sort_keys=sort_keys, ensure_ascii=False)
        out.write(("[\n" if first else ",\n") + inner + json_safe(text.replace("\n", "\n" + inner)))
        first = False
    out.write("[]" if first else "\n" + indent + "]")


def statistics_of(findings, unsafe_fixes: bool = False) -> list[dict]:
    """``--statistics``: one entry per code."""
    fixable_codes = {f.code for f in findings if fixable(f, unsafe_fixes)}
    return [
        {"code": code, "name": name, "count": n, "fixable": code in fixable_codes}
        for code, n, name in code_counts(findings)
    ]


def write(result, out, statistics: bool = False, unsafe_fixes: bool = False, **_options) -> None:
    out.write('{\n  "version": 1,\n')
    if statistics:
        out.write('  "statistics": ')
        dump_items(statistics_of(result.findings, unsafe_fixes), out, "  ")
    else:
        cache = SourceCache()
        fix_of = fix_edits(getattr(result, "corpus", None))
        out.write('  "diagnostics": ')
        dump_items((diagnostic(f, cache, fix_of) for f in result.findings), out, "  ")
    summary = {"files": result.files, **summary_counts(result.findings)}
    text = json.dumps({"summary": summary}, indent=2, ensure_ascii=False)
    out.write(",\n" + text[2:] + "\n")
