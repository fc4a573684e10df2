"""Where the data shipped with si-lint lives: ``rules/`` and ``schemas/``.

In a wheel they are force-included under ``si_lint/_data/``; in a checkout (editable
install) they sit at the repository root, beside the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    for candidate in (_PKG / "_data" / name, _PKG.parent / name):
        if candidate.is_dir():
            return candidate
    return _PKG / "_data" / name
