"""`--format sarif`: SARIF 2.1.0 (SPEC §9).

- ``tool.driver.rules``: every rule of the catalogue (``si_lint.catalogue.rules()``) plus any
  code a result uses that the catalogue lacks, each with ``shortDescription``,
  ``fullDescription``, ``help`` and ``defaultConfiguration.level``.
- results: ``ruleId``/``ruleIndex``, ``level``, ``message.text``, one physical location with a
  relative, percent-encoded ``artifactLocation.uri`` (``uriBaseId: %SRCROOT%``, the current
  directory) and a region with start and end line and column, ``relatedLocations`` for the
  other locations of a cross-file finding, and ``partialFingerprints`` computed from
  (code, file, the JSON path -- or the stripped source line when there is none --, occurrence
  index): never from line numbers, so they survive lines inserted above a finding.

Output is deterministic: sorted keys, no timestamps, no absolute paths.
"""

from __future__ import annotations

import hashlib
import json
from urllib.parse import quote

from .. import __version__

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "siLint/v1"
URI_BASE = "%SRCROOT%"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


# --------------------------------------------------------------------------------------
# source text helpers (shared with the GitHub format)


class SourceCache:
    """Lines of the reported files, read once (``None`` for a file that cannot be read)."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}

    def lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            try:
                with open(path, "rb") as fh:
                    text = fh.read(6 * 1024 * 1024).decode("utf-8", "replace")
                self._lines[path] = [ln.rstrip("\r") for ln in text.split("\n")]
            except OSError:
                self._lines[path] = None
        return self._lines[path]

    def line(self, path: str, line: int) -> str | None:
        lines = self.lines(path)
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


def token_end(src: str | None, col: int) -> int:
    """The (exclusive, 1-based) end column of the YAML token that starts at ``col``:
    a quoted scalar to its closing quote, a key to its ``:``, a plain scalar to the end of
    the line (before a comment) or to the flow indicator that ends it."""
    if src is None or not 1 <= col <= len(src):
        return col + 1
    i = col - 1
    ch = src[i]
    if ch in "\"'":
        j = i + 1
        while j < len(src):
            if src[j] == ch:
                if ch == "'" and j + 1 < len(src) and src[j + 1] == "'":
                    j += 2
                    continue
                return j + 2
            if ch == '"' and src[j] == "\\":
                j += 1
            j += 1
        return len(src) + 1
    if ch in "[{":  # a flow collection: to its matching bracket on this line
        depth = 0
        for j in range(i, len(src)):
            if src[j] in "[{":
                depth += 1
            elif src[j] in "]}":
                depth -= 1
                if depth == 0:
                    return j + 2
        return len(src.rstrip()) + 1
    if ch == "-" and (i + 1 == len(src) or src[i + 1] == " "):
        return max(len(src.rstrip()) + 1, col + 1)
    j = i
    while j < len(src):
        c = src[j]
        if c == ":" and (j + 1 == len(src) or src[j + 1] in " \t"):
            break
        if c == "#" and j > i and src[j - 1] in " \t":
            break
        if c in ",]}" and _in_flow(src, i):
            break
        j += 1
    end = len(src[:j].rstrip()) + 1
    return max(end, col + 1)


def _in_flow(src: str, upto: int) -> bool:
    depth = 0
    for c in src[:upto]:
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
    return depth > 0


def region_of(path: str, line: int, col: int, cache: SourceCache, end_line=None, end_col=None) -> dict:
    line = max(int(line), 1)
    col = max(int(col), 1)
    if end_line is None or end_col is None or (end_line, end_col) <= (line, col):
        end_line, end_col = line, token_end(cache.line(path, line), col)
    return {"startLine": line, "startColumn": col, "endLine": int(end_line), "endColumn": int(end_col)}


# --------------------------------------------------------------------------------------
# fingerprints


def fingerprints(findings, cache: SourceCache) -> list[str]:
    """One stable fingerprint per finding (same order): sha256 over code, file, anchor
    (JSON path, else the stripped source line) and the occurrence index of that triple."""
    seen: dict[tuple, int] = {}
    out = []
    for f in findings:
        if f.doc_path:
            anchor = "path:" + f.doc_path
        else:
            src = cache.line(f.path, f.line)
            anchor = "line:" + (src.strip() if src is not None else "")
        key = (f.code, f.path, anchor)
        index = seen.get(key, 0)
        seen[key] = index + 1
        raw = "\0".join((f.code, f.path, anchor, str(index)))
        out.append(hashlib.sha256(raw.encode("utf-8")).hexdigest())
    return out


# --------------------------------------------------------------------------------------
# rules


def _reflow(text: str) -> str:
    """Hard-wrapped catalogue prose as paragraphs (a viewer wraps lines itself)."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def _rule_descriptor(code: str, rule) -> dict:
    if rule is None:
        return {
            "id": code,
            "shortDescription": {"text": code},
            "fullDescription": {"text": code},
            "help": {"text": code},
            "defaultConfiguration": {"level": "error"},
        }
    summary = _reflow(rule.summary) or code
    full = _reflow(rule.rationale) or summary
    help_text = _reflow(rule.fix) or summary
    help_md = f"**{code}** ({rule.name}): {summary}\n\n{full}"
    if rule.fix:
        help_md += f"\n\n**Fix:** {rule.fix}"
    if rule.seed:
        help_md += f"\n\n*Seed:* {_reflow(rule.seed)}"
    desc = {
        "id": code,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": full},
        "help": {"text": help_text, "markdown": help_md},
        "defaultConfiguration": {"level": _LEVEL.get(rule.severity, "error")},
        "properties": {"severity": rule.severity, "tags": [code.rstrip("0123456789").lower()]},
    }
    if rule.name:
        desc["name"] = rule.name
    if rule.seed:
        desc["properties"]["seed"] = rule.seed
    return desc


def _uri(path: str) -> str:
    return quote(path.replace("\\", "/"), safe="/-._~")


def _physical(path: str, region: dict) -> dict:
    return {"artifactLocation": {"uri": _uri(path), "uriBaseId": URI_BASE}, "region": region}


def render(result, **_options) -> str:
    from ..catalogue import _code_key, rules

    catalogue = rules()
    findings = list(result.findings)
    codes = set(catalogue) | {f.code for f in findings}
    ordered = sorted(codes, key=_code_key)
    index = {code: i for i, code in enumerate(ordered)}
    cache = SourceCache()
    prints = fingerprints(findings, cache)

    results = []
    for f, fp in zip(findings, prints):
        loc = {"physicalLocation": _physical(f.path, region_of(f.path, f.line, f.column, cache,
                                                               f.end_line, f.end_column))}
        if f.doc_path:
            loc["logicalLocations"] = [{"fullyQualifiedName": f.doc_path, "kind": "member"}]
        res = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _LEVEL.get(f.severity, "error"),
            "message": {"text": f.message},
            "locations": [loc],
            "partialFingerprints": {FINGERPRINT_KEY: fp},
        }
        if f.related:
            res["relatedLocations"] = [
                {
                    "id": i + 1,
                    "physicalLocation": _physical(r.path, region_of(r.path, r.line, r.column, cache)),
                    "message": {"text": r.message or f"related location of {f.code}"},
                }
                for i, r in enumerate(f.related)
            ]
        props = {"severity": f.severity}
        if f.help:
            props["help"] = f.help
        if f.doc_path:
            props["jsonPath"] = f.doc_path
        res["properties"] = props
        results.append(res)

    doc = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "si-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [_rule_descriptor(c, catalogue.get(c)) for c in ordered],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
