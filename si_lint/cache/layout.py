"""The layout of the cache's per-file table (``results.json``) and of its delta
(``delta.json``): how they are written a piece at a time, and the shapes msgspec decodes
them as (an entry's body left undecoded)."""

from __future__ import annotations

from typing import Any, TypedDict

from msgspec import Raw

from .signed import dumps


def object_chunks(fields: dict):
    """A JSON object as text, a piece at a time: a field given as ``(table, encode)`` is
    written entry by entry, each as ``encode`` writes it (an entry it cannot write is
    left out: computed again next time)."""
    sep = b"{"
    for name, value in fields.items():
        if type(value) is not tuple:
            yield sep + dumps(name) + b":" + dumps(value)
        else:
            table, encode = value
            yield sep + dumps(name) + b":{"
            first = True
            for key, entry in table.items():
                try:
                    piece = dumps(key) + b":" + encode(entry)
                except (TypeError, ValueError, RecursionError):
                    continue
                yield piece if first else b"," + piece
                first = False
            yield b"}"
        sep = b","
    yield b"}"


def entry_json(entry) -> bytes:
    """A per-file entry as JSON text: ``[head, body]``, with a body the cache read and left
    undecoded (``msgspec.Raw``) written as it was read."""
    head, body = entry
    if type(body) is Raw:
        return b"[" + dumps(head) + b"," + bytes(body) + b"]"
    return dumps([head, body])


# the shapes (:func:`~.signed.decode_json`) of the per-file table and of its delta: an
# entry's body (``pipeline.data.to_entry``) is left undecoded, ``msgspec.Raw``, until a run
# reads a document of its file (most runs read none)


class Table(TypedDict, total=False):
    header: Any
    id: Any
    files: dict[str, tuple[Any, Raw]]
    memo: Any


class Delta(TypedDict, total=False):
    header: Any
    base: Any
    files_added: dict[str, tuple[Any, Raw]]
    files_removed: Any
    memo_added: Any
    memo_removed: Any
