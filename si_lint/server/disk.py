"""Files changed on disk behind the editor's back, seen without the client's file watchers
(Neovim on Linux registers none): the ``stat`` of a root's files, directories and
configuration files at each diagnostic cycle; a file written within the racy window (git's
"racily clean") has its hash compared too; a changed directory is selected again."""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import statindex
from ..cache.statindex import RACY_NS
from ..discovery import inside
from ..profile_docs import DOCUMENTS

CONFIG_NAMES = ("si-lint.toml", "pyproject.toml")


def stat_key(path: str) -> tuple | None:
    try:
        return tuple(statindex.stat_key(os.stat(path)))  # (size, mtime_ns, ...)
    except OSError:
        return None


def _digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


@dataclass
class Change:
    files: list[str] = field(default_factory=list)
    config: bool = False


@dataclass
class Snapshot:
    files: dict[str, tuple] = field(default_factory=dict)  # abspath -> (stat key, digest)
    dirs: dict[str, tuple | None] = field(default_factory=dict)
    configs: dict[str, tuple | None] = field(default_factory=dict)

    @classmethod
    def of(cls, st) -> Snapshot:
        # the files whose change reloads the root: its configuration files and the OASIS
        # profile documents (they define the names SI611–SI619 check)
        root = str(st.config.root)
        paths = [os.path.join(root, n) for n in CONFIG_NAMES]
        paths += [os.path.join(d, n) for d in sorted(st.run.profile_docs) for n in DOCUMENTS]
        snap = cls(configs={p: stat_key(p) for p in paths})
        snap.refresh(st, list(st.files))
        return snap

    def refresh(self, st, paths) -> None:
        now = time.time_ns()
        root = str(st.config.root)
        for a in paths:
            key = stat_key(a)
            if key is None or a not in st.files:
                self.files.pop(a, None)
            else:
                racy = key[1] >= now - RACY_NS
                self.files[a] = (key, _digest(a) if racy else None)
            d = os.path.dirname(a)
            while True:
                self.dirs[d] = stat_key(d)
                if d == root or not inside(d, root) or os.path.dirname(d) == d:
                    break
                d = os.path.dirname(d)

    def compare(self, st) -> Change:
        """An open buffer is left out: the buffer wins."""
        if any(stat_key(p) != k for p, k in self.configs.items()):
            return Change(config=True)
        out = []
        settled = time.time_ns() - RACY_NS
        for a, (key, digest) in list(self.files.items()):
            if a in st.overrides:
                continue
            now = stat_key(a)
            if now != key or (digest is not None and _digest(a) != digest):
                out.append(a)
            elif digest is not None and key[1] < settled:
                self.files[a] = (key, None)  # the same bytes, and no longer racy
        if any(stat_key(d) != k for d, k in self.dirs.items()):
            walked, known = set(st.selected()), set(st.files)
            out += [
                *filter(st.owns, walked - known),
                *(a for a in known - walked if a not in st.overrides),
            ]
        return Change(files=sorted(set(out)))
