"""``isinstance(x, MAPPING)``: whether ``x`` is a mapping, asking first whether it is a
``dict`` (the documents are plain dicts; the ``Mapping`` ABC's check is 7 times slower)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAPPING = (dict, Mapping)


def lookup(node: Any, key: Any, kind: type | tuple = object, default: Any = None) -> Any:
    value = node.get(key) if isinstance(node, MAPPING) else None
    return value if value is not None and isinstance(value, kind) else default
