"""Where a corpus root is (SPEC §9), and its configuration file: ``si-lint.toml``, or a
``pyproject.toml`` with ``[tool.si-lint]``. Read here (size-limited, never a link)."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from .errors import ConfigError
from .findings import value_object
from .fsutil import inside, read_regular
from .limits import MAX_SETTING_CHARS

CONFIG_FILE = "si-lint.toml"
MAX_CONFIG_BYTES = 1 << 20
#: the most files one ``extend`` chain reads (a longer chain is a configuration error)
MAX_EXTEND = 8


def _read_bytes(path: Path) -> bytes:
    raw, why = read_regular(path, MAX_CONFIG_BYTES)
    if raw is not None and len(raw) > MAX_CONFIG_BYTES:
        why = f"larger than {MAX_CONFIG_BYTES:,} bytes"
    if raw is None or why is not None:
        raise ConfigError(f"{path}: cannot read configuration: {why}")
    return raw


def _parse_toml(path: Path, raw: bytes) -> dict:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


def config_table(directory: Path) -> tuple[Path, dict] | None:
    found = config_in(directory)
    return None if found is None else (found[0], found[1].parsed().table or {})


def config_in(directory: Path, lazy: bool = False) -> tuple[Path, Root] | None:
    """``si-lint.toml``, else a ``pyproject.toml`` with ``[tool.si-lint]``; ``lazy``: a
    ``si-lint.toml`` is read but not parsed (whatever it holds, its directory is the root)."""
    cfg = directory / CONFIG_FILE
    if cfg.is_file():
        return cfg, root_of(cfg, lazy)
    py = directory / "pyproject.toml"
    if py.is_file():
        raw = _read_bytes(py)
        table = _tool_table(_parse_toml(py, raw))
        if table is not None:
            return py, Root(directory, py, table, "config", raw)
    return None


def root_of(path: Path, lazy: bool) -> Root:
    raw = _read_bytes(path)
    table = None if lazy and path.name != "pyproject.toml" else _config_file_table(path, raw)
    return Root(path.parent, path, table, "config", raw)


def _tool_table(data: dict) -> dict | None:
    tool = data.get("tool")
    table = tool.get("si-lint") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


@value_object("raw")
class Root(NamedTuple):
    """Where the corpus root is and why (SPEC §9). ``table`` None: not parsed yet;
    ``how``: "config", "profile", "git", "dir" or "file"; ``raw``: the file's bytes (where
    :func:`value_position` locates a setting), not compared."""

    path: Path
    source: Path | None
    table: dict | None
    how: str
    raw: bytes | None = None

    def __repr__(self) -> str:
        return "Root(path={!r}, source={!r}, table={!r}, how={!r})".format(*self[:4])

    def parsed(self) -> Root:
        if self.table is not None:
            return self
        assert self.source is not None  # only a configuration file's root is lazy
        return self._replace(table=_config_file_table(self.source, self.raw))


def ancestors(start: str) -> Iterator[str]:
    """``start`` (absolute and normal) and each directory above it, nearest first."""
    while True:
        yield start
        parent = os.path.dirname(start)
        if parent == start:
            return
        start = parent


def find_root_info(
    cwd: Path, paths: Iterable[str | Path] = (), config_file: str | Path | None = None
) -> Root:
    """The one corpus root (SPEC §9) of the language server's folder and of
    ``load_config`` (``check`` finds one per named path: :mod:`si_lint.roots`)."""
    cwd = Path(os.path.abspath(cwd))
    if config_file is not None:
        return root_of(Path(os.path.abspath(config_file)), False)
    first = [Path(os.path.abspath(p)) for p in list(paths)[:1]]
    starts = [cwd] + [p if p.is_dir() else p.parent for p in first]
    for start in starts:
        for d in ancestors(os.path.realpath(start)):
            found = config_in(Path(d))
            if found is not None:
                return found[1]
    for start in starts:
        layout = profile_ancestor(os.path.realpath(start))
        if layout is not None:
            return Root(Path(layout), None, {}, "profile")
    top = git_top(cwd)
    if top is not None:
        return Root(top, None, {}, "git")
    if first and not first[0].is_dir():
        return Root(Path(os.path.realpath(first[0].parent)), None, {}, "file")
    return Root(Path(os.path.realpath(first[0] if first else cwd)), None, {}, "dir")


def profile_ancestor(start: str) -> str | None:
    """SPEC §9's OASIS profile layout: ``profile.md`` (a regular file) beside ``scenarios/``."""
    marked = (d for d in ancestors(start) if os.path.isfile(os.path.join(d, "profile.md")))
    return next((d for d in marked if os.path.isdir(os.path.join(d, "scenarios"))), None)


def git_top(start: Path) -> Path | None:
    """The nearest ancestor with ``.git`` (a directory, or a worktree's file); git is not run."""
    for d in ancestors(os.path.realpath(start)):
        if os.path.lexists(os.path.join(d, ".git")):  # (never raises: False on an error)
            return Path(d)
    return None


def extend_boundary(root: Path) -> str:
    """Where an ``extend``ed file may be (SPEC §9 "Trust boundaries"): the git work tree
    of ``root`` -- what one commit can change anyway -- else the root. A real path."""
    top = git_top(root)
    return os.path.realpath(top if top is not None else root)


def _extend_target(where: Path, value, boundary: str) -> Path:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where}: `extend` must be the path of a configuration file")
    shown = value if len(value) <= 80 else value[:77] + "..."
    if len(value) > MAX_SETTING_CHARS or "\0" in value:
        raise ConfigError(f"{where}: `extend` {shown!r} is not a usable file name")
    if os.path.isabs(value) or value.startswith("~"):
        raise ConfigError(
            f"{where}: `extend` {shown!r} is not relative to the configuration file "
            "(a committed configuration names a file of its own work tree)"
        )
    target = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(where)), value))
    real = os.path.realpath(target)
    if not inside(real, boundary):
        raise ConfigError(
            f"{where}: `extend` {shown!r} leads outside {boundary} (the git work tree of "
            "the corpus root, or the root): not read (SPEC §9 trust boundaries; name a "
            "configuration elsewhere with --config)"
        )
    return Path(target)


def extended(source: Path, table: dict, boundary: str) -> list[tuple[Path, dict, bytes]]:
    """The files ``source`` extends, nearest first."""
    chain: list[tuple[Path, dict, bytes]] = []
    seen = [os.path.realpath(source)]
    where, current = source, table
    while "extend" in current:
        base = _extend_target(where, current["extend"], boundary)
        real = os.path.realpath(base)
        if real in seen:
            names = " -> ".join([str(source)] + [str(p) for p, _t, _r in chain] + [str(base)])
            raise ConfigError(f"{where}: `extend` makes a cycle: {names}")
        if len(chain) >= MAX_EXTEND:
            raise ConfigError(f"{where}: `extend` chain longer than {MAX_EXTEND} files")
        raw = _read_bytes(base)
        current = _config_file_table(base, raw)
        chain.append((base, current, raw))
        seen.append(real)
        where = base
    return chain


def merge_tables(files: list) -> tuple[dict, dict]:
    """One table, and key -> the file that set it, as ruff merges: a nearer setting
    replaces, but ``ignore`` accumulates until a ``select`` starts afresh."""
    merged: dict = {}
    origin: dict = {}
    for path, table, _raw in reversed(files):  # the farthest first
        for key, value in table.items():
            if key == "extend":
                continue
            if key == "ignore" and "select" not in table:
                value = list(merged.get("ignore", [])) + list(value)
            merged[key] = value
            origin[key] = path
        if "select" in table and "ignore" not in table:
            merged.pop("ignore", None)
    return merged, origin


def _config_file_table(path: Path, raw: bytes | None) -> dict:
    """(``--config``'s ``pyproject.toml`` without ``[tool.si-lint]``: an empty table)"""
    data = _parse_toml(path, _read_bytes(path) if raw is None else raw)
    if path.name == "pyproject.toml":
        return _tool_table(data) or {}
    return data


_TOML_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\\\n]*"|'[^'\n]*')"""
_TOML_DOTTED = _TOML_PART + r"(?:\s*\.\s*" + _TOML_PART + r")*"
_TOML_HEADER = re.compile(r"\s*\[(?!\[)\s*(" + _TOML_DOTTED + r")\s*\]")
_TOML_KEY = re.compile(r"\s*(" + _TOML_DOTTED + r")\s*=[ \t]*")


def _toml_parts(dotted: str) -> tuple[str, ...]:
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in re.findall(_TOML_PART, dotted))


def value_position(raw: bytes | None, key: tuple[str, ...]) -> tuple[int, int]:
    """1-based ``(line, column)`` of the dotted ``key``'s value written as ``key = value``
    under a ``[table]`` header; ``(1, 1)`` otherwise (an inline table)."""
    table: tuple[str, ...] = ()
    for number, line in enumerate((raw or b"").decode("utf-8", "replace").split("\n"), 1):
        if line.lstrip().startswith("[["):
            table = ("[[",)  # an array of tables: no setting of ours is in one
            continue
        header = _TOML_HEADER.match(line)
        if header is not None:
            table = _toml_parts(header.group(1))
            continue
        m = _TOML_KEY.match(line)
        if m is not None and table + _toml_parts(m.group(1)) == key:
            return number, m.end() + 1
    return 1, 1
