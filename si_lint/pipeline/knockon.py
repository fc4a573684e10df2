"""Knock-on findings held back (SPEC §9 "Cross-file scope"): a file that failed to read
(SI001, SI005–SI007) may define ids that other files reference, so a reference to an id
that could be in it (fixtures' and evidence's scenario, SI303; a companion, SI613) is not
reported as missing -- the file's own finding is the one to fix first. "Could be in it":
its text holds the id, or its text could not be read whole."""

from __future__ import annotations

import re

from ..findings import Finding
from ..limits import MAX_BYTES
from .read import raw_of

#: the failed reads
FAILED = ("SI001", "SI005", "SI006", "SI007")
#: the missing-reference findings, and the id each names
REFERENCES = {
    "SI303": re.compile(r"names an unknown scenario `(.*)`$"),
    "SI613": re.compile(r"companion scenario `(.*)` is no scenario in the corpus$"),
}


def failed_texts(per_file: dict, absolute, overrides: dict) -> list[str | None]:
    """The text of each file that failed to read (None: it could not be read whole), of
    the per-file findings ``per_file`` (relpath -> findings; ``absolute``: a relpath to an
    absolute path; ``overrides``: unsaved buffers by absolute path)."""
    out: list[str | None] = []
    for rel, findings in sorted(per_file.items()):
        if not any(f.code in FAILED for f in findings):
            continue
        raw = raw_of(absolute(rel), overrides)
        if raw is None or len(raw) > MAX_BYTES:
            out.append(None)
        else:
            out.append(raw.decode("utf-8", "replace"))
    return out


def held_back_by(findings: list[Finding], texts: list[str | None]) -> list[Finding]:
    """``findings`` without the references to ids one of ``texts`` (those of the files
    that failed to read: :func:`failed_texts`) could define."""
    if not texts:
        return findings
    kept = []
    for f in findings:
        pattern = REFERENCES.get(f.code)
        match = pattern.search(f.message) if pattern is not None else None
        if match is not None and any(t is None or match.group(1) in t for t in texts):
            continue
        kept.append(f)
    return kept
