"""Stage 1a, configure: the corpus root and its configuration table (SPEC §9), found
from the named paths and the working directory (``root.find_root_info``)."""

from __future__ import annotations

import os
from pathlib import Path

from ..cache.signed import distrust
from ..root import find_root_info
from ..roots import plan_roots
from .context import State


def configure(state: State) -> None:
    """The root and configuration table, unless the caller gave a configuration or the
    root (``pipeline.run`` gives each root's; ``build_corpus`` takes the first named
    path's); then no cache key inside the root, the named paths or their git work trees
    is trusted (before any cache file is read)."""
    named = [Path(p) if os.path.isabs(p) else state.cwd / p for p in state.paths]
    named = [p for p in named if p.exists()]
    if state.config is None and state.root_info is None:
        plan = plan_roots(state.cwd, state.paths, state.options.config_file, state.options.isolated)
        if plan.groups:
            state.root_info = plan.groups[0].root
        else:
            state.root_info = find_root_info(state.cwd, named, state.options.config_file)
    root = state.config.root if state.config is not None else state.root_info.path
    distrust([root, *named])
