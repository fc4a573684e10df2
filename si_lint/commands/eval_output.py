"""How ``si-lint eval`` writes its verdicts: one text line per artifact (with the row's
explanation), or a JSON list written one entry at a time."""

from __future__ import annotations

import json


def text_line(entry: dict, why: str | None) -> str:
    head = f"{entry['evidence']}: "
    if entry.get("error") is not None:
        return head + f"error: {entry['error']}"
    out = head + f"{entry['score']!r} (row {entry['row']})"
    md = entry.get("metadata") or {}
    bits = [
        f"tool calls {md.get('tool_calls')}",
        "final answer" if md.get("final_answer") else "no final answer",
    ]
    if "duration_s" in md:
        bits.append(f"{md['duration_s']} s")
    if "duration_ms" in md:
        bits.append(f"{md['duration_ms']} ms")
    if "tokens" in md:
        bits.append(f"{md['tokens']} tokens")
    if "observed_model" in md:
        bits.append(f"model {md['observed_model']}")
    out += "  [" + ", ".join(bits) + "]"
    if why:
        out += f"\n  why: {why}"
    return out


class JsonList:
    """Writes ``json.dumps(entries, indent=2)`` one entry at a time."""

    def __init__(self, out) -> None:
        self.out = out
        self.count = 0

    def add(self, entry: dict) -> None:
        body = json.dumps(entry, indent=2).replace("\n", "\n  ")
        self.out.write(("[\n  " if self.count == 0 else ",\n  ") + body)
        self.count += 1

    def close(self) -> None:
        self.out.write("[]\n" if self.count == 0 else "\n]\n")
