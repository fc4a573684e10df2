"""The rules. Every module in this package is imported by :func:`all_checks` (there is no
hand-kept list of rules: the decorators of :mod:`si_lint.registry` collect what they define)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def all_checks():
    """Every check (``si_lint.registry.Check``), each module of this package imported once."""
    import importlib
    import pkgutil

    from ..registry import registered

    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"{__name__}.{mod.name}")
    return registered()


#: the cache memo key of the check index (:func:`checks_of`); the cache's header holds the
#: fingerprint of si-lint's code, so an index is never one of other code
INDEX_KEY = ("si-checks/1",)


def checks_of(cache):
    """:func:`all_checks`, from the check index the cache holds when it holds one: each
    check's declaration without its module (:class:`si_lint.registry.LazyCheck`), which
    is imported when the check first runs. Without a cache, or without an index in it,
    every module is imported and the index is stored."""
    if cache is None or not cache.enabled:
        return all_checks()
    return cache.memoize(INDEX_KEY, all_checks, _to_index, _from_index)


def _to_index(checks) -> list:
    return [
        [
            c.func.__module__,
            c.func.__qualname__,
            list(c.codes),
            c.scope,
            None if c.kinds is None else list(c.kinds),
            c.stage,
        ]
        for c in checks
    ]


def _from_index(rows) -> tuple:
    """The checks of an index; ``ValueError`` for anything :func:`_to_index` does not
    write (the cache is signed, and read as data all the same: only modules of this
    package are ever imported)."""
    from ..registry import LazyCheck

    out = []
    for module, qualname, codes, scope, kinds, stage in rows:
        parts = module.split(".") if type(module) is str else ()
        if not (
            len(parts) >= 3
            and module.startswith(__name__ + ".")
            and all(p.isidentifier() for p in parts[2:])
            and type(qualname) is str
            and qualname.isidentifier()
            and type(codes) is list
            and all(type(c) is str for c in codes)
            and scope in ("file", "corpus")
            and (kinds is None or (type(kinds) is list and all(type(k) is str for k in kinds)))
            and stage in ("file", "corpus", "dryrun")
        ):
            raise ValueError("not a check index")
        kinds = None if kinds is None else tuple(kinds)
        out.append(LazyCheck(module, qualname, tuple(codes), scope, kinds, stage))
    return tuple(out)


def resolve(checks) -> None:
    """Import the module of every check not imported yet (before a fork: each worker
    would import them again)."""
    for check in checks:
        check.func  # noqa: B018  (a LazyCheck imports its module here)


def implemented_codes() -> set[str]:
    """Every code some part of si-lint can emit (checks, loader, pipeline)."""
    from .. import loader
    from ..registry import PIPELINE_CODES

    codes = set(PIPELINE_CODES) | set(loader.CODES)
    for check in all_checks():
        codes.update(check.codes)
    return codes
