"""How ``si-lint eval`` writes its verdicts: one text line per artifact (with the row's
explanation), or a JSON list written one entry at a time."""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii as _str


def text_line(entry: dict, other: str | None = None) -> str:
    """One verdict: score, row, metadata, then ``why:`` (the entry's reasons) and, when
    the other built-in reading scores it otherwise, ``note:`` (``other`` names it)."""
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
    why = entry.get("why")
    if why:
        out += f"\n  why: {why['text']}"
    alt = entry.get("oasisctl") or entry.get("builtin")
    if other and alt:
        shown = (
            f"error: {alt['error']}"
            if alt.get("error") is not None
            else f"{alt['score']!r} (row {alt['row']})"
        )
        out += f"\n  note: {other} scores {shown}"
    return out


class Chunked:
    """Writes to ``out`` in chunks of about ``size`` characters: one verdict per write
    would be one system call each on an unbuffered stream (``PYTHONUNBUFFERED``, a pipe
    some CI runners set up), while memory stays bounded whatever the evidence's size."""

    def __init__(self, out, size: int = 1 << 16) -> None:
        self.out = out
        self.size = size
        self.parts: list[str] = []
        self.pending = 0

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.pending += len(text)
        if self.pending >= self.size:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.out.write("".join(self.parts))
            self.parts.clear()
            self.pending = 0
        self.out.flush()


def indented(value, nl: str = "\n") -> str:
    """``json.dumps(value, indent=2)`` with every line break followed by ``nl``'s
    indentation. ``indent`` makes ``json.dumps`` use its pure-Python encoder throughout
    (the bulk of writing a large verdict list); this builds the same text directly."""
    t = type(value)
    if t is dict and value:
        inner = nl + "  "
        items = []
        for k, v in value.items():
            if type(k) is not str:
                return json.dumps(value, indent=2).replace("\n", nl)  # json's key conversions
            tv = type(v)
            if tv is str:
                text = _str(v)
            elif tv is int:  # not a bool (its type is bool)
                text = int.__repr__(v)
            elif tv in _NESTED:
                text = indented(v, inner)
            else:
                text = _scalar(v)
            items.append(_str(k) + ": " + text)
        return "{" + inner + ("," + inner).join(items) + nl + "}"
    if t is list and value:
        inner = nl + "  "
        return "[" + inner + ("," + inner).join([indented(v, inner) for v in value]) + nl + "]"
    return _scalar(value)


_NESTED = (dict, list)


def _scalar(v) -> str:
    t = type(v)
    if t is str:
        return _str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if t is int:
        return int.__repr__(v)
    if t is float and v == v and v not in (_INF, -_INF):
        return float.__repr__(v)
    return json.dumps(v, indent=2)  # NaN, infinities, empty containers, subclasses


_INF = float("inf")


class JsonList:
    """Writes ``json.dumps(entries, indent=2)`` one entry at a time."""

    def __init__(self, out) -> None:
        self.out = out
        self.count = 0

    def add(self, entry: dict) -> None:
        self.add_text(indented(entry, "\n  "))

    def add_text(self, body: str, count: int = 1) -> None:
        """``count`` entries already rendered (``indented(entry, "\\n  ")``, joined by
        ``",\\n  "``)."""
        self.out.write(("[\n  " if self.count == 0 else ",\n  ") + body)
        self.count += count

    def close(self) -> None:
        self.out.write("[]\n" if self.count == 0 else "\n]\n")
