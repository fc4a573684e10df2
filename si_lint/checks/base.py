"""Check registration: decorators record each check with the codes it may emit.

There is no hand-kept list of rules: :func:`all_checks` imports every module of the
``si_lint.checks`` package, and the decorators collect what they define.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from ..findings import Diag  # noqa: F401  (re-exported for check modules)


@dataclass(frozen=True)
class Check:
    func: Callable
    codes: tuple[str, ...]
    scope: str  # "file" | "corpus"
    kinds: tuple | None = None  # file checks: the document kinds it runs on (None = all)

    @property
    def name(self) -> str:
        return f"{self.func.__module__}.{self.func.__qualname__}"


_REGISTRY: list[Check] = []


def file_check(*codes: str, kinds: Iterable | None = None):
    """Register ``func(doc, ctx) -> Iterator[Diag]`` to run on each document of ``kinds``."""

    def deco(func):
        _REGISTRY.append(Check(func, tuple(codes), "file", tuple(kinds) if kinds is not None else None))
        return func

    return deco


def corpus_check(*codes: str):
    """Register ``func(corpus, ctx) -> Iterator[Diag]`` to run once on the whole corpus."""

    def deco(func):
        _REGISTRY.append(Check(func, tuple(codes), "corpus"))
        return func

    return deco


@lru_cache(maxsize=1)
def all_checks() -> tuple[Check, ...]:
    from .. import checks as pkg

    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{mod.name}")
    return tuple(sorted(_REGISTRY, key=lambda c: (c.scope, c.name)))


def implemented_codes() -> set[str]:
    """Every code some part of si-lint can emit (checks, loader, engine)."""
    from .. import engine, loader

    codes = set(engine.CODES) | set(loader.CODES)
    for check in all_checks():
        codes.update(check.codes)
    return codes
