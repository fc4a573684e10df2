"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root, JSON data only,
signed, every entry checked when read; what is cached and the key of each:
ARCHITECTURE.md, "The cache". :mod:`.store` the tables (:class:`Cache`), :mod:`.bodies`
the entries' bodies, :mod:`.signed` signed atomic files and the key, :mod:`.directory`
what may be a cache directory, :mod:`.statindex` the stat index, :mod:`.keys` the digests
of si-lint's code and of the profile in the header."""

from __future__ import annotations

from .keys import profile_fingerprint
from .store import open_cache

__all__ = ["open_cache", "profile_fingerprint"]
