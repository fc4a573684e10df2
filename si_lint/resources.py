"""Where ``rules/`` and ``schemas/`` live: ``si_lint/_data/`` in a wheel, beside the package
in a checkout."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PKG = os.path.dirname(os.path.realpath(__file__))


@cache
def data_path(name: str) -> str:
    for candidate in (os.path.join(_PKG, "_data", name), os.path.join(os.path.dirname(_PKG), name)):
        if os.path.isdir(candidate):
            return candidate
    return os.path.join(_PKG, "_data", name)


def data_dir(name: str) -> Path:
    return Path(data_path(name))
