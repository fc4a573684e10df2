"""`--format gitlab`: a GitLab Code Quality report (SPEC §9; its fields:
docs/integration.md), written one object at a time."""

from __future__ import annotations

from .fingerprint import Fingerprinter, digest
from .json import dump_items

_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def _item(f, fp: str) -> dict:
    item = {
        "type": "issue",
        "check_name": f.code,
        "description": f"{f.code}: {f.message}",
        "categories": ["Bug Risk" if f.severity == "error" else "Style"],
        "severity": _SEVERITY.get(f.severity, "major"),
        "fingerprint": fp,
        "location": {"path": f.path, "lines": {"begin": int(f.line)}},
    }
    if f.end_line is not None and f.end_line >= f.line:
        item["location"]["lines"]["end"] = int(f.end_line)
    if f.help:
        item["content"] = {"body": f.help}
    return item


def write(result, out, **_options) -> None:
    prints = Fingerprinter(result).identities(result.findings)
    items = (_item(f, digest(i)) for f, i in zip(result.findings, prints))
    dump_items(items, out, "", sort_keys=True)
    out.write("\n")
