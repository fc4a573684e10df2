"""`--format json`: SPEC §7, plus ``end_line``/``end_column`` (exclusive, 1-based) where the
end of the offending key or value is known (the file can be read), ``url`` (the rule's
page) and ``fix`` (:mod:`.json_fix`: the edits ``--fix`` would make, as ruff writes them);
with ``--statistics``, ``statistics`` (code, name, count, fixable) instead of the findings.
Its JSON Schema is ``schemas/report.schema.json`` (``si-lint schema report``).

Written one diagnostic at a time (:func:`write`), byte for byte what ``json.dumps(doc,
indent=2, ensure_ascii=False)`` gives for the whole document, but with DEL, C1 and the
bidi controls written as ``\\u`` escapes too (:func:`si_lint.report.controls.json_safe`)."""

from __future__ import annotations

import json as _json
from json.encoder import encode_basestring as _string

from . import summary_counts
from .controls import json_safe


def diagnostic(f, cache, fix_edits=None) -> dict:
    """One finding as the report writes it: :meth:`Finding.as_json`, its end, ``url`` (the
    rule's page) and ``fix`` (:mod:`.json_fix`) when ``fix_edits`` finds one."""
    from .. import rule_url
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
    out["url"] = rule_url(f.code)
    fix = fix_edits(f) if fix_edits is not None and f.fix is not None else None
    if fix is not None:
        out["fix"] = fix
    return out


def dumps(value, indent: str = "", sort_keys: bool = False) -> str:
    """``json.dumps(value, indent=2, sort_keys=sort_keys, ensure_ascii=False)`` of plain data
    (dict with string keys, list, tuple, str, int, float, bool, None) as it is written
    ``indent`` deep: the same text, several times faster (the standard library lays out
    indented JSON in Python, through generators)."""
    kind = type(value)
    if kind is str:
        return _string(value)
    if kind is int:
        return int.__repr__(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = sorted(value.items()) if sort_keys else value.items()
        body = ",\n".join(f"{inner}{_string(k)}: {dumps(v, inner, sort_keys)}" for k, v in items)
        return "{\n" + body + "\n" + indent + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = indent + "  "
        body = ",\n".join(inner + dumps(v, inner, sort_keys) for v in value)
        return "[\n" + body + "\n" + indent + "]"
    return _json.dumps(value)  # a number, a boolean or null: what json writes for it


def dump_items(items, out, indent: str, *, sort_keys: bool = False) -> None:
    """A JSON array of ``items`` (each dumped alone) written to ``out`` as
    ``json.dumps(..., indent=2)`` writes it ``indent`` deep: ``[]`` when empty."""
    first = True
    inner = indent + "  "
    for item in items:
        text = json_safe(dumps(item, inner, sort_keys))
        out.write(("[\n" if first else ",\n") + inner + text)
        first = False
    out.write("[]" if first else "\n" + indent + "]")


def statistics_of(findings, unsafe_fixes: bool = False) -> list[dict]:
    """``--statistics``: one entry per code — ``code``, ``name`` (the rule's), ``count``,
    ``fixable`` (``--fix``, with ``--unsafe-fixes`` when given, would fix some of them) —
    the most frequent first (the text report's order)."""
    from collections import Counter

    from ..catalogue import rules

    counts: Counter = Counter()
    fixable_codes: set = set()
    if findings:
        from ..fix import fixable

        for f in findings:
            counts[f.code] += 1
            if f.code not in fixable_codes and fixable(f, unsafe_fixes):
                fixable_codes.add(f.code)
    catalogue = rules()
    return [
        {
            "code": code,
            "name": catalogue[code].name if code in catalogue else None,
            "count": n,
            "fixable": code in fixable_codes,
        }
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def write(result, out, statistics: bool = False, unsafe_fixes: bool = False, **_options) -> None:
    """The report (schema: ``si-lint schema report``): the findings one at a time, or
    with ``statistics`` the count per code instead; then the summary."""
    from ..source import SourceCache
    from .json_fix import FixEdits

    out.write('{\n  "version": 1,\n')
    if statistics:
        out.write('  "statistics": ')
        dump_items(statistics_of(result.findings, unsafe_fixes), out, "  ")
    else:
        cache = SourceCache()
        fix_edits = FixEdits(getattr(result, "corpus", None))
        out.write('  "diagnostics": ')
        dump_items((diagnostic(f, cache, fix_edits) for f in result.findings), out, "  ")
    summary = {"files": result.files, **summary_counts(result.findings)}
    text = _json.dumps({"summary": summary}, indent=2, ensure_ascii=False)
    out.write(",\n" + text[2:] + "\n")
