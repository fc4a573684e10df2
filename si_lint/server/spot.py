"""What is under the cursor: the key or scalar value of the buffer's document at a
0-based (line, character), read from the buffer as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..loader import load_bytes
from ..mapping import MAPPING
from ..source import token_end


@dataclass
class Spot:
    path: tuple  # document path of the node under the cursor
    on: str  # "key" | "value"
    data: Any  # the data of the buffer's document the cursor is in (plain)
    index: int = 0  # that document's index in the file

    @property
    def value(self) -> Any:
        return value_at(self.data, self.path)

    def names(self, key: str) -> str | None:
        """The string value under the cursor when it is the value of a ``key`` key."""
        if self.on == "value" and self.path and self.path[-1] == key:
            value = self.value
            return value if isinstance(value, str) else None
        return None


def value_at(data: Any, path: tuple) -> Any:
    """The node at a document path (None when there is none)."""
    node = data
    for p in path:
        if isinstance(node, MAPPING) and p in node:
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        else:
            return None
    return node


def node_at(text: str, line0: int, char0: int) -> Spot | None:
    """The key or scalar value under the cursor, from the buffer as it is (None when the
    buffer does not load, or the cursor is on no key or scalar)."""
    loaded = load_bytes(text.encode("utf-8"))
    if loaded.failed:
        return None
    lines = text.split("\n")
    if not 0 <= line0 < len(lines):
        return None
    src = lines[line0]
    line, col = line0 + 1, char0 + 1
    best = None
    for doc in loaded.documents:
        for on, table in (("key", doc.pos.k), ("value", doc.pos.v)):
            for path, (l, c) in table.items():
                if l != line or c > col or not path:
                    continue
                # the rightmost start wins; at one start the deeper node (a block
                # mapping's value starts where its first key does), then the value
                rank = (c, len(path), on == "value")
                if best is None or rank > best[0]:
                    best = (rank, path, on, doc)
    if best is None:
        return None
    (c, _depth, _on), path, on, doc = best
    end = token_end(src, c)
    if col >= end and not (col == end and char0 > 0):
        return None
    if on == "value" and isinstance(value_at(doc.data, path), (dict, list)):
        return None  # a flow collection's bracket: nothing to say
    return Spot(path, on, doc.data, doc.index)
