"""The rules: every module of this package is imported by :func:`all_checks`, and the
decorators of :mod:`si_lint.registry` collect what they define (no hand-kept list)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from ..registry import registered


@lru_cache(maxsize=1)
def all_checks():
    """Every ``si_lint.registry.Check``, each module of this package imported once."""
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"{__name__}.{mod.name}")
    return registered()
