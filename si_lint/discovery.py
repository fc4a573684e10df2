"""Which files a run reads (SPEC §9 "Which files"), and paths as findings show them."""

from __future__ import annotations

import errno
import os
import stat as stat_mod
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .config import YAML_SUFFIXES, Config, pattern_spec
from .errors import UsageError
from .fsutil import inside, kind_of, read_regular
from .root import ancestors, git_top

#: directories never walked into
SKIP_DIRS = frozenset(
    ".git .hg .svn .si-lint-cache node_modules __pycache__ .venv venv .tox".split()
)


@dataclass
class Selection:
    """``problems`` are SI001 findings; ``notes`` are shown under ``--verbose``."""

    files: list[str] = field(default_factory=list)
    problems: list[tuple[Path, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: every directory listed -> whether it holds a file ``profile.md`` (what the read
    #: stage's profile step would otherwise ``stat`` in each)
    profile_md: dict[str, bool] = field(default_factory=dict)


#: the file that marks an OASIS profile directory (SPEC §9; ``profile_docs``)
PROFILE_MD = "profile.md"
#: the largest .gitignore file read
MAX_GITIGNORE_BYTES = 1 << 20


def _gitignore(directory: str):
    raw, _ = read_regular(os.path.join(directory, ".gitignore"), MAX_GITIGNORE_BYTES)
    if not raw or len(raw) > MAX_GITIGNORE_BYTES:
        return None
    lines = tuple(raw.decode("utf-8", "replace").splitlines())
    try:
        return pattern_spec(lines)
    except Exception:
        return None


def _ignored(specs: list, abspath: str, is_dir: bool) -> bool:
    """git's rule: the deepest ``.gitignore`` with a matching pattern decides."""
    decision = False
    for base, spec in specs:
        rel = os.path.relpath(abspath, base).replace(os.sep, "/") + ("/" if is_dir else "")
        hit = spec.check_file(rel)
        if hit.include is not None:
            decision = hit.include
    return decision


def _utf8_name(name: str) -> bool:
    return not any("\ud800" <= c <= "\udfff" for c in name)  # os.fsdecode's escapes


def check_link(path: str, real_root: str) -> tuple[str, str | None]:
    """("read", None), ("problem", why) for SI001, or ("note", why): never read."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "problem", "symbolic link loop"
        if exc.errno == errno.ENOENT:
            return "problem", "dangling symbolic link (its target does not exist)"
        return "problem", exc.strerror or type(exc).__name__
    target = os.path.realpath(path)
    if not inside(target, real_root):
        return "note", "a symbolic link to a file outside the corpus root; not read"
    if not stat_mod.S_ISREG(st.st_mode):
        return "note", f"a symbolic link to {kind_of(st.st_mode)}; not read"
    return "read", None


def _gitignores_above(base: str) -> list:
    """``(directory, spec)`` from the top of ``base``'s work tree down."""
    top = git_top(Path(base))
    chain = []
    for d in ancestors(os.path.dirname(base)) if top is not None else ():
        if not inside(d, str(top)) or d == base:
            break
        chain.append(d)
        if d == str(top):
            break
    return [(d, spec) for d in reversed(chain) if (spec := _gitignore(d)) is not None]


class _Walk:
    def __init__(self, base: str, config: Config, cwd: Path):
        self.sel = Selection()
        self.base = base
        self.config = config
        self.cwd = cwd
        self.cfg_root = os.path.abspath(config.root)
        self.real_root = os.path.realpath(self.cfg_root)
        self.by_name = config.name_decides()  # (and no .gitignore: see directory())

    def rel_to_root(self, abspath: str) -> str:
        if inside(abspath, self.cfg_root):
            return abspath[len(self.cfg_root) :].lstrip(os.sep).replace(os.sep, "/")
        return os.path.relpath(abspath, self.base).replace(os.sep, "/")

    def note(self, abspath: str, why: str) -> None:
        self.sel.notes.append(f"skipped {relpath_of(abspath, self.cwd)}: {why}")

    def directory(self, directory: str, specs: list) -> Iterator[tuple[str, list]]:
        """The files of one directory in name order; yields each subdirectory to walk,
        ``(path, specs)``, at its place in that order (pathlib's order, no sort)."""
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            self.sel.problems.append((Path(directory), exc.strerror or type(exc).__name__))
            return
        marker = next((e for e in entries if e.name == PROFILE_MD), None)
        try:  # (as os.path.isfile: a link to a file counts)
            self.sel.profile_md[directory] = marker is not None and marker.is_file()
        except OSError:
            pass  # (not recorded: the profile step looks itself)
        if any(e.name == ".gitignore" for e in entries):
            own = _gitignore(directory)
            if own is not None:
                specs = specs + [(directory, own)]
        by_name = self.by_name and not specs
        for entry in entries:
            if by_name and entry.name.endswith(YAML_SUFFIXES) and entry.name.isascii():
                # what :meth:`entry` and :meth:`file` decide for a regular file, without
                # its relative path (a quarter of a warm re-check's walk)
                try:
                    if entry.is_file(follow_symlinks=False):
                        self.sel.files.append(entry.path)
                        continue
                except OSError:
                    pass  # (the long way reports it)
            sub = self.entry(entry, specs)
            if sub is not None:
                yield sub, specs

    def entry(self, entry, specs: list) -> str | None:
        """A directory to walk, or None. The type comes from the listing (no ``stat``)."""
        name, path, config = entry.name, entry.path, self.config
        if not name.isascii() and not _utf8_name(name):
            # an undecodable name (os.fsdecode's surrogate escapes) is reported under
            # a printable form of it, never read: no report could print the name
            shown = os.fsencode(path).decode("utf-8", "backslashreplace")
            if entry.is_dir(follow_symlinks=False) or config.included(self.rel_to_root(shown)):
                self.sel.problems.append((Path(shown), "its name is not UTF-8; not read"))
            return None
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError as exc:
            self.sel.problems.append((Path(path), exc.strerror or type(exc).__name__))
            return None
        rel = self.rel_to_root(path)
        if is_dir:
            if name in SKIP_DIRS or name.startswith("."):
                return None
            if config.excluded(rel, is_dir=True) or (specs and _ignored(specs, path, True)):
                return None
            return path
        if name == ".gitignore" or not config.included(rel):
            return None
        if config.excluded(rel) or (specs and _ignored(specs, path, False)):
            return None
        self.file(entry)
        return None

    def file(self, entry) -> None:
        path = entry.path
        try:
            if entry.is_file(follow_symlinks=False):
                self.sel.files.append(path)
                return
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError as exc:
            self.sel.problems.append((Path(path), exc.strerror or type(exc).__name__))
            return
        if stat_mod.S_ISLNK(mode):
            what, why = check_link(path, self.real_root)
            if why is None:  # "read"
                self.sel.files.append(path)
            elif what == "problem":
                self.sel.problems.append((Path(path), why))
            else:
                self.note(path, why)
        elif stat_mod.S_ISREG(mode):  # pragma: no cover - turned regular since the listing
            self.sel.files.append(path)
        else:
            self.note(path, f"{kind_of(mode)}, not a regular file; never opened")


def discover(root: Path, config: Config, cwd: Path) -> Selection:
    """SPEC §9 "Which files": linked directories are not entered."""
    base = os.path.abspath(root)
    walk = _Walk(base, config, cwd)
    # depth first, each directory's entries in name order: pathlib's order, with no sort
    # (a stack of listings, not recursion: a corpus may nest deeper than Python recurses)
    stack = [walk.directory(base, _gitignores_above(base))]
    while stack:
        sub = next(stack[-1], None)
        if sub is None:
            stack.pop()
        else:
            stack.append(walk.directory(*sub))
    return walk.sel


def selects(abspath: str, config: Config) -> bool:
    """Whether :func:`discover` of ``config.root`` would select ``abspath`` by its path (what
    the language server asks of a file created since its walk; the file itself is judged
    apart: :func:`named_file_check`)."""
    root = os.path.abspath(config.root)
    abspath = os.path.abspath(abspath)
    if not inside(abspath, root) or abspath == root:
        return False
    rel = abspath[len(root) :].lstrip(os.sep).replace(os.sep, "/")
    *dirs, name = rel.split("/")
    if not _utf8_name(rel) or name == ".gitignore" or not config.included(rel):
        return False
    specs = _gitignores_above(root)
    here = root
    for i, part in enumerate(dirs):
        own = _gitignore(here)  # (the walk reads it when it lists ``here``)
        specs = specs + [(here, own)] if own is not None else specs
        here = os.path.join(here, part)
        if part in SKIP_DIRS or part.startswith("."):
            return False
        if config.excluded("/".join(dirs[: i + 1]), is_dir=True) or _ignored(specs, here, True):
            return False
    own = _gitignore(here)
    specs = specs + [(here, own)] if own is not None else specs
    return not (config.excluded(rel) or _ignored(specs, abspath, False))


def expand_named(paths: list[str], cwd: Path) -> tuple[list[str], list[str]]:
    files: list[str] = []
    dirs: list[str] = []
    for p in paths:
        path = cwd / p  # (an absolute p replaces cwd)
        if not os.path.lexists(path):
            raise UsageError(f"{p}: no such file or directory")
        if path.is_dir():
            dirs.append(str(path.resolve()))
        else:  # (a FIFO, socket or device is skipped by named_file_check, never opened)
            if path.is_file() and not os.access(path, os.R_OK):
                raise UsageError(f"{p}: cannot be read (permission denied)")
            files.append(os.path.abspath(path))
    return files, dirs


def named_file_check(path: Path, config: Config) -> str | None:
    """Why a named file is not read (a --verbose note), or None; pre-commit passes every
    staged file, so the configuration's include/exclude apply."""
    abspath = os.path.abspath(path)
    if not abspath.isascii() and not _utf8_name(abspath):
        return "its name is not UTF-8; not read"
    cfg_root = os.path.abspath(config.root)
    if inside(abspath, cfg_root):
        rel = abspath[len(cfg_root) :].lstrip(os.sep).replace(os.sep, "/")
        if config.excluded(rel) or not config.included(rel):
            return "excluded by the configuration (include/exclude)"
        real_root = os.path.realpath(cfg_root)
    else:
        real_root = os.path.realpath(os.path.dirname(abspath))
    if os.path.islink(abspath):
        return check_link(abspath, real_root)[1]
    try:
        mode = os.stat(abspath).st_mode
    except OSError as exc:
        return f"cannot be read: {exc.strerror or type(exc).__name__}"
    if not stat_mod.S_ISREG(mode):
        return f"{kind_of(mode)}, not a regular file; never opened"
    return None


def relpath_of(path: Path | str, cwd: Path | str) -> str:
    """``path`` relative to ``cwd``, '/'-separated (a string prefix test first: this runs
    for every file)."""
    base = str(cwd).rstrip(os.sep) + os.sep
    if type(path) is str and path.startswith(base) and os.sep + "." not in path:
        return path[len(base) :].replace(os.sep, "/")  # already absolute and normal
    absolute = os.path.abspath(path)
    rel = absolute[len(base) :] if absolute.startswith(base) else os.path.relpath(absolute, cwd)
    return rel.replace(os.sep, "/")
