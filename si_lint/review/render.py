"""Render a review report (see :func:`si_lint.review.run.build_report`) as text, JSON or
Markdown (for pasting into a pull-request review)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_ACTION_MARK = {"added": "+", "removed": "-", "changed": "~", "promoted": "↑"}


def _fmt_val(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def fmt_verdict(v: Mapping[str, Any]) -> str:
    if v.get("error") is not None:
        return f"error: {v['error']}"
    score = v.get("score")
    row = v.get("row")
    return f"{score!r} (row {row})"


def _change_line(c: Mapping[str, Any]) -> str:
    kind = c["kind"].replace("_", " ")
    text = f"{c['action']} {kind} `{c['name']}`"
    if c["kind"] == "promotion":
        text = f"promoted candidate `{c['name']}` into the registry"
    bits = []
    if c.get("before") is not None or c.get("after") is not None:
        if c["action"] == "changed" and c["kind"] in (
            "registry",
            "ratified_budget",
            "parameter",
            "constant",
        ):
            bits.append(f"{_fmt_val(c.get('before'))} → {_fmt_val(c.get('after'))}")
        elif c["action"] == "added" and c["kind"] in ("ratified_budget", "parameter"):
            bits.append(_fmt_val(c.get("after")))
        elif c["action"] == "removed" and c["kind"] in ("ratified_budget", "parameter"):
            bits.append(_fmt_val(c.get("before")))
    if c.get("detail"):
        bits.append(c["detail"])
    return text + (": " + "; ".join(bits) if bits else "")


def _reach_line(r: Mapping[str, Any]) -> str:
    parts = []
    if r["templates"]:
        parts.append("templates " + ", ".join(r["templates"]))
    if r["scenarios"]:
        parts.append("scenarios " + ", ".join(s["id"] for s in r["scenarios"]))
    if r["fixtures"]:
        parts.append(f"{len(r['fixtures'])} fixture(s)")
    return "; ".join(parts) if parts else "nothing in this corpus"


def _head(report: Mapping[str, Any]) -> str:
    b, h = report["base"], report["head"]
    return (
        f"{b['source']} ({b.get('profile')} {b.get('version')}) → "
        f"{h['source']} ({h.get('profile')} {h.get('version')})"
    )


def _refused_text(refused: list) -> list[str]:
    """The base tree's entries that were not copied (first: the reviewer must see them)."""
    if not refused:
        return []
    out = [f"Refused from the base revision's tree ({len(refused)} entry(ies), not written):"]
    out += [f"  {r['path']}: {r['message']}" for r in refused]
    return out + [""]


def render_text(report: Mapping[str, Any]) -> str:
    out = [f"si-lint review: {_head(report)}", ""]
    out += _refused_text(report.get("refused", []))
    changes = report["changes"]
    out.append(f"Changes ({len(changes)}):" if changes else "Changes: none")
    for c in changes:
        out.append(f"  {_ACTION_MARK.get(c['action'], '~')} {_change_line(c)}")
        out.append(f"      reaches: {_reach_line(c['reaches'])}")
    out += _notices_text(report.get("notices") or [])
    r = report["reached"]
    out.append("")
    out.append("Reached:")
    out.append("  templates: " + (", ".join(r["templates"]) or "none"))
    out.append(
        "  scenarios: " + (", ".join(f"{s['id']} ({s['path']})" for s in r["scenarios"]) or "none")
    )
    out.append("  fixtures:  " + (", ".join(r["fixtures"]) or "none"))
    v = report["verdicts"]
    out.append("")
    out.append(
        f"Verdicts that change ({len(v['changed'])} of {v['evaluated']} re-evaluated fixture(s)):"
        if v["changed"]
        else f"Verdicts that change: none ({v['evaluated']} re-evaluated fixture(s))"
    )
    for ch in v["changed"]:
        out.append(
            f"  {ch['fixture']} [{ch['scenario']}]: "
            f"{fmt_verdict(ch['before'])} → {fmt_verdict(ch['after'])}"
        )
        if ch.get("why"):
            out.append(f"      now: {ch['why']}")
    if v["not_recomputed"]:
        out.append("")
        out.append(
            f"Not recomputed ({len(v['not_recomputed'])} fixture(s); implementations are not "
            "trusted — rerun with --trust-implementations to import them):"
        )
        for n in v["not_recomputed"]:
            needs = "; ".join(
                f"{side} needs {', '.join(names)}" for side, names in n["needs"].items()
            )
            out.append(f"  {n['fixture']} [{n['scenario']}]: {needs}")
    out += _lint_text(report.get("lint"), report)
    impl = report["implementations"]
    out.append("")
    out.append(
        f"Implementation review ({len(impl)} finding(s)):"
        if impl
        else "Implementation review: clean"
    )
    for f in impl:
        out.append(
            f"  {f['path']}:{f['line']}:{f['column']}: {f['code']} [{f['severity']}] {f['message']}"
        )
    return "\n".join(out) + "\n"


def _location(f: Mapping[str, Any]) -> str:
    return f"{f['path']}:{f['line']}:{f['column']}"


def _finding_text(f: Mapping[str, Any]) -> str:
    where = f" [{f['scenario']}]" if f.get("scenario") else ""
    return f"{_location(f)}: {f['code']} [{f['severity']}] {f['message']}{where}"


def _counts_text(c: Mapping[str, Any]) -> str:
    return (
        f"{c['findings']} finding(s): {c['errors']} error(s), {c['warnings']} warning(s), "
        f"{c['infos']} info(s)"
    )


def _lint_text(lint: Mapping[str, Any] | None, report: Mapping[str, Any]) -> list[str]:
    """The check findings the change adds and removes (each at its own side's line)."""
    if lint is None:
        return []
    out = [
        "",
        f"Check under {report['base']['source']}: {_counts_text(lint['base'])}; "
        f"under {report['head']['source']}: {_counts_text(lint['head'])}",
    ]
    for title, key in (("adds", "added"), ("removes", "removed")):
        rows = lint[key]
        out.append("")
        out.append(
            f"Check findings the change {title} ({len(rows)}):"
            if rows
            else f"Check findings the change {title}: none"
        )
        out += [f"  {_finding_text(f)}" for f in rows]
    return out


def _notice_where(n: Mapping[str, Any]) -> str:
    return f"{_location(n)}: " if n.get("path") else ""


def _notices_text(notices: list) -> list[str]:
    """The review's own findings about the change (content changed, version not)."""
    if not notices:
        return []
    out = ["", f"Review findings ({len(notices)}):"]
    for n in notices:
        out.append(f"  {_notice_where(n)}[{n['severity']}] {n['message']}")
        out.append(f"      help: {n['help']}")
    return out


def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Mapping[str, Any]) -> str:
    out = (
        _md_head(report)
        + _md_refused(report.get("refused", []))
        + _md_changes(report["changes"], report.get("notices") or [])
        + _md_reached(report["reached"])
        + _md_verdicts(report["verdicts"])
        + _md_lint(report.get("lint"), report)
        + _md_implementations(report["implementations"])
    )
    return "\n".join(out) + "\n"


def _md_head(report: Mapping[str, Any]) -> list[str]:
    b, h = report["base"], report["head"]
    return [
        f"### si-lint review: `{b['source']}` → `{h['source']}`",
        "",
        f"Profile **{b.get('profile')} {b.get('version')}** → **{h.get('profile')} {h.get('version')}**"
        + ("" if report.get("trusted") else " · implementations not trusted (static review only)"),
        "",
    ]


def _md_refused(refused: list) -> list[str]:
    if not refused:
        return []
    out = [f"#### Refused from the base revision's tree ({len(refused)}, not written)", ""]
    out += ["| entry | why |", "|---|---|"]
    for r in refused:  # the path is escaped already; a backtick would end the code span
        path = _md_cell(r["path"].replace("`", "\\x60"))
        out.append(f"| `{path}` | {_md_cell(r['message'])} |")
    return out + [""]


def _md_changes(changes: list, notices: list) -> list[str]:
    out = [f"#### Changes ({len(changes)})", ""]
    for n in notices:  # the review's own findings about the change
        where = f"`{_md_cell(_location(n))}`: " if n.get("path") else ""
        out.append(
            f"> **{n['severity']}:** {where}{_md_cell(n['message'])} — {_md_cell(n['help'])}"
        )
    out += [""] if notices else []
    if changes:
        out.append("| change | reaches |")
        out.append("|---|---|")
        for c in changes:
            out.append(f"| {_md_cell(_change_line(c))} | {_md_cell(_reach_line(c['reaches']))} |")
    else:
        out.append("No profile changes.")
    return out


def _md_reached(r: Mapping[str, Any]) -> list[str]:
    return [
        "",
        "#### Reached",
        "",
        "- **Templates:** " + (", ".join(f"`{t}`" for t in r["templates"]) or "none"),
        "- **Scenarios:** "
        + (", ".join(f"`{s['id']}` (`{s['path']}`)" for s in r["scenarios"]) or "none"),
        "- **Fixtures:** " + (", ".join(f"`{f}`" for f in r["fixtures"]) or "none"),
        "",
    ]


def _md_verdicts(v: Mapping[str, Any]) -> list[str]:
    """The verdicts that change, then the fixtures not recomputed (when there are any)."""
    out = [f"#### Verdicts that change ({len(v['changed'])} of {v['evaluated']} re-evaluated)", ""]
    if v["changed"]:
        out.append("| fixture | scenario | before | after | why (under the proposed profile) |")
        out.append("|---|---|---|---|---|")
        for ch in v["changed"]:
            out.append(
                f"| `{ch['fixture']}` | `{ch['scenario']}` | {_md_cell(fmt_verdict(ch['before']))} "
                f"| {_md_cell(fmt_verdict(ch['after']))} | {_md_cell(ch.get('why') or '')} |"
            )
    else:
        out.append("None.")
    if v["not_recomputed"]:
        out += [
            "",
            f"#### Not recomputed ({len(v['not_recomputed'])})",
            "",
            "Implementations were not trusted; rerun with `--trust-implementations` to import them.",
            "",
            "| fixture | scenario | needs |",
            "|---|---|---|",
        ]
        for n in v["not_recomputed"]:
            needs = "; ".join(f"{side}: {', '.join(names)}" for side, names in n["needs"].items())
            out.append(f"| `{n['fixture']}` | `{n['scenario']}` | {_md_cell(needs)} |")
    return out


def _md_lint(lint: Mapping[str, Any] | None, report: Mapping[str, Any]) -> list[str]:
    if lint is None:
        return []
    out = [
        "",
        f"Check under `{report['base']['source']}`: {_counts_text(lint['base'])}; "
        f"under `{report['head']['source']}`: {_counts_text(lint['head'])}.",
    ]
    for title, key in (("adds", "added"), ("removes", "removed")):
        rows = lint[key]
        out += ["", f"#### Check findings the change {title} ({len(rows)})", ""]
        if not rows:
            out.append("None.")
            continue
        out += ["| location | code | severity | scenario | message |", "|---|---|---|---|---|"]
        for f in rows:
            scenario = f"`{f['scenario']}`" if f.get("scenario") else ""
            out.append(
                f"| `{_md_cell(_location(f))}` | {f['code']} | {f['severity']} | {scenario} "
                f"| {_md_cell(f['message'])} |"
            )
    return out


def _md_implementations(impl: list) -> list[str]:
    out = ["", f"#### Implementation review ({len(impl)} finding(s))", ""]
    if impl:
        out.append("| code | severity | location | message |")
        out.append("|---|---|---|---|")
        for f in impl:
            out.append(
                f"| {f['code']} | {f['severity']} | `{f['path']}:{f['line']}:{f['column']}` "
                f"| {_md_cell(f['message'])} |"
            )
    else:
        out.append("Clean.")
    return out


def render(report: Mapping[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report)
