"""`--format github`: GitHub Actions workflow commands and the Markdown job summary appended
to ``$GITHUB_STEP_SUMMARY`` (SPEC §9, docs/integration.md). Escaping follows the runner's
``escapeData``/``escapeProperty``, every other control character is shown escaped (the job
log must not take ``ESC ] 8 ;;`` ... ``BEL`` in a file name as a link or a terminal command),
and corpus text in the summary is Markdown-escaped (no link, image, HTML or table cell)."""

from __future__ import annotations

import os
import re
from collections import Counter
from urllib.parse import quote

from .. import rule_url
from ..catalogue import code_key, rules
from ..findings import SEVERITY_RANK
from ..source import SourceCache, token_end
from .controls import GITHUB, printable
from .output import output_error
from .text import found_line, notes, passed_line, summary_counts

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
_PROPERTIES = ("file", "line", "col", "endLine", "endColumn", "title")
#: GitHub shows at most this many annotations of each level (error, warning, notice) per
#: step; the rest are in the log only
ANNOTATION_CAP = 10
_NAMES = {"error": "errors", "warning": "warnings", "info": "infos"}
#: the findings listed in the summary after the table
FIRST = 50
#: a message (or path) is cut to this many characters in the summary
MESSAGE_MAX = 300
#: the summary's bound in bytes (GitHub refuses one over 1 MiB)
SUMMARY_MAX = 256 * 1024
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&$])")


def escape_data(text: str) -> str:
    text = printable(text, GITHUB)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f, cache: SourceCache | None = None) -> str:
    end_line, end_col = f.end_line, f.end_column
    if end_line is None or end_col is None:
        src = (cache or SourceCache()).line(f.path, f.line)
        end_line, end_col = f.line, token_end(src, f.column)
    values = (f.path, f.line, f.column, end_line, end_col, f.code)
    head = ",".join(f"{k}={escape_property(str(v))}" for k, v in zip(_PROPERTIES, values))
    body = escape_data("\n".join([f.message, *notes(f)]))
    return f"::{_COMMAND.get(f.severity, 'error')} {head}::{body}"


def write(result, out, **_options) -> None:
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY") or None
    cache = SourceCache()
    # the annotations' order: by severity, then the code rarest in the run first (one real
    # defect is not hidden behind 25 findings of one code), then code and place
    per_code = Counter(f.code for f in result.findings)
    findings = sorted(
        result.findings,
        key=lambda f: (SEVERITY_RANK.get(f.severity, 0), per_code[f.code], f.code, *f.sort_key()),
    )
    counts = summary_counts(findings)
    for i, f in enumerate(findings):
        out.write(annotation(f, cache) + "\n")
        last = i + 1 == len(findings) or findings[i + 1].severity != f.severity
        n = counts[_NAMES.get(f.severity, "errors")]
        if last and n > ANNOTATION_CAP:  # a notice, but a plain line after the notices
            where = "the job summary or the SARIF upload" if step_summary else "the SARIF upload"
            more = (
                f"{n - ANNOTATION_CAP} more {_NAMES[f.severity]} not shown as annotations "
                f"(GitHub shows {ANNOTATION_CAP} per step); see {where}"
            )
            if f.severity == "info":
                out.write(f"si-lint: {more}\n")
            else:
                out.write(f"::notice title=si-lint::{escape_data(more)}\n")
    line = found_line(result) if findings else passed_line(result)
    out.write("si-lint: " + line[0].lower() + line[1:] + "\n")
    if step_summary is None:
        return
    try:
        with open(step_summary, "a", encoding="utf-8", newline="\n") as fh:
            fh.write(summary(result, findings))
    except OSError as exc:
        raise output_error(step_summary, exc) from None


def md(text: str, limit: int = MESSAGE_MAX) -> str:
    text = printable(str(text)).replace("\r", " ").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MARKDOWN.sub(r"\\\1", text)


def _table(findings) -> list[str]:
    catalogue = rules()
    counts = Counter(f.code for f in findings)
    # each code's most severe severity (written last)
    rank = SEVERITY_RANK.get
    severity = {f.code: f.severity for f in sorted(findings, key=lambda f: -rank(f.severity, 0))}
    order = sorted(counts, key=lambda c: (SEVERITY_RANK.get(severity[c], 0), code_key(c)))
    lines = ["| Code | Severity | Count | Rule |", "| --- | --- | ---: | --- |"]
    for code in order:
        rule = catalogue.get(code)
        if rule is None:
            lines.append(f"| {md(code)} | {md(severity[code])} | {counts[code]} | |")
            continue
        url = rule_url(code)
        name = md(rule.name or code)
        lines.append(f"| [{code}]({url}) | {severity[code]} | {counts[code]} | [{name}]({url}) |")
    return lines


def summary(result, findings) -> str:
    """The summary of a run whose findings are ``findings`` (in annotation order)."""
    total = len(findings)
    if not total:
        return f"### si-lint\n\n{md(passed_line(result), 1000)}\n"
    counts = summary_counts(findings)
    head = [
        f"### si-lint: {total} finding(s) in {result.files} file(s)",
        "",
        f"{counts['errors']} error(s), {counts['warnings']} warning(s), "
        f"{counts['infos']} info(s). GitHub shows at most 10 annotations of each level "
        "per step; every finding is in the step's log.",
        "",
        *_table(findings),
        "",
    ]
    size = sum(len(s.encode("utf-8")) + 1 for s in head)
    shown = []
    server, repo, sha = (
        os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA")
    )
    workspace = os.environ.get("GITHUB_WORKSPACE")
    for f in findings[:FIRST]:
        place = md(f"{f.path}:{f.line}:{f.column}")
        if server and repo and sha:  # a link to the file's page at the line in the checked commit
            rel = (os.path.relpath(f.path, workspace) if workspace else f.path).replace(os.sep, "/")
            if not (os.path.isabs(rel) or rel == ".." or rel.startswith("../")):  # in the repo
                url = f"{server}/{repo}/blob/{quote(sha, safe='')}/{quote(rel, safe='/-._~')}"
                place = f"[{place}]({url}#L{int(f.line)})"
        item = f"- {place} **{md(f.code)}** ({md(f.severity)}): {md(f.message)}"
        size += len(item.encode("utf-8")) + 1
        if size > SUMMARY_MAX - 1024:
            break
        shown.append(item)
    title = "Findings" if len(shown) == total else f"The first {len(shown)} of {total} findings"
    return "\n".join([*head, f"#### {title}", "", *shown]) + "\n"
