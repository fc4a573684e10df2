"""`--format gitlab`: a GitLab Code Quality report (SPEC §9).

A JSON array with one object per finding: ``description`` (the code and message),
``check_name`` (the code), ``fingerprint`` (the line-independent fingerprint shared with SARIF
and ``--baseline``, so GitLab tracks a finding across commits), ``severity`` (``major`` for
errors, ``minor`` for warnings, ``info`` for infos), ``location.path`` (relative, ``/``) and
``location.lines.begin``; plus ``categories`` and ``content.body`` (the help).
Load it in ``.gitlab-ci.yml`` with ``artifacts: reports: codequality: si-lint.json``."""

from __future__ import annotations

import json

_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def render(result, **_options) -> str:
    from .fingerprint import Fingerprinter

    findings = list(result.findings)
    out = []
    for f, fp in zip(findings, Fingerprinter(result).fingerprints(findings)):
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
        out.append(item)
    return json.dumps(out, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
