"""The lint impact of a profile change: ``check --no-cache --profile P`` of the corpus under
each side (its configuration applies), and the findings only one side has. Two findings are
the same when code, path, document, scenario and message are (not the line: a moved finding
is no change); a message naming the profile in use (SI115) is compared with that name
replaced and shown with the side's label (a git revision's copy as ``REV:path``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..mapping import MAPPING
from ..pipeline import Options, run
from ..profile import BUILTIN_DIR, is_builtin_name

#: stands for the profile's name in a comparison key
_PROFILE_TOKEN = "\x00profile\x00"


def _check(target: Path, side: Any, cwd: Path, trust: bool) -> tuple[dict, dict]:
    """The counts of the findings; the first entry of each key, in check's order."""
    spec = side.profile.name  # what `check --profile` is given
    if not is_builtin_name(spec):
        builtin = str(side.directory) == str(BUILTIN_DIR)
        spec = "builtin" if builtin else str(Path(side.directory).resolve())
    options = Options(use_cache=False, trust_implementations=trust, profile=spec)
    result = run([str(target)], options, cwd)
    scenarios = {
        (d.relpath.replace("\\", "/"), d.index): sid
        for d in getattr(result.corpus, "documents", None) or ()
        if d.kind == "scenario" and isinstance(d.data, MAPPING)
        if isinstance(sid := d.data.get("id"), str)
    }
    keyed: dict = {}
    for f in result.findings:
        sid = scenarios.get((f.path, f.document or 0))
        message = f.message.replace(f"profile {spec}", f"profile {_PROFILE_TOKEN}")
        key = (f.code, f.path, f.document or 0, sid or "", message)
        keyed.setdefault(key, _entry(f, sid, spec, side.label))
    severities = [f.severity for f in result.findings]
    counts = {f"{sev}s": severities.count(sev) for sev in ("error", "warning", "info")}
    return {"findings": len(severities)} | counts, keyed


def _entry(finding: Any, scenario: str | None, spec: str, label: str) -> dict:
    row = {k: getattr(finding, k) for k in ("code", "severity", "path", "line", "column")}
    if finding.document is not None:
        row["document"] = finding.document
    if scenario is not None:
        row["scenario"] = scenario
    row["message"] = _named(finding.message, spec, label)
    if finding.help:
        row["help"] = _named(finding.help, spec, label)
    return row


def _named(text: str, spec: str, name: str) -> str:
    return text.replace(f"profile {spec}", f"profile {name}") if spec != name else text


def lint_delta(target: Path, base: Any, head: Any, cwd: Path, trust: bool) -> dict:
    """Counts per side; added (at the head's line) and removed findings, in check's order."""
    (bcounts, bkeys), (hcounts, hkeys) = (_check(target, side, cwd, trust) for side in (base, head))
    return {
        "base": bcounts,
        "head": hcounts,
        "added": [v for k, v in hkeys.items() if k not in bkeys],
        "removed": [v for k, v in bkeys.items() if k not in hkeys],
    }


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def registry_header(registry: Any) -> Mapping[str, Any]:
    h = registry.get("registry") if isinstance(registry, MAPPING) else None
    return h if isinstance(h, MAPPING) else {}


def _content(registry: Any) -> str:
    if not isinstance(registry, MAPPING):
        return _canon(registry)
    data = dict(registry)
    data["registry"] = {k: v for k, v in registry_header(registry).items() if k != "version"}
    return _canon(data)


def registry_version_notices(
    base: Any, head: Any, implementations: Iterable[str] = ()
) -> list[dict]:
    """A warning when content changed but ``registry.version`` did not (two profiles under one
    version cannot be told apart in a report); not between the two shipped profiles, which
    are one version read two ways on purpose."""
    if is_builtin_name(base.profile.name) and is_builtin_name(head.profile.name):
        return []
    version = registry_header(head.profile.registry).get("version")
    if version is None or version != registry_header(base.profile.registry).get("version"):
        return []
    parts = []
    if _content(base.profile.registry) != _content(head.profile.registry):
        parts.append("registry content")
    bt, ht = base.profile.templates, head.profile.templates
    changed = sorted(
        str(t)
        for t in set(bt) | set(ht)
        if t not in bt or t not in ht or _canon(bt[t]) != _canon(ht[t])
    )
    for word, names in (("templates", changed), ("implementations", sorted(set(implementations)))):
        parts += [f"{word} ({', '.join(names)})"] if names else []
    if not parts:
        return []
    shown = version if isinstance(version, str) else _canon(version)
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return [
        {
            "severity": "warning",
            "message": f"{said} changed but version still {shown}",
            "help": "bump `registry.version` so that reports and evaluators can tell the "
            "proposed profile from the one it changes",
        }
    ]
