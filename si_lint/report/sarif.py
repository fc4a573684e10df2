"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and IDEs (SPEC §9).

- ``tool.driver.rules``: every rule of the catalogue (plus any code a result uses that the
  catalogue lacks), with ``fullDescription`` cut to GitHub's limit of 1,024 characters
  and the properties GitHub recommends (``precision``, ``problem.severity``).
- results: an embedded link ``[text](id)`` in the message to each related location, a
  relative, percent-encoded ``artifactLocation.uri`` (``uriBaseId: %SRCROOT%``, the
  current directory), and ``partialFingerprints``: ``siLint/v1`` (the line-independent
  identity of :mod:`si_lint.report.fingerprint`, shared with ``--baseline``) and
  ``primaryLocationLineHash`` derived from it. Code scanning keys alerts on
  ``primaryLocationLineHash`` and computes one from the source line when a result has
  none, which would merge two findings on one line: si-lint sets it itself.
- ``automationDetails.id`` when ``--automation-id`` is given (GitHub's ``category``).
- at most 25,000 results (:data:`MAX_RESULTS`, GitHub's limit per run: a run over it is
  rejected; :func:`_results`).

Output is deterministic: sorted keys, no timestamps, no absolute paths.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from .. import REPOSITORY_URL, __version__, rule_url
from ..catalogue import code_key, reflow, rules
from ..findings import SEVERITY_RANK, Finding
from ..source import SourceCache, token_end
from .controls import json_safe
from .fingerprint import Fingerprinter, digest
from .json import dump_items

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "siLint/v1"
LINE_HASH_KEY = "primaryLocationLineHash"
URI_BASE = "%SRCROOT%"
#: GitHub code scanning's limit on ``fullDescription.text``
FULL_DESCRIPTION_MAX = 1024
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
#: ``properties.precision`` of every rule: each is a deterministic check of the parsed
#: documents and the corpus (no heuristic, no sampling), so a finding is the rule's
#: definition met, not a guess (GitHub: ``very-high`` ranks first in code scanning)
PRECISION = "very-high"
#: ``properties.problem.severity`` (GitHub's ``error``/``warning``/``recommendation``)
_PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "info": "recommendation"}


def shorten(text: str, limit: int = FULL_DESCRIPTION_MAX) -> str:
    """``text`` within ``limit`` characters: whole when it fits, else cut at the last
    sentence end (or word) that fits, with an ellipsis."""
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
    """A ``physicalLocation``: the relative, percent-encoded path and the region (the end
    of the token at the start when the finding gives none)."""
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


def message_text(f) -> str:
    """The message, with one embedded link per related location."""
    links = [
        f"[{escape_message(r.message or f'{r.path}:{r.line}:{r.column}')}]({i})"
        for i, r in enumerate(f.related, start=1)
    ]
    text = escape_message(f.message)
    return f"{text} (see {', '.join(links)})" if links else text


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
    doc = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    head, tail = text.split(json.dumps(_RESULTS))
    out.write(json_safe(head))
    indent = head[head.rindex("\n") + 1 :]
    indent = indent[: len(indent) - len(indent.lstrip(" "))]
    index = {code: i for i, code in enumerate(ordered)}
    dump_items(_results(result, index), out, indent, sort_keys=True)
    out.write(json_safe(tail))


def _results(result, index: dict):
    """The results: one per finding, or when there are more than :data:`MAX_RESULTS`, the
    first ``MAX_RESULTS - 1`` by severity (errors, then warnings, then infos, each in path
    order; written in path order) and a notice (SI005, level ``note``) that says how many
    were left out, at the first one left out."""
    findings = result.findings
    printer = Fingerprinter(result)
    keep = Keep(findings, MAX_RESULTS - 1) if len(findings) > MAX_RESULTS else None
    for f, identity in zip(findings, printer.identities(findings)):
        if keep is None or keep(f):
            yield _result(f, digest(identity), index[f.code], printer.sources)
    if keep is not None:
        yield _notice(keep, len(findings), index["SI005"], printer.sources)


class Keep:
    """Which findings a capped report keeps: ``limit`` of them, errors before warnings
    before infos, each severity in the findings' (path) order; called once per finding,
    in order. ``first_left``: the first finding left out; ``left``: how many of each
    severity were."""

    def __init__(self, findings, limit: int) -> None:
        counts = [0, 0, 0]
        for f in findings:
            counts[SEVERITY_RANK.get(f.severity, 0)] += 1
        self.cut, room = 0, limit  # every finding ranked under ``cut``; ``room`` of ``cut``
        while self.cut < 2 and counts[self.cut] <= room:
            room -= counts[self.cut]
            self.cut += 1
        self.room = room
        self.left = {s: 0 for s in ("error", "warning", "info")}
        self.first_left: Finding | None = None

    def __call__(self, f) -> bool:
        rank = SEVERITY_RANK.get(f.severity, 0)
        if rank < self.cut or (rank == self.cut and self.room > 0):
            self.room -= rank == self.cut
            return True
        self.left[("error", "warning", "info")[rank]] += 1
        self.first_left = self.first_left or f
        return False


def _shape(code: str, index: int, level: str, text: str, loc: dict, fp: str, props: dict):
    """A result; ``primaryLocationLineHash`` in the shape code scanning's upload action
    writes (``<16 hex digits>:<n>``), derived from the line-independent fingerprint."""
    return {
        "ruleId": code,
        "ruleIndex": index,
        "level": level,
        "message": {"text": text},
        "locations": [loc],
        "partialFingerprints": {FINGERPRINT_KEY: fp, LINE_HASH_KEY: f"{fp[:16]}:1"},
        "properties": props,
    }


def _notice(keep: Keep, total: int, rule_index: int, cache: SourceCache) -> dict:
    """The result that says how many findings a capped report left out (SPEC §9)."""
    f = keep.first_left
    assert f is not None  # a notice is made when findings were left out
    left = sum(keep.left.values())
    by = ", ".join(f"{n:,} {s}(s)" for s, n in keep.left.items() if n)
    text = (
        f"{left:,} of {total:,} findings are not in this report ({by}): GitHub code "
        f"scanning accepts at most {MAX_RESULTS:,} results per run, so it holds the first "
        f"{total - left:,} (errors, then warnings, then infos, each in path order) and this "
        "notice, at the first finding left out. `si-lint check --format json` lists them all."
    )
    fp = digest(("SI005", "sarif", "results left out"))  # one alert, whatever the count
    loc = {"physicalLocation": _physical(cache, f.path, f.line, f.column, f.end_line, f.end_column)}
    props = {"severity": "info", "leftOut": left, "total": total}
    return _shape("SI005", rule_index, "note", escape_message(text), loc, fp, props)


def _result(f, fp: str, rule_index: int, cache: SourceCache) -> dict:
    """One finding as a SARIF result (``fp``: its line-independent fingerprint)."""
    loc: dict[str, Any] = {
        "physicalLocation": _physical(cache, f.path, f.line, f.column, f.end_line, f.end_column)
    }
    if f.doc_path:
        loc["logicalLocations"] = [{"fullyQualifiedName": f.doc_path, "kind": "member"}]
    props = {"severity": f.severity, "help": f.help, "jsonPath": f.doc_path}
    level = _LEVEL.get(f.severity, "error")
    res = _shape(
        f.code, rule_index, level, message_text(f), loc, fp, {k: v for k, v in props.items() if v}
    )
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
