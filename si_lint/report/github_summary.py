"""The Markdown job summary of `--format github`, appended to ``$GITHUB_STEP_SUMMARY``.

GitHub shows at most 10 annotations of each level per step; the summary is where a run's
whole picture is: a table of the counts by code (severity, count, the rule's name linked
to its page) and the first :data:`FIRST` findings in annotation order, each with a link to
its file and line (``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/PATH#Lline``
when the runner sets them; the path as text otherwise). It is bounded: GitHub refuses a
step summary over 1 MiB, and this one stays under :data:`MAX_BYTES` whatever the run
(messages cut at :data:`MESSAGE_MAX` characters, findings left out past the budget).
Text from the corpus (paths, messages) is Markdown-escaped: it cannot make a link, an
image, HTML or a table cell of its own.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from urllib.parse import quote

from .. import rule_url
from ..catalogue import code_key, rules
from ..findings import SEVERITY_RANK
from . import summary_counts
from .controls import printable
from .output import output_error
from .text import passed_line

#: the findings listed after the table
FIRST = 50
#: a message (or path) is cut to this many characters in the summary
MESSAGE_MAX = 300
#: the summary's bound in bytes (GitHub's limit is 1 MiB per step)
MAX_BYTES = 256 * 1024
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&$])")


def md(text: str, limit: int = MESSAGE_MAX) -> str:
    """``text`` as literal Markdown on one line: control characters as escapes, line
    breaks as spaces, every Markdown punctuation backslash-escaped, cut to ``limit``."""
    text = printable(str(text)).replace("\r", " ").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return _MARKDOWN.sub(r"\\\1", text)


def file_url(path: str, line: int, env=os.environ) -> str | None:
    """The page of ``path`` at ``line`` in the commit the run checked, or None (not in
    GitHub Actions, or the file is outside the checked-out repository)."""
    server, repo, sha = (
        env.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA")
    )
    if not (server and repo and sha):
        return None
    workspace = env.get("GITHUB_WORKSPACE")
    rel = path
    if workspace:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(workspace))
    rel = rel.replace(os.sep, "/")
    if os.path.isabs(rel) or rel == ".." or rel.startswith("../"):
        return None
    return f"{server}/{repo}/blob/{quote(sha, safe='')}/{quote(rel, safe='/-._~')}#L{int(line)}"


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


def _item(f) -> str:
    where = md(f"{f.path}:{f.line}:{f.column}")
    url = file_url(f.path, f.line)
    place = f"[{where}]({url})" if url else where
    return f"- {place} **{md(f.code)}** ({md(f.severity)}): {md(f.message)}"


def render(result, findings) -> str:
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
    for f in findings[:FIRST]:
        item = _item(f)
        size += len(item.encode("utf-8")) + 1
        if size > MAX_BYTES - 1024:
            break
        shown.append(item)
    title = "Findings" if len(shown) == total else f"The first {len(shown)} of {total} findings"
    return "\n".join([*head, f"#### {title}", "", *shown]) + "\n"


def append(path: str, result, findings) -> None:
    """The summary appended to the file ``path`` (``$GITHUB_STEP_SUMMARY``)."""
    text = render(result, findings)
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        raise output_error(path, exc) from None
