"""A review report as text, JSON or Markdown (for a pull-request review)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_ACTION_MARK = {"added": "+", "removed": "-", "changed": "~", "promoted": "↑"}


def _fmt_val(v: Any) -> str:
    if v is None or isinstance(v, str):
        return v or ""
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def _verdict(v: Mapping[str, Any]) -> str:
    if v.get("error") is not None:
        return f"error: {v['error']}"
    return f"{v.get('score')!r} (row {v.get('row')})"


#: the kinds whose values a change line shows, per action
_SHOWN = {
    "changed": ("registry", "ratified_budget", "parameter", "constant"),
    "added": ("ratified_budget", "parameter"),
    "removed": ("ratified_budget", "parameter"),
}


def _change_line(c: Mapping[str, Any]) -> str:
    kind = c["kind"].replace("_", " ")
    text = f"{c['action']} {kind} `{c['name']}`"
    if c["kind"] == "promotion":
        text = f"promoted candidate `{c['name']}` into the registry"
    bits = []
    before, after = c.get("before"), c.get("after")
    if (before is not None or after is not None) and c["kind"] in _SHOWN.get(c["action"], ()):
        shown = {"changed": f"{_fmt_val(before)} → {_fmt_val(after)}", "added": _fmt_val(after)}
        bits.append(shown.get(c["action"], _fmt_val(before)))
    if c.get("detail"):
        bits.append(c["detail"])
    return text + (": " + "; ".join(bits) if bits else "")


def _reach_line(r: Mapping[str, Any]) -> str:
    parts = [
        r["templates"] and "templates " + ", ".join(r["templates"]),
        r["scenarios"] and "scenarios " + ", ".join(s["id"] for s in r["scenarios"]),
        r["fixtures"] and f"{len(r['fixtures'])} fixture(s)",
    ]
    return "; ".join(p for p in parts if p) or "nothing in this corpus"


def render_text(report: Mapping[str, Any]) -> str:
    b, h = report["base"], report["head"]
    out = [
        f"si-lint review: {b['source']} ({b.get('profile')} {b.get('version')}) → "
        f"{h['source']} ({h.get('profile')} {h.get('version')})",
        "",
    ]
    refused = report.get("refused", [])
    if refused:  # first: the reviewer must see them
        out += [f"Refused from the base revision's tree ({len(refused)} entry(ies), not written):"]
        out += [f"  {r['path']}: {r['message']}" for r in refused] + [""]
    changes = report["changes"]
    out.append(f"Changes ({len(changes)}):" if changes else "Changes: none")
    for c in changes:
        out.append(f"  {_ACTION_MARK.get(c['action'], '~')} {_change_line(c)}")
        out.append(f"      reaches: {_reach_line(c['reaches'])}")
    notices = report.get("notices") or []  # the review's own findings about the change
    out += ["", f"Review findings ({len(notices)}):"] if notices else []
    for n in notices:
        where = f"{_location(n)}: " if n.get("path") else ""
        out += [f"  {where}[{n['severity']}] {n['message']}", f"      help: {n['help']}"]
    r = report["reached"]
    scenarios = ", ".join(f"{s['id']} ({s['path']})" for s in r["scenarios"])
    out += [
        "",
        "Reached:",
        "  templates: " + (", ".join(r["templates"]) or "none"),
        "  scenarios: " + (scenarios or "none"),
        "  fixtures:  " + (", ".join(r["fixtures"]) or "none"),
        "",
    ]
    out += _text_verdicts(report["verdicts"]) + _lint_text(report.get("lint"), report)
    impl = report["implementations"]
    n = len(impl)
    out += ["", f"Implementation review ({n} finding(s)):" if n else "Implementation review: clean"]
    out += [f"  {_finding_text(f)}" for f in impl]
    return "\n".join(out) + "\n"


def _text_verdicts(v: Mapping[str, Any]) -> list[str]:
    n, of = len(v["changed"]), f"{v['evaluated']} re-evaluated fixture(s)"
    out = [f"Verdicts that change ({n} of {of}):" if n else f"Verdicts that change: none ({of})"]
    for ch in v["changed"]:
        before, after = _verdict(ch["before"]), _verdict(ch["after"])
        out.append(f"  {ch['fixture']} [{ch['scenario']}]: {before} → {after}")
        out += [f"      now: {ch['why']}"] if ch.get("why") else []
    if v["not_recomputed"]:
        out += [
            "",
            f"Not recomputed ({len(v['not_recomputed'])} fixture(s); implementations are not "
            "trusted — rerun with --trust-implementations to import them):",
        ]
        for n in v["not_recomputed"]:
            out.append(f"  {n['fixture']} [{n['scenario']}]: {_needs(n, ' needs ')}")
    return out


def _needs(n: Mapping[str, Any], sep: str) -> str:
    return "; ".join(f"{side}{sep}{', '.join(ns)}" for side, ns in n["needs"].items())


def _location(f: Mapping[str, Any]) -> str:
    return f"{f['path']}:{f['line']}:{f['column']}"


def _finding_text(f: Mapping[str, Any]) -> str:
    where = f" [{f['scenario']}]" if f.get("scenario") else ""
    return f"{_location(f)}: {f['code']} [{f['severity']}] {f['message']}{where}"


def _counts(lint: Mapping[str, Any], report: Mapping[str, Any], quote: str = "") -> str:
    """``Check under BASE: counts; under HEAD: counts``."""
    sides = [
        f"under {quote}{report[side]['source']}{quote}: {c['findings']} finding(s): "
        f"{c['errors']} error(s), {c['warnings']} warning(s), {c['infos']} info(s)"
        for side in ("base", "head")
        for c in [lint[side]]
    ]
    return "Check " + "; ".join(sides)


def _lint_text(lint: Mapping[str, Any] | None, report: Mapping[str, Any]) -> list[str]:
    if lint is None:
        return []
    out = ["", _counts(lint, report)]
    for title, key in (("adds", "added"), ("removes", "removed")):
        rows = lint[key]
        count = f" ({len(rows)}):" if rows else ": none"
        out += ["", f"Check findings the change {title}{count}"]
        out += [f"  {_finding_text(f)}" for f in rows]
    return out


def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _md_table(head: list[str], rows: list[list[str]], empty: str = "None.") -> list[str]:
    if not rows:
        return [empty]
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def _fixture_row(n: Mapping[str, Any], *cells: str) -> list[str]:
    return [f"`{n['fixture']}`", f"`{n['scenario']}`", *map(_md_cell, cells)]


def render_markdown(report: Mapping[str, Any]) -> str:
    b, h = report["base"], report["head"]
    out = [
        f"### si-lint review: `{b['source']}` → `{h['source']}`",
        "",
        f"Profile **{b.get('profile')} {b.get('version')}** → **{h.get('profile')} {h.get('version')}**"
        + ("" if report.get("trusted") else " · implementations not trusted (static review only)"),
        "",
    ]
    refused = report.get("refused", [])
    if refused:  # the path is escaped already; a backtick would end the code span
        out += [f"#### Refused from the base revision's tree ({len(refused)}, not written)", ""]
        rows = [
            ["`" + _md_cell(r["path"].replace("`", "\\x60")) + "`", _md_cell(r["message"])]
            for r in refused
        ]
        out += _md_table(["entry", "why"], rows) + [""]
    out += _md_changes(report["changes"], report.get("notices") or [])
    r = report["reached"]
    scenarios = ", ".join(f"`{s['id']}` (`{s['path']}`)" for s in r["scenarios"])
    out += [
        "",
        "#### Reached",
        "",
        "- **Templates:** " + (", ".join(f"`{t}`" for t in r["templates"]) or "none"),
        "- **Scenarios:** " + (scenarios or "none"),
        "- **Fixtures:** " + (", ".join(f"`{f}`" for f in r["fixtures"]) or "none"),
        "",
    ]
    out += _md_verdicts(report["verdicts"]) + _md_lint(report.get("lint"), report)
    impl = report["implementations"]
    out += ["", f"#### Implementation review ({len(impl)} finding(s))", ""]
    rows = [[f["code"], f["severity"], f"`{_location(f)}`", _md_cell(f["message"])] for f in impl]
    out += _md_table(["code", "severity", "location", "message"], rows, "Clean.")
    return "\n".join(out) + "\n"


def _md_changes(changes: list, notices: list) -> list[str]:
    out = [f"#### Changes ({len(changes)})", ""]
    for n in notices:  # the review's own findings about the change
        where = f"`{_md_cell(_location(n))}`: " if n.get("path") else ""
        msg, help_ = _md_cell(n["message"]), _md_cell(n["help"])
        out.append(f"> **{n['severity']}:** {where}{msg} — {help_}")
    out += [""] if notices else []
    rows = [[_md_cell(_change_line(c)), _md_cell(_reach_line(c["reaches"]))] for c in changes]
    return out + _md_table(["change", "reaches"], rows, "No profile changes.")


def _md_verdicts(v: Mapping[str, Any]) -> list[str]:
    out = [f"#### Verdicts that change ({len(v['changed'])} of {v['evaluated']} re-evaluated)", ""]
    rows = [
        _fixture_row(ch, _verdict(ch["before"]), _verdict(ch["after"]), ch.get("why") or "")
        for ch in v["changed"]
    ]
    out += _md_table(
        ["fixture", "scenario", "before", "after", "why (under the proposed profile)"], rows
    )
    if v["not_recomputed"]:
        out += [
            "",
            f"#### Not recomputed ({len(v['not_recomputed'])})",
            "",
            "Implementations were not trusted; rerun with `--trust-implementations` to import them.",
            "",
        ]
        rows = [_fixture_row(n, _needs(n, ": ")) for n in v["not_recomputed"]]
        out += _md_table(["fixture", "scenario", "needs"], rows)
    return out


def _md_lint(lint: Mapping[str, Any] | None, report: Mapping[str, Any]) -> list[str]:
    if lint is None:
        return []
    out = ["", _counts(lint, report, "`") + "."]
    for title, key in (("adds", "added"), ("removes", "removed")):
        out += ["", f"#### Check findings the change {title} ({len(lint[key])})", ""]
        rows = [
            [f"`{_md_cell(_location(f))}`", f["code"], f["severity"]]
            + [f"`{f['scenario']}`" if f.get("scenario") else "", _md_cell(f["message"])]
            for f in lint[key]
        ]
        out += _md_table(["location", "code", "severity", "scenario", "message"], rows)
    return out


def render(report: Mapping[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report)
