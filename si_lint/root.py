"""Where a corpus root is (SPEC §9), and its configuration file: ``si-lint.toml``, or a
``pyproject.toml`` with ``[tool.si-lint]``. Read here (size-limited, never a link); the
TOML is parsed only when its table is asked for (:meth:`Root.parsed`)."""

from __future__ import annotations

import os
import re
from collections import namedtuple
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ConfigError
from .records import value_object

CONFIG_FILE = "si-lint.toml"

#: the largest configuration file read
MAX_CONFIG_BYTES = 1 << 20


def _read_bytes(path: Path) -> bytes:
    from .fsutil import read_regular

    raw, why = read_regular(path, MAX_CONFIG_BYTES)
    if raw is None:
        raise ConfigError(f"{path}: cannot read configuration: {why}")
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: cannot read configuration: larger than {MAX_CONFIG_BYTES:,} bytes"
        )
    return raw


def _parse_toml(path: Path, raw: bytes) -> dict:
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


def _digest(raw: bytes) -> str:
    import hashlib

    return hashlib.sha256(raw).hexdigest()


def config_table(directory: Path) -> tuple[Path, dict] | None:
    found = config_in(directory)
    if found is None:
        return None
    table = found[1].parsed().table
    assert table is not None  # parsed() reads it
    return found[0], table


def config_in(
    directory: Path, lazy: bool = False, looked: list | None = None
) -> tuple[Path, Root] | None:
    """The configuration file of ``directory`` (``si-lint.toml``, else a ``pyproject.toml``
    with ``[tool.si-lint]``) and its :class:`Root`; ``lazy``: a ``si-lint.toml`` is read
    but not parsed (whatever it holds, its directory is the root). ``looked`` gets the
    paths looked at."""
    cfg = directory / CONFIG_FILE
    if looked is not None:
        looked.append(str(cfg))
    if cfg.is_file():
        return cfg, root_of(cfg, lazy)
    py = directory / "pyproject.toml"
    if looked is not None:
        looked.append(str(py))
    if py.is_file():
        raw = _read_bytes(py)
        table = _tool_table(_parse_toml(py, raw))
        if table is not None:
            return py, Root(directory, py, table, "config", _digest(raw), raw)
    return None


def root_of(path: Path, lazy: bool) -> Root:
    """The root a configuration file makes (its directory), the file read once; ``lazy``
    (not for a ``pyproject.toml``): its bytes kept, parsed by :meth:`Root.parsed`."""
    raw = _read_bytes(path)
    if lazy and path.name != "pyproject.toml":
        return Root(path.parent, path, None, "config", _digest(raw), raw)
    return Root(path.parent, path, _config_file_table(path, raw), "config", _digest(raw), raw)


def _tool_table(data: dict) -> dict | None:
    """A ``pyproject.toml``'s ``[tool.si-lint]`` table, or None."""
    tool = data.get("tool")
    table = tool.get("si-lint") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


@value_object("raw", "looked")
class Root(
    namedtuple(
        "Root",
        ("path", "source", "table", "how", "digest", "raw", "looked"),
        defaults=(None, None, ()),
    )
):
    """Where the corpus root is and why (SPEC §9): ``path``; ``source``, the configuration
    file, when there is one; its ``table`` (None: not parsed yet, :func:`find_root_info`
    with ``lazy``; :meth:`parsed`); ``how``: "config", "profile", "git", "dir" or "file"; ``digest``:
    the sha256 of the configuration file's bytes (what the run memo's key holds); ``raw``:
    those bytes (the digest is theirs: never read again; the table is parsed from them,
    and a finding about a setting is located in them: :func:`value_position`);
    ``looked``: every path :func:`find_root_info` looked at -- the root is the same while
    none of them changes (the replay memo records their ``stat``). ``raw`` and ``looked``
    take no part in ``==`` (nor in ``repr``). A value object: :mod:`si_lint.records`."""

    __slots__ = ()
    if TYPE_CHECKING:
        path: Path
        source: Path | None
        table: dict | None
        how: str
        digest: str | None
        raw: bytes | None
        looked: tuple[str, ...]

    def __repr__(self) -> str:
        return "Root(path={!r}, source={!r}, table={!r}, how={!r}, digest={!r})".format(*self[:5])

    def parsed(self, table: dict | None = None) -> Root:
        """This root with its table: ``table`` (one parsed from the same bytes before),
        else its bytes parsed now."""
        if self.table is not None:
            return self
        if table is None:
            assert self.source is not None  # only a configuration file's root is lazy
            table = _config_file_table(self.source, self.raw)
        return Root(self.path, self.source, table, self.how, self.digest, self.raw, self.looked)


def find_root_info(
    cwd: Path,
    paths: Iterable[str | Path] = (),
    config_file: str | Path | None = None,
    *,
    lazy: bool = False,
) -> Root:
    """The corpus root, the first of (SPEC §9): the directory of ``config_file``; the
    nearest ancestor of ``cwd`` holding ``si-lint.toml`` or a ``pyproject.toml`` with
    ``[tool.si-lint]``; the same search from the first named path; the nearest ancestor
    holding an OASIS profile layout (``profile.md`` beside ``scenarios/``); the top of the
    git work tree that holds ``cwd``; else the first named directory, or a named file's
    directory. (``check`` finds a root for each named path: :mod:`si_lint.roots`; this is
    the one root of the language server's folder and of ``load_config``.)
    Never a wider guess: without a configuration or a work tree, a check of one file reads
    that file's directory, never its parents (nor the current directory).

    ``lazy``: a ``si-lint.toml`` (or ``--config`` file) is read, not parsed: the root's
    ``table`` is None until :meth:`Root.parsed` (the run memo answers without TOML).
    ``Root.looked``: the paths looked at on the way."""
    looked: list[str] = []
    root = _find(Path(os.path.abspath(cwd)), paths, config_file, lazy, looked)
    return root._replace(looked=tuple(looked))


def _find(cwd: Path, paths, config_file, lazy: bool, looked: list) -> Root:
    if config_file is not None:
        looked.append(os.path.abspath(config_file))
        return root_of(Path(os.path.abspath(config_file)), lazy)
    first = [Path(os.path.abspath(p)) for p in list(paths)[:1]]
    starts = [cwd] + [p if p.is_dir() else p.parent for p in first]
    for start in starts:
        d = Path(os.path.realpath(start))
        while True:
            found = config_in(d, lazy, looked)
            if found is not None:
                return found[1]
            if d.parent == d:
                break
            d = d.parent
    for start in starts:  # an OASIS profile layout (SPEC §9: a profile root)
        layout = profile_ancestor(os.path.realpath(start))
        if layout is not None:
            return Root(Path(layout), None, {}, "profile")
    top = git_top(cwd, looked)
    if top is not None:
        return Root(top, None, {}, "git")
    if first:
        p = first[0]
        if p.is_dir():
            return Root(Path(os.path.realpath(p)), None, {}, "dir")
        return Root(Path(os.path.realpath(p.parent)), None, {}, "file")
    return Root(Path(os.path.realpath(cwd)), None, {}, "dir")


def is_profile_layout(directory: str) -> bool:
    """``profile.md`` (a regular file) beside a ``scenarios/`` directory (SPEC §9)."""
    return os.path.isfile(os.path.join(directory, "profile.md")) and os.path.isdir(
        os.path.join(directory, "scenarios")
    )


def profile_ancestor(start: str) -> str | None:
    """The nearest ancestor of ``start`` (itself included) holding a profile layout."""
    d = start
    while True:
        if is_profile_layout(d):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def find_root(
    cwd: Path, paths: Iterable[str | Path] = (), config_file: str | Path | None = None
) -> tuple[Path, Path | None, dict]:
    """``(root, config file or None, config table)``; see :func:`find_root_info`."""
    info = find_root_info(cwd, paths, config_file)
    assert info.table is not None  # not lazy: the table is parsed
    return info.path, info.source, info.table


def git_top(start: Path, looked: list | None = None) -> Path | None:
    """The top of the git work tree holding ``start`` (the nearest ancestor with ``.git``,
    a directory or a worktree's ``.git`` file), or None. Git itself is not run. ``looked``
    gets each ``.git`` looked for."""
    d = Path(os.path.realpath(start))
    while True:
        if looked is not None:
            looked.append(str(d / ".git"))
        try:
            if os.path.lexists(d / ".git"):
                return d
        except OSError:
            pass
        if d.parent == d:
            return None
        d = d.parent


#: the most files one ``extend`` chain reads (a longer chain is a configuration error)
MAX_EXTEND = 8


def extend_boundary(root: Path) -> str:
    """Where an ``extend``ed file may be (SPEC §9 "Trust boundaries"): inside the git work
    tree that holds the corpus ``root`` -- what one commit can change anyway -- else
    inside the root itself. Real paths (links followed)."""
    top = git_top(root)
    return os.path.realpath(top if top is not None else root)


def _extend_target(where: Path, value, boundary: str) -> Path:
    """The file an ``extend`` value of ``where`` names (relative to ``where``'s
    directory), or a ConfigError saying why it is not read."""
    from .limits import MAX_SETTING_CHARS

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
    if real != boundary and not real.startswith(boundary.rstrip(os.sep) + os.sep):
        raise ConfigError(
            f"{where}: `extend` {shown!r} leads outside {boundary} (the git work tree of "
            "the corpus root, or the root): not read (SPEC §9 trust boundaries; name a "
            "configuration elsewhere with --config)"
        )
    return Path(target)


def extended(source: Path, table: dict, boundary: str) -> list[tuple[Path, dict, bytes]]:
    """The files the configuration ``table`` of ``source`` extends, nearest first:
    ``(path, table, bytes)`` each (a ``pyproject.toml``'s ``[tool.si-lint]``, any other
    file's top level). Each must lie inside ``boundary`` (:func:`extend_boundary`); a
    cycle, or a chain of more than :data:`MAX_EXTEND` files, is a ConfigError."""
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
    """The tables of an ``extend`` chain (nearest first) as one, as ruff merges them: a
    file's setting replaces the one it extends, except that ``ignore`` accumulates while
    no nearer file sets ``select`` (a ``select`` starts the selection afresh, dropping the
    ``ignore`` of the files it extends). Returns (table, key -> the file that set it)."""
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
    """The table of a configuration file (``--config``'s ``pyproject.toml`` without
    ``[tool.si-lint]``: an empty one)."""
    data = _parse_toml(path, _read_bytes(path) if raw is None else raw)
    if path.name == "pyproject.toml":
        return _tool_table(data) or {}
    return data


_TOML_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\\\n]*"|'[^'\n]*')"""
_TOML_HEADER = re.compile(
    r"\s*\[(?!\[)\s*(" + _TOML_PART + r"(?:\s*\.\s*" + _TOML_PART + r")*)\s*\]"
)
_TOML_KEY = re.compile(r"\s*(" + _TOML_PART + r"(?:\s*\.\s*" + _TOML_PART + r")*)\s*=[ \t]*")


def _toml_parts(dotted: str) -> tuple[str, ...]:
    parts = re.findall(_TOML_PART, dotted)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


def value_position(raw: bytes | None, key: tuple[str, ...]) -> tuple[int, int]:
    """``(line, column)``, 1-based, of the value of the dotted ``key`` (from the top of the
    file: ``("tool", "si-lint", "profile")`` in a ``pyproject.toml``) in the TOML text
    ``raw``: a ``[table]`` header, then a ``key = value`` line in it. ``(1, 1)`` when it
    is not written so (an inline table): a finding about a setting still names its file."""
    if raw is None:
        return 1, 1
    table: tuple[str, ...] = ()
    for number, line in enumerate(raw.decode("utf-8", "replace").split("\n"), 1):
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


def setting_key(source: Path | None, name: str) -> tuple[str, ...]:
    """The dotted key of the setting ``name`` in the configuration file ``source``."""
    if source is not None and source.name == "pyproject.toml":
        return ("tool", "si-lint", name)
    return (name,)
