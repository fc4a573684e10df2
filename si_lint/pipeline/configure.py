"""Stage 1a, configure: the corpus root and its configuration table (SPEC §9), found
from the named paths and the working directory (``root.find_root_info``)."""

from __future__ import annotations

import os
from pathlib import Path

from ..root import find_root_info
from .context import State


def configure(state: State) -> None:
    """The root and configuration table, unless the caller gave a configuration."""
    if state.config is None:
        named = [Path(p) if os.path.isabs(p) else state.cwd / p for p in state.paths]
        state.root_info = find_root_info(
            state.cwd, [p for p in named if p.exists()], state.options.config_file
        )
