"""The result memo as the resident state's edits use it: bounded.

``check`` keeps every memo entry it computes until it saves the cache at the end of its
run. The language server's run never ends, and a buffer being typed is a new text (a new
content hash, so a new dry-run key) at every edit: kept the same way, those entries grew
without end. :class:`SessionMemo` stands in for the cache in the state's context after the
first load: it answers from what the session computed last (the ``limit`` most recently
used entries, an undo finds its result again) and else from the cache as loaded (bounded
by the corpus); what it computes is never added to the cache itself."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

#: the fewest entries a session keeps (more for a corpus with more documents)
LIMIT = 128


class SessionMemo:
    """``memo_get``/``memo_put``/``memoize`` of :class:`si_lint.cache.Cache`, over a
    least-recently-used table of at most ``limit`` entries; anything else is the cache's."""

    def __init__(self, cache, limit: int = LIMIT):
        self.cache = cache
        self.limit = max(1, limit)
        self.recent: OrderedDict[Any, Any] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self.cache.enabled

    def memo_get(self, key, decode: Callable | None = None) -> tuple[bool, Any]:
        k = _hashable(key)
        if k in self.recent:
            self.recent.move_to_end(k)
            return True, self.recent[k]
        return self.cache.memo_get(key, decode)

    def memo_put(self, key, value, encode: Callable | None = None) -> None:
        k = _hashable(key)
        self.recent[k] = value
        self.recent.move_to_end(k)
        while len(self.recent) > self.limit:
            self.recent.popitem(last=False)

    def memoize(self, key, compute, encode: Callable | None = None, decode: Callable | None = None):
        found, value = self.memo_get(key, decode)
        if found:
            return value
        value = compute()
        self.memo_put(key, value, encode)
        return value

    def __getattr__(self, name: str):
        return getattr(self.cache, name)


def _hashable(key):
    """A memo key (a string, or a tuple or list of strings) as a dictionary key."""
    return tuple(key) if isinstance(key, list) else key
