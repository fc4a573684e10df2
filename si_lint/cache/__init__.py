"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root, JSON data only,
signed, every entry checked when read; the key of each cached answer: ARCHITECTURE.md,
"The cache"."""

from __future__ import annotations

from .keys import profile_fingerprint
from .store import open_cache

__all__ = ["open_cache", "profile_fingerprint"]
