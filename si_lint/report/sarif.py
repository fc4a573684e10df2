"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and IDEs (SPEC §9; what it holds:
docs/integration.md). Deterministic: sorted keys, no timestamps, no absolute paths."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any
from urllib.parse import quote

from .. import REPOSITORY_URL, __version__, rule_url
from ..catalogue import code_key, reflow, rules
from ..findings import SEVERITIES, SEVERITY_RANK
from ..source import SourceCache, token_end
from .controls import json_safe
from .fingerprint import Fingerprinter, digest
from .json import dump_items

URI_BASE = "%SRCROOT%"
#: GitHub code scanning's limit on ``fullDescription.text``
FULL_DESCRIPTION_MAX = 1024
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
#: ``properties.precision`` of every rule: each is a deterministic check, no heuristic
PRECISION = "very-high"
_PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "info": "recommendation"}


def shorten(text: str, limit: int = FULL_DESCRIPTION_MAX) -> str:
    """``text``, or its part up to the last sentence end (or word) that fits, and "…"."""
    if len(text) <= limit:
        return text
    room = text[: limit - 2]
    cut = max(room.rfind(". "), room.rfind(".\n"))
    if cut >= limit // 2:
        return room[: cut + 1] + " …"
    cut = room.rfind(" ")
    if cut <= 0:
        cut = limit - 1
    return room[:cut].rstrip() + "…"


def _rule_descriptor(code: str, rule) -> dict:
    if rule is None:
        return {
            "id": code,
            "shortDescription": {"text": code},
            "fullDescription": {"text": code},
            "help": {"text": code, "markdown": code},
            "defaultConfiguration": {"level": "error"},
            "properties": {"precision": PRECISION, "problem.severity": "error"},
        }
    summary = reflow(rule.summary) or code
    full = reflow(rule.rationale) or summary
    help_text = reflow(rule.fix) or summary
    help_md = f"**{code}** ({rule.name}): {summary}\n\n{full}"
    if rule.fix:
        help_md += f"\n\n**Fix:** {reflow(rule.fix)}"
    if rule.seed:
        help_md += f"\n\n*Seed:* {reflow(rule.seed)}"
    desc: dict[str, Any] = {
        "id": code,
        "shortDescription": {"text": shorten(summary)},
        "fullDescription": {"text": shorten(full)},
        "help": {"text": help_text, "markdown": help_md},
        "helpUri": rule_url(code),
        "defaultConfiguration": {"level": _LEVEL.get(rule.severity, "error")},
        "properties": {
            "precision": PRECISION,
            "problem.severity": _PROBLEM_SEVERITY.get(rule.severity, "error"),
            "severity": rule.severity,
            "tags": [code.rstrip("0123456789").lower()],
        },
    }
    if rule.name:
        desc["name"] = rule.name
    if rule.seed:
        desc["properties"]["seed"] = rule.seed
    return desc


def _physical(cache: SourceCache, path: str, line, col, end_line=None, end_col=None) -> dict:
    """A ``physicalLocation`` (the region ends at the end of the token when not given)."""
    line, col = max(int(line), 1), max(int(col), 1)
    if end_line is None or end_col is None or (end_line, end_col) <= (line, col):
        end_line, end_col = line, token_end(cache.line(path, line), col)
    region = dict(startLine=line, startColumn=col, endLine=int(end_line), endColumn=int(end_col))
    uri = quote(path.replace("\\", "/"), safe="/-._~")
    return {"artifactLocation": {"uri": uri, "uriBaseId": URI_BASE}, "region": region}


_BRACKETS = re.compile(r"([\[\]\\])")


def escape_message(text: str) -> str:
    """Plain message text with ``[``, ``]`` and ``\\`` escaped, so that only si-lint's own
    embedded links (``[text](id)``, SARIF §3.11.6) read as links."""
    return _BRACKETS.sub(r"\\\1", text)


#: GitHub code scanning's limit of results in one run (a run over it is rejected)
MAX_RESULTS = 25_000
#: stands for the results in the document dumped around them (never in the output)
_RESULTS = "\u0000results\u0000"


def write(result, out, automation_id: str | None = None, **_options) -> None:
    """The SARIF document of ``result`` to ``out``: the document around the results dumped
    once, the results one at a time between (byte for byte ``json.dumps(doc, indent=2,
    sort_keys=True)`` of the whole, with :func:`.controls.json_safe`)."""
    catalogue = rules()
    ordered = sorted(set(catalogue) | {f.code for f in result.findings}, key=code_key)
    run = {
        "tool": {
            "driver": {
                "name": "si-lint",
                "informationUri": REPOSITORY_URL,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule_descriptor(c, catalogue.get(c)) for c in ordered],
            }
        },
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {URI_BASE: {"description": {"text": "the directory si-lint ran in"}}},
        "results": _RESULTS,
    }
    if automation_id:
        run["automationDetails"] = {"id": automation_id}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    head, tail = text.split(json.dumps(_RESULTS))
    out.write(json_safe(head))
    indent = head[head.rindex("\n") + 1 :]
    indent = indent[: len(indent) - len(indent.lstrip(" "))]
    index = {code: i for i, code in enumerate(ordered)}
    dump_items(_results(result, index), out, indent, sort_keys=True)
    out.write(json_safe(tail))


def _results(result, index: dict):
    """The results: one per finding, or past :data:`MAX_RESULTS` the first by severity and
    a notice of how many were left out (SPEC §9, docs/integration.md)."""
    findings = result.findings
    printer = Fingerprinter(result)
    # kept: every finding ranked under ``cut``, the first ``room`` of those ranked ``cut``
    counts = Counter(SEVERITY_RANK.get(f.severity, 0) for f in findings)
    cut, room = 0, len(findings) if len(findings) <= MAX_RESULTS else MAX_RESULTS - 1
    while cut < 2 and counts[cut] <= room:
        room -= counts[cut]
        cut += 1
    left: Counter = Counter()
    first_left = None
    for f, identity in zip(findings, printer.identities(findings)):
        r = SEVERITY_RANK.get(f.severity, 0)
        if r < cut or (r == cut and room > 0):
            room -= r == cut
            yield _result(f, digest(identity), index[f.code], printer.sources)
        else:
            left[SEVERITIES[r]] += 1
            first_left = first_left or f
    if first_left is not None:  # the notice of how many were left out, at the first of them
        total, n = len(findings), sum(left.values())
        by = ", ".join(f"{left[s]:,} {s}(s)" for s in SEVERITIES if left[s])
        text = escape_message(
            f"{n:,} of {total:,} findings are not in this report ({by}): GitHub code "
            f"scanning accepts at most {MAX_RESULTS:,} results per run, so it holds the first "
            f"{total - n:,} (errors, then warnings, then infos, each in path order) and this "
            "notice, at the first finding left out. `si-lint check --format json` lists them all."
        )
        fp = digest(("SI005", "sarif", "results left out"))  # one alert, whatever the count
        props = {"severity": "info", "leftOut": n, "total": total}
        yield _shape(first_left, printer.sources, "SI005", index["SI005"], "note", text, fp, props)


def _shape(f, cache: SourceCache, code: str, index: int, level: str, text: str, fp, props):
    """A result at ``f``; ``primaryLocationLineHash`` in the shape code scanning's upload
    action writes (``<16 hex digits>:<n>``), derived from the line-independent fingerprint."""
    loc = _physical(cache, f.path, f.line, f.column, f.end_line, f.end_column)
    return {
        "ruleId": code,
        "ruleIndex": index,
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": loc}],
        "partialFingerprints": {"siLint/v1": fp, "primaryLocationLineHash": f"{fp[:16]}:1"},
        "properties": props,
    }


def _result(f, fp: str, rule_index: int, cache: SourceCache) -> dict:
    props = {"severity": f.severity, "help": f.help, "jsonPath": f.doc_path}
    props = {k: v for k, v in props.items() if v}
    links = [
        f"[{escape_message(r.message or f'{r.path}:{r.line}:{r.column}')}]({i})"
        for i, r in enumerate(f.related, start=1)
    ]
    text = escape_message(f.message) + (f" (see {', '.join(links)})" if links else "")
    res = _shape(f, cache, f.code, rule_index, _LEVEL.get(f.severity, "error"), text, fp, props)
    if f.doc_path:  # (the document is dumped with sorted keys)
        logical = [{"fullyQualifiedName": f.doc_path, "kind": "member"}]
        res["locations"][0]["logicalLocations"] = logical
    if f.related:
        res["relatedLocations"] = [
            {
                "id": i,
                "physicalLocation": _physical(cache, r.path, r.line, r.column),
                "message": {"text": escape_message(r.message or f"related location of {f.code}")},
            }
            for i, r in enumerate(f.related, start=1)
        ]
    return res
