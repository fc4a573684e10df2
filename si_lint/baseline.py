"""``--write-baseline FILE`` / ``--baseline FILE`` (SPEC §9): each finding's line-independent
fingerprint (SARIF's ``partialFingerprints["siLint/v1"]``), with its code, path and message
for people reading it."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from .errors import UsageError
from .report.fingerprint import Fingerprinter

FORMAT = "si-lint-baseline"
VERSION = 1


@dataclass(frozen=True)
class Applied:
    findings: list  # what remains to report
    matched: int  # findings the baseline hid
    stale: int  # baseline entries that match no finding


def render(result) -> str:
    printer = Fingerprinter(result)
    found = result.findings
    entries = [
        dict(fingerprint=fp, code=code, path=path, document=doc, node=anchor, message=f.message)
        for f, (code, path, doc, anchor, _n), fp in zip(
            found, printer.identities(found), printer.fingerprints(found)
        )
    ]
    entries.sort(key=lambda e: (e["path"], e["code"], e["document"], e["node"], e["fingerprint"]))
    baseline = {"format": FORMAT, "version": VERSION, "findings": entries}
    return json.dumps(baseline, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load(path: str) -> list[tuple[str, str, str]]:
    def refused(why: str) -> UsageError:
        return UsageError(f"--baseline {path}: {why}")

    try:
        with open(path, "rb") as fh:
            raw = fh.read(256 * 1024 * 1024)
    except OSError as exc:
        raise refused(f"cannot read it: {exc.strerror or type(exc).__name__}") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise refused(f"not a si-lint baseline (invalid JSON: {exc})") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != FORMAT
        or not isinstance(doc.get("findings"), list)
    ):
        raise refused("not a si-lint baseline (write one with --write-baseline)")
    if doc.get("version") != VERSION:
        raise refused(f"baseline version {doc.get('version')!r} is not {VERSION}")
    out = []
    for entry in doc["findings"]:
        fp = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fp, str):
            raise refused("an entry without a fingerprint")
        out.append((fp, str(entry.get("code", "")), str(entry.get("path", ""))))
    return out


def apply(result, entries: list[tuple[str, str, str]]) -> Applied:
    """A baseline entry hides one finding. An entry is stale when it matches none although
    its file was checked and its code is enabled."""
    printer = Fingerprinter(result)
    left = Counter(fp for fp, _code, _path in entries)
    keep = []
    matched = 0
    for f, fp in zip(result.findings, printer.fingerprints(result.findings)):
        if left[fp] > 0:
            left[fp] -= 1
            matched += 1
        else:
            keep.append(f)
    checked = {printer.rel(p) for p in result.reported}
    stale = 0
    for fp, code, path in entries:
        if left[fp] <= 0 or (checked and path not in checked):
            continue
        if code and not result.config.enabled(code):
            continue
        left[fp] -= 1
        stale += 1
    return Applied(keep, matched, stale)
