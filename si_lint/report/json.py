"""`--format json`: exactly SPEC §7."""

from __future__ import annotations

import json

from . import summary_counts


def render(result, **_options) -> str:
    doc = {
        "version": 1,
        "diagnostics": [f.as_json() for f in result.findings],
        "summary": {"files": result.files, **summary_counts(result.findings)},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
