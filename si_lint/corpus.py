"""Corpus discovery, classification and configuration (SPEC §1, §7, §9)."""

from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .loader import PosMap

CONFIG_FILE = "si-lint.toml"
YAML_SUFFIXES = (".yaml", ".yml", ".json")
#: directories never walked into
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".si-lint-cache", "node_modules", "__pycache__", ".venv", "venv", ".tox"}
)

KINDS = ("scenario", "fixture", "evidence", "eio-module", "eio-input", "registry", "template")


from .errors import ConfigError  # noqa: E402,F401  (re-exported: corpus.ConfigError)


def classify(data: Any) -> str | None:
    """The document kind by top-level keys (SPEC §1), or None."""
    if not isinstance(data, dict):
        return None
    if "id" in data and "scoring" in data:
        return "scenario"
    if "events" in data:
        return "fixture" if "expect" in data else "evidence"
    if "eio" in data:
        return "eio-module"
    if "context_artifacts" in data:
        return "eio-input"
    if "primitives" in data:
        return "registry"
    if "template" in data and "table" in data:
        return "template"
    return None


# --------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True)
class Config:
    root: Path
    source: Path | None = None
    profile: str = "builtin"
    select: tuple[str, ...] = ("SI", "EIO")
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    require_fixtures: bool = False
    require_band_coverage: bool = False
    raw: tuple = ()

    def with_cli(self, select: Iterable[str] | None, ignore: Iterable[str] | None) -> "Config":
        from dataclasses import replace

        check_codes(select or (), "--select")
        check_codes(ignore or (), "--ignore")
        out = self
        if select:
            out = replace(out, select=tuple(select))
        if ignore:
            out = replace(out, ignore=tuple(out.ignore) + tuple(ignore))
        return out

    def enabled(self, code: str, relpath: str | None = None) -> bool:
        """flake8/ruff style: the longest matching prefix decides; ignore wins a tie."""
        sel = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        ign = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        if relpath is not None:
            for pattern, codes in self.per_file_ignores:
                if _glob_match(relpath, pattern):
                    ign = max([ign] + [len(p) for p in codes if code.startswith(p)])
        return sel >= 0 and sel > ign

    def excluded(self, relpath: str) -> bool:
        return any(_glob_match(relpath, pattern) for pattern in self.exclude)

    def fingerprint(self) -> str:
        return repr(
            (
                self.profile,
                self.select,
                self.ignore,
                self.per_file_ignores,
                self.exclude,
                self.require_fixtures,
                self.require_band_coverage,
            )
        )


def _glob_match(relpath: str, pattern: str) -> bool:
    pattern = pattern.strip("/")
    if fnmatch.fnmatchcase(relpath, pattern):
        return True
    # a directory pattern excludes everything under it; a bare name matches any component
    parts = relpath.split("/")
    for i in range(1, len(parts)):
        if fnmatch.fnmatchcase("/".join(parts[:i]), pattern):
            return True
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(p, pattern) for p in parts)
    return False


def check_codes(codes: Iterable[str], where: str) -> None:
    """Every code or prefix must match at least one rule of the catalogue: a typo such as
    ``SI10l`` is a usage error (exit 2), never a silent "all checks passed" (SPEC §7)."""
    from .catalogue import rules

    known = list(rules())
    bad = [c for c in codes if not any(k.startswith(c) for k in known)]
    if bad:
        listed = ", ".join(repr(c) for c in bad)
        raise ConfigError(
            f"{where}: {listed} matches no rule (`si-lint rule` lists them; codes are case-sensitive)"
        )


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


def _config_table(directory: Path) -> tuple[Path, dict] | None:
    cfg = directory / CONFIG_FILE
    if cfg.is_file():
        return cfg, _read_toml(cfg)
    py = directory / "pyproject.toml"
    if py.is_file():
        data = _read_toml(py)
        table = data.get("tool", {}).get("si-lint") if isinstance(data.get("tool"), dict) else None
        if isinstance(table, dict):
            return py, table
    return None


def find_root(cwd: Path, paths: Iterable[Path] = ()) -> tuple[Path, Path | None, dict]:
    """The corpus root: nearest ancestor of ``cwd`` with a config; when there is none, the
    nearest ancestor of the first named path with one; else ``cwd``."""
    starts = [cwd] + [p if p.is_dir() else p.parent for p in list(paths)[:1]]
    for start in starts:
        d = start.resolve()
        while True:
            found = _config_table(d)
            if found is not None:
                return d, found[0], found[1]
            if d.parent == d:
                break
            d = d.parent
    return cwd.resolve(), None, {}


_CONFIG_KEYS = {
    "profile",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "require-fixtures",
    "require-band-coverage",
}


def _explicit_config(path: Path) -> tuple[Path, Path, dict]:
    """``--config FILE``: a ``si-lint.toml`` (keys at the top level) or a ``pyproject.toml``
    (the ``[tool.si-lint]`` table); the corpus root is the file's directory (SPEC §9)."""
    path = Path(path).absolute()
    if not path.is_file():
        raise ConfigError(f"--config {path}: no such file")
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("si-lint") if isinstance(tool, dict) else None
        if not isinstance(table, dict):
            raise ConfigError(f"--config {path}: no [tool.si-lint] table")
        data = table
    return path.parent.resolve(), path, data


def load_config(cwd: Path, paths: Iterable[Path] = (), config_file: Path | str | None = None) -> Config:
    if config_file is not None:
        root, source, table = _explicit_config(Path(config_file))
    else:
        root, source, table = find_root(cwd, paths)
    if source is None:
        return Config(root=root)
    where = str(source)
    from .schemas import validate

    problems = validate("config", table)
    if problems:
        raise ConfigError(f"{where}: invalid si-lint configuration: " + "; ".join(m for _p, m, _o in problems))
    unknown = sorted(set(table) - _CONFIG_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown si-lint setting(s): {', '.join(unknown)}")

    def str_list(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: `{key}` must be a list of strings")
        return tuple(value)

    def flag(key: str) -> bool:
        value = table.get(key, False)
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: `{key}` must be true or false")
        return value

    profile = table.get("profile", "builtin")
    if not isinstance(profile, str) or not profile:
        raise ConfigError(f"{where}: `profile` must be \"builtin\" or a directory")
    if profile != "builtin":
        pdir = root / profile
        if not (pdir / "registry.yaml").is_file():
            raise ConfigError(f"{where}: profile directory {profile!r} has no registry.yaml")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in pfi.values()
    ):
        raise ConfigError(f"{where}: `per-file-ignores` must map globs to lists of codes")
    select = str_list("select") if "select" in table else ("SI", "EIO")
    check_codes(select, f"{where}: `select`")
    check_codes(str_list("ignore"), f"{where}: `ignore`")
    for pattern, codes in sorted(pfi.items()):
        check_codes(codes, f"{where}: `per-file-ignores` {pattern!r}")
    return Config(
        root=root,
        source=source,
        profile=profile,
        select=select,
        ignore=str_list("ignore"),
        per_file_ignores=tuple(sorted((k, tuple(v)) for k, v in pfi.items())),
        exclude=str_list("exclude"),
        require_fixtures=flag("require-fixtures"),
        require_band_coverage=flag("require-band-coverage"),
    )


# --------------------------------------------------------------------------------------
# documents


@dataclass
class Document:
    """One YAML document: a file holds one or more (a YAML stream, SPEC §1)."""

    relpath: str  # the file's path relative to the current directory, '/'-separated
    abspath: str
    kind: str | None
    data: Any
    _pos: PosMap | None = field(default=None, repr=False)
    sha: str = ""  # the file's content hash (shared by the documents of one file)
    #: loader findings (SI001…SI008) of this document (file-level ones on the first)
    load_findings: list = field(default_factory=list)
    #: the file's suppression comments: (line, col, kind, codes) — kind 'line'|'above'|'file'
    suppressions: list = field(default_factory=list)
    #: True when the file is part of the profile in use (registry.yaml, templates)
    profile_asset: bool = False
    #: positions serialised by a worker or the cache (see ``pos``)
    pos_blob: Any = field(default=None, repr=False)
    #: 0-based index of the document among the documents the parser yields
    index: int = 0
    #: how many (non-empty) documents the file holds
    ndocs: int = 1

    @property
    def multi(self) -> bool:
        """True for a document of a file that holds more than one."""
        return self.ndocs > 1

    @property
    def key(self) -> tuple[str, int]:
        """``(relpath, index)``: what :attr:`Corpus.by_path` is keyed on."""
        return (self.relpath, self.index)

    @property
    def label(self) -> str:
        """The file's path, with ``#index`` for a document of a multi-document file."""
        return f"{self.relpath}#{self.index}" if self.ndocs > 1 else self.relpath

    @property
    def pos(self) -> PosMap:
        """Positions of keys and values (lines and columns inside the file). Documents
        that come from the cache or a worker process carry no positions (they are large);
        they are read again on first use, which only happens for the few documents a
        cross-file finding points into."""
        if self._pos is None and self.pos_blob is not None:
            self._pos = PosMap.from_blob(self.pos_blob)
        if self._pos is None:
            from .loader import load_bytes

            self._pos = PosMap()
            try:
                with open(self.abspath, "rb") as fh:
                    loaded = load_bytes(fh.read())
            except OSError:
                return self._pos
            for d in loaded.documents:
                if d.index == self.index:
                    self._pos = d.pos
        return self._pos

    @pos.setter
    def pos(self, value: PosMap | None) -> None:
        self._pos = value

    def __repr__(self) -> str:  # keep tracebacks short
        return f"Document({self.label!r}, kind={self.kind!r})"


class Corpus:
    """Every document under the corpus root (plus named files), in (path, index) order."""

    def __init__(self, documents: list[Document], profile, config: Config):
        self.documents = sorted(documents, key=lambda d: (d.relpath, d.index))
        self.profile = profile
        self.config = config
        self._by_kind: dict[str | None, list[Document]] = {}
        for d in self.documents:
            self._by_kind.setdefault(d.kind, []).append(d)
        #: (relpath, index) -> document
        self.by_path: dict[tuple[str, int], Document] = {d.key: d for d in self.documents}
        #: relpath -> the file's documents, in order
        self.by_file: dict[str, list[Document]] = {}
        for d in self.documents:
            self.by_file.setdefault(d.relpath, []).append(d)
        self._graph = None

    def doc(self, relpath: str | None, index: int | None = None) -> Document | None:
        """The document ``index`` of file ``relpath``; with ``index`` None (or not in the
        file), the file's first document. None when the corpus has no such file."""
        if relpath is None:
            return None
        if index is not None:
            hit = self.by_path.get((relpath, index))
            if hit is not None:
                return hit
        docs = self.by_file.get(relpath)
        return docs[0] if docs else None

    def of_kind(self, kind: str | None) -> list[Document]:
        return self._by_kind.get(kind, [])

    @property
    def scenarios(self) -> dict[str, Document]:
        """Scenario documents by id (the first in (path, index) order wins a duplicate)."""
        out: dict[str, Document] = {}
        for d in self.of_kind("scenario"):
            sid = d.data.get("id")
            if isinstance(sid, str):
                out.setdefault(sid, d)
        return out

    @property
    def graph(self):
        if self._graph is None:
            from .graph import build_graph

            self._graph = build_graph(self)
        return self._graph


# --------------------------------------------------------------------------------------
# discovery


def discover(root: Path, config: Config, cwd: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Every YAML/JSON file under ``root`` (sorted), and the directories that could not
    be walked (path, reason). Symbolic links to directories are not followed."""
    files: list[Path] = []
    problems: list[tuple[Path, str]] = []

    def onerror(exc: OSError) -> None:
        problems.append((Path(exc.filename or root), exc.strerror or str(exc)))

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/")
        keep = []
        for name in dirnames:
            if name in SKIP_DIRS or name.startswith("."):
                continue
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if config.excluded(rel):
                continue
            keep.append(name)
        dirnames[:] = sorted(keep)
        for name in filenames:
            if not name.endswith(YAML_SUFFIXES):
                continue
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if config.excluded(rel):
                continue
            files.append(Path(dirpath) / name)
    files.sort()
    return files, problems


def relpath_of(path: Path | str, cwd: Path) -> str:
    """``path`` relative to ``cwd``, '/'-separated (a string prefix test first: this runs
    for every file of every run)."""
    base = str(cwd).rstrip(os.sep) + os.sep
    if type(path) is str and path.startswith(base) and os.sep + "." not in path:
        return path[len(base):].replace(os.sep, "/")  # already absolute and normal
    absolute = os.path.abspath(path)
    if absolute.startswith(base):
        rel = absolute[len(base):]
    else:
        rel = os.path.relpath(absolute, cwd)
    return rel.replace(os.sep, "/")
