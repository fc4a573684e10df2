"""The configuration of a corpus (SPEC §7, §9), validated, and what it selects."""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from .catalogue import codes as catalogue_codes
from .errors import ConfigError
from .findings import value_object
from .fsutil import inside, resolves_inside
from .limits import MAX_SETTING_CHARS
from .root import Root, extend_boundary, extended, find_root_info, merge_tables, value_position
from .schemas import validate

YAML_SUFFIXES = (".yaml", ".yml", ".json")
#: SPEC §9 "Which files": the default ``include``
DEFAULT_INCLUDE = ("**/*.yaml", "**/*.yml", "**/*.json")


@value_object()
class Config(NamedTuple):
    """The effective configuration of a corpus root. ``root_how``: :attr:`Root.how`.
    ``profile_refused``: ``(file, line, column, message)`` when the file's ``profile``
    leads outside the root (SPEC §9 "Trust boundaries": nothing under it is read,
    ``profile`` is "builtin", SI010 reports it at the value)."""

    root: Path
    source: Path | None = None
    profile: str = "builtin"
    select: tuple[str, ...] = ("SI", "EIO")
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    require_fixtures: bool = False
    require_band_coverage: bool = False
    include: tuple[str, ...] = DEFAULT_INCLUDE
    root_how: str = "config"
    profile_refused: tuple = ()
    require_form_b: bool = False
    extends: tuple[Path, ...] = ()

    def with_cli(
        self,
        select: Iterable[str] | None,
        ignore: Iterable[str] | None,
        extend_select: Iterable[str] = (),
        extend_ignore: Iterable[str] = (),
    ) -> Config:
        """The command line's codes, with ruff's meanings."""
        select, ignore = tuple(select or ()), tuple(ignore or ())
        extend_select, extend_ignore = tuple(extend_select or ()), tuple(extend_ignore or ())
        check_codes(select, "--select")
        check_codes(ignore, "--ignore")
        check_codes(extend_select, "--extend-select")
        check_codes(extend_ignore, "--extend-ignore")
        chosen = select or self.select
        chosen += tuple(c for c in extend_select if c not in chosen)
        return self._replace(select=chosen, ignore=(*self.ignore, *ignore, *extend_ignore))

    def enabled(self, code: str, relpath: str | None = None) -> bool:
        """flake8/ruff style: the longest matching prefix decides; ignore wins a tie."""
        sel = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        ign = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        if relpath is not None:
            for pattern, codes in self.per_file_ignores:
                if _glob_match(relpath, pattern):
                    ign = max([ign] + [len(p) for p in codes if code.startswith(p)])
        return sel >= 0 and sel > ign

    def excluded(self, relpath: str, is_dir: bool = False) -> bool:
        return bool(self.exclude) and pattern_spec(self.exclude).match_file(
            relpath + ("/" if is_dir else "")
        )

    def name_decides(self) -> bool:
        """:meth:`included` and :meth:`excluded` look at a file's name alone."""
        return self.include == DEFAULT_INCLUDE and not self.exclude

    def included(self, relpath: str) -> bool:
        if self.include == DEFAULT_INCLUDE:
            return relpath.endswith(YAML_SUFFIXES)
        return pattern_spec(self.include).match_file(relpath)

    def check_patterns(self) -> None:
        for key, values in (("exclude", self.exclude), ("include", self.include)):
            if not values or values == DEFAULT_INCLUDE:
                continue
            try:
                pattern_spec(values)
            except Exception as exc:  # pathspec raises a few different errors for a bad pattern
                raise ConfigError(
                    f"{self.source}: `{key}` holds a pattern that cannot be used: {exc}"
                ) from exc

    def fingerprint(self) -> str:
        """Every field (the cache's header holds it: a field added later is in it too)."""
        return repr(tuple(self))


def _glob_match(relpath: str, pattern: str) -> bool:
    pattern = pattern.strip("/")
    # the path or a directory above it (a directory pattern takes everything under it); a
    # bare name matches any component
    parts = relpath.split("/")
    heads = ("/".join(parts[:i]) for i in range(len(parts), 0, -1))
    candidates = heads if "/" in pattern else (*heads, *parts)
    return any(fnmatch.fnmatchcase(c, pattern) for c in candidates)


def check_codes(codes: Iterable[str], where: str) -> None:
    """Every code or prefix must match at least one rule of the catalogue: a typo such as
    ``SI10l`` is a usage error (exit 2), never a silent "all checks passed" (SPEC §7)."""
    known = catalogue_codes() if codes else ()
    bad = [c for c in codes if not any(k.startswith(c) for k in known)]
    if bad:
        listed = ", ".join(repr(c) for c in bad)
        # the command line's codes are upper-cased before they get here; a file's are not
        case = "" if where.startswith("--") else "; codes are case-sensitive"
        raise ConfigError(f"{where}: {listed} matches no rule (`si-lint rule` lists them{case})")


@functools.lru_cache(maxsize=64)
def pattern_spec(patterns: tuple[str, ...]):
    import pathspec  # (17 ms: not imported under the default include and exclude)

    return pathspec.GitIgnoreSpec.from_lines(patterns)


def _profile(profile: str, root: Path, where: str) -> tuple[str, str | None]:
    """``profile``, and why it is refused (then "builtin"): a directory that leads outside
    the root, before anything under it is looked at (SPEC §9 "Trust boundaries")."""
    if profile in ("builtin", "builtin:si-0.3.0-rc1", "builtin:oasisctl"):
        return profile, None
    shown = profile if len(profile) <= 80 else profile[:77] + "..."
    if len(profile) > MAX_SETTING_CHARS or "\0" in profile:
        raise ConfigError(f"{where}: `profile` {shown!r} is not a usable directory name")
    why = _outside_root(root, profile)
    if why is not None:
        return "builtin", f"`profile` {shown!r} {why}"
    try:
        ok = (root / profile / "registry.yaml").is_file()
    except (OSError, ValueError) as exc:  # a name too long for the file system
        raise ConfigError(
            f"{where}: profile directory {shown!r} cannot be used: "
            f"{getattr(exc, 'strerror', None) or exc}"
        ) from exc
    if not ok:
        raise ConfigError(f"{where}: profile directory {shown!r} has no registry.yaml")
    return profile, None


def load_config(
    cwd: Path,
    paths: Iterable[Path] = (),
    *,
    info: Root | None = None,
    valid: frozenset[str] = frozenset(),
    checked: set[str] | None = None,
) -> Config:
    """The configuration of the corpus root found from ``cwd`` and ``paths`` (or ``info``),
    each file of its ``extend`` chain validated (the schema holds every key's type), then
    merged. ``valid``: the sha256 of configuration texts this si-lint found valid before
    (the cache's ``configs.json``): not validated again. ``checked`` gets the sha256 of
    every text read, all valid (a run that returns)."""
    info = (info or find_root_info(cwd, paths)).parsed()
    root, source = info.path, info.source
    if source is None:
        return Config(root=root, root_how=info.how)
    table = info.table
    assert table is not None  # parsed() read it
    checked = set() if checked is None else checked
    checked.add(_checked(str(source), table, info.raw, valid))  # (before any it extends)
    chain = extended(source, table, extend_boundary(root)) if "extend" in table else []
    files = [(source, table, info.raw)] + chain  # nearest first
    for path, base, raw in chain:
        checked.add(_checked(str(path), base, raw, valid))
    merged, origin = merge_tables(files)
    where = origin.get("profile", source)
    profile, refused = _profile(merged.get("profile", "builtin"), root, str(where))
    refusal: tuple = ()
    if refused is not None:
        refusal = _refusal(cwd, where, next(r for p, _t, r in files if p == where), refused)
    pfi = merged.get("per-file-ignores", {})
    return Config(
        root=root,
        source=source,
        profile=profile,
        select=tuple(merged.get("select", ("SI", "EIO"))),
        ignore=tuple(merged.get("ignore", ())),
        per_file_ignores=tuple(sorted((k, tuple(v)) for k, v in pfi.items())),
        # compiled (and so checked) by check_patterns before the selection walks
        exclude=tuple(merged.get("exclude", ())),
        include=tuple(merged.get("include", DEFAULT_INCLUDE)),
        root_how=info.how,
        require_fixtures=merged.get("require-fixtures", False),
        require_band_coverage=merged.get("require-band-coverage", False),
        profile_refused=refusal,
        require_form_b=merged.get("require-form-b", False),
        extends=tuple(p for p, _t, _r in chain),
    )


def _checked(where: str, table: dict, raw: bytes | None, valid: frozenset[str]) -> str:
    """The sha256 of ``raw``, the text ``table`` was read from, once ``table`` is known
    valid (``ConfigError`` otherwise): among ``valid``, or validated now."""
    digest = hashlib.sha256(raw if raw is not None else repr(table).encode()).hexdigest()
    if digest in valid:
        return digest
    problems = validate("config", table)
    if problems:
        raise ConfigError(
            f"{where}: invalid si-lint configuration: " + "; ".join(m for _p, m, _o in problems)
        )
    check_codes(table.get("select", ()), f"{where}: `select`")
    check_codes(table.get("ignore", ()), f"{where}: `ignore`")
    for pattern, codes in sorted(table.get("per-file-ignores", {}).items()):
        check_codes(codes, f"{where}: `per-file-ignores` {pattern!r}")
    return digest


def _outside_root(root: Path, profile: str) -> str | None:
    """Why ``profile`` is not inside ``root`` (SPEC §9 "Trust boundaries"): absolute and
    ``..`` paths are refused without touching the file system, then the real paths of the
    directory and its ``registry.yaml`` are compared."""
    if os.path.isabs(profile):
        return "is an absolute path"
    base = os.path.normpath(os.path.abspath(root))
    joined = os.path.normpath(os.path.join(base, profile))
    if not inside(joined, base):
        return "leads outside the corpus root"
    if not resolves_inside(joined, base):
        return "resolves outside the corpus root (through a symbolic link)"
    if not resolves_inside(os.path.join(joined, "registry.yaml"), joined):
        return "has a registry.yaml that resolves outside the profile directory"
    return None


def _refusal(cwd: Path, source: Path, raw: bytes | None, why: str) -> tuple[str, int, int, str]:
    key = ("tool", "si-lint", "profile") if source.name == "pyproject.toml" else ("profile",)
    line, col = value_position(raw, key)
    where = os.path.relpath(os.path.abspath(source), os.path.abspath(cwd))
    message = (
        f"{why}: not used (a profile named in a configuration file must be a directory "
        "inside the corpus root)"
    )
    return where.replace(os.sep, "/"), line, col, message
