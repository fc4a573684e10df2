"""The per-file entries' bodies, in ``bodies-<id>.bin`` beside ``results.json``. The file is
not signed: each body is checked against the BLAKE2b digest the signed table holds, so
it is trusted exactly as the table is (ARCHITECTURE.md, "The cache")."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from typing import Any

from ..fsutil import read_range
from .signed import decode_json, dumps

PREFIX, SUFFIX = "bodies-", ".bin"
_ID = re.compile(r"[0-9a-f]{16}\Z")


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def bodies_file(directory, table_id: Any) -> str | None:
    """None for an id ``Cache`` never makes (16 hex digits)."""
    if type(table_id) is not str or _ID.match(table_id) is None:
        return None
    return os.path.join(directory, PREFIX + table_id + SUFFIX)


def is_ref(value: Any) -> bool:
    """``[offset, length, digest]`` (a body itself is a list of lists)."""
    return type(value) in (list, tuple) and tuple(map(type, value[:4])) == (int, int, str)


class Stored:
    """An entry's body as the cache holds it: data, JSON text (``msgspec.Raw``), or the
    ref of one in the bodies file ``path``."""

    __slots__ = ("raw", "path")

    def __init__(self, raw: Any, path: str | None):
        self.raw = raw
        self.path = path

    def load(self) -> Any:
        """None for a ref that does not check."""
        value = self.raw
        if type(value) is not list:
            try:
                value = decode_json(memoryview(value))
            except TypeError:  # neither data nor text
                return None
        if not is_ref(value):
            return value
        data = self.text_of(value)
        return None if data is None else decode_json(data)

    def text_of(self, ref) -> bytes | None:
        offset, length, want = ref
        data = read_range(self.path, offset, length) if self.path is not None else None
        return data if data is not None and digest(data) == want else None


def body_text(body: Any, path: str | None) -> bytes | None:
    """An entry's body as JSON text for a new bodies file (a ref's bytes read back and
    checked); None when it cannot be had."""
    if type(body) is list:
        return dumps(body)
    try:
        view = memoryview(body)
    except TypeError:
        return None
    if len(view) > 96:  # a ref is a few numbers and a digest: this is a body
        return bytes(view)
    value = decode_json(view)
    if is_ref(value):
        return Stored(None, path).text_of(value)
    return bytes(view) if value is not None else None


def remove_others(directory, keep: set) -> None:
    """Remove the bodies files but ``keep``: the table written and the one it replaced,
    which a run may still be reading (one reading an older one reads its files again)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if name.startswith(PREFIX) and name.endswith(SUFFIX) and path not in keep:
            with contextlib.suppress(OSError):
                os.unlink(path)
