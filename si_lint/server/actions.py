"""Code actions: each finding's fix (the text ``--fix`` writes for it), "disable CODE for
this line", and "fix all" of the safe fixes, each as the whole buffer after it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..fix import FixError, fixes_of
from ..fix.files import is_safe
from ..fix.text import fix_stream
from ..loader import load_bytes
from ..loader.suppressions import scan_suppressions

_DISABLE = re.compile(r"(#\s*si-lint:\s*disable\s*=\s*[A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)")


@dataclass
class Action:
    title: str
    kind: str  # "quickfix" | "source.fixAll"
    new_text: str  # the whole buffer after the action
    codes: tuple[str, ...]
    preferred: bool = False


def _fixed(text: str, findings: list, path: str) -> str | None:
    """What ``--fix`` writes for ``findings``; None when none applies."""
    by_doc: dict = {}
    for f in findings:
        by_doc.setdefault(f.document, []).extend(fixes_of(f.fix))
    try:
        new, applied = fix_stream(text, by_doc, json_file=path.endswith(".json"))
    except FixError:
        return None
    return new if applied and new != text else None


def code_actions(state, abspath: str, text: str, first0: int, last0: int) -> list[Action]:
    findings = state.findings_of(abspath)
    out: list[Action] = []
    seen_disable: set[tuple[str, int]] = set()
    for f in findings:
        if not first0 <= f.line - 1 <= last0:
            continue
        new = _fixed(text, [f], abspath) if fixes_of(f.fix) else None
        if new is not None:
            safe = is_safe(f)
            title = f"Fix {f.code}: {f.help or f.message}" + ("" if safe else " (unsafe fix)")
            out.append(Action(title, "quickfix", new, (f.code,), preferred=safe))
        if f.code != "SI000" and (f.code, f.line) not in seen_disable:
            seen_disable.add((f.code, f.line))
            new = disable_text(text, f.code, f.line)
            if new is not None:
                out.append(Action(f"Disable {f.code} for this line", "quickfix", new, (f.code,)))
    every = [f for f in findings if fixes_of(f.fix) and is_safe(f)]
    new = _fixed(text, every, abspath) if every else None
    if new is not None:
        codes = tuple(sorted({f.code for f in every}))
        out.append(Action("Fix all safe si-lint fixes", "source.fixAll", new, codes))
    return out


def _suppressed(loaded, code: str, target: int) -> bool:
    return any(
        code in codes and kind in ("line", "above") and sl + (kind == "above") == target
        for sl, _c, kind, codes in scan_suppressions(loaded.text or "", loaded.quiet_spans)
    )


def disable_text(text: str, code: str, line: int) -> str | None:
    """The buffer with a suppression of ``code`` for ``line`` (1-based): in the line's own
    comment, or a new comment at its end, or a comment line above it (its end is inside a
    scalar). It must load to the same data and cover the line, or nothing is offered."""
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    if not 1 <= line <= len(lines):
        return None
    before = [d.data for d in load_bytes(text.encode("utf-8")).documents]
    src = lines[line - 1]
    m = _DISABLE.search(src)
    if m:
        same_line = src[: m.end()] + "," + code + src[m.end() :]
    else:
        same_line = src.rstrip() + f"  # si-lint: disable={code}"
    indent = src[: len(src) - len(src.lstrip(" -"))].replace("-", " ")
    candidates = [
        lines[: line - 1] + [same_line] + lines[line:],
        lines[: line - 1] + [f"{indent}# si-lint: disable={code}", src] + lines[line:],
    ]
    for cand in candidates:
        new = nl.join(cand)
        after = load_bytes(new.encode("utf-8"))
        if after.failed or [d.data for d in after.documents] != before:
            continue
        if _suppressed(after, code, line + (1 if len(cand) > len(lines) else 0)):
            return new
    return None
