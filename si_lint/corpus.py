"""Corpus discovery, classification and configuration (SPEC §1, §7, §9)."""

from __future__ import annotations

import fnmatch
import functools
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loader import PosMap

CONFIG_FILE = "si-lint.toml"
YAML_SUFFIXES = (".yaml", ".yml", ".json")
#: SPEC §9 "Which files": the default ``include``
DEFAULT_INCLUDE = ("**/*.yaml", "**/*.yml", "**/*.json")
#: directories never walked into
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".si-lint-cache",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
    }
)

KINDS = ("scenario", "fixture", "evidence", "eio-module", "eio-input", "registry", "template")


from .errors import ConfigError  # noqa: E402  (re-exported: corpus.ConfigError)


def classify(data: Any) -> str | None:
    """The document kind by top-level keys (SPEC §1), or None."""
    if not isinstance(data, dict):
        return None
    if ("id" in data) + ("classification" in data) + ("scoring" in data) >= 2:
        return "scenario"  # a missing one of the three is SI601
    if "events" in data or "final_answer" in data or "actions" in data:
        # transcript form (events) or oasisctl's artifact form (SPEC §4.1)
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
    include: tuple[str, ...] = DEFAULT_INCLUDE
    #: how the root was found (SPEC §9): "config", "git", "dir" (a named directory, or
    #: the current one) or "file" (a named file's directory)
    root_how: str = "config"

    def with_cli(self, select: Iterable[str] | None, ignore: Iterable[str] | None) -> Config:
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

    def excluded(self, relpath: str, is_dir: bool = False) -> bool:
        """``exclude`` (gitignore-style, relative to the root) matches ``relpath``."""
        return bool(self.exclude) and _spec(self.exclude).match_file(
            relpath + ("/" if is_dir else "")
        )

    def included(self, relpath: str) -> bool:
        """``include`` (gitignore-style, relative to the root) matches the file ``relpath``."""
        if self.include == DEFAULT_INCLUDE:
            return relpath.endswith(YAML_SUFFIXES)
        return _spec(self.include).match_file(relpath)

    def check_patterns(self) -> None:
        """A ConfigError when ``include`` or ``exclude`` holds a pattern pathspec refuses."""
        where = str(self.source)
        _patterns(where, "exclude", self.exclude)
        _patterns(where, "include", self.include)

    def fingerprint(self) -> str:
        return repr(
            (
                self.profile,
                self.select,
                self.ignore,
                self.per_file_ignores,
                self.exclude,
                self.include,
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
    from .catalogue import codes as catalogue_codes

    known = catalogue_codes()
    bad = [c for c in codes if not any(k.startswith(c) for k in known)]
    if bad:
        listed = ", ".join(repr(c) for c in bad)
        raise ConfigError(
            f"{where}: {listed} matches no rule (`si-lint rule` lists them; codes are case-sensitive)"
        )


#: the largest configuration file read
MAX_CONFIG_BYTES = 1 << 20


def _read_toml(path: Path) -> dict:
    from .fsutil import read_regular

    raw, why = read_regular(path, MAX_CONFIG_BYTES)
    if raw is None:
        raise ConfigError(f"{path}: cannot read configuration: {why}")
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: cannot read configuration: larger than {MAX_CONFIG_BYTES:,} bytes"
        )
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


@functools.lru_cache(maxsize=64)
def _spec(patterns: tuple[str, ...]):
    """A compiled gitignore-style pattern list (pathspec: the same rules as git)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(patterns)


def _patterns(where: str, key: str, values: tuple[str, ...]) -> tuple[str, ...]:
    try:
        _spec(values)
    except Exception as exc:  # pathspec raises a few different errors for a bad pattern
        raise ConfigError(f"{where}: `{key}` holds a pattern that cannot be used: {exc}") from exc
    return values


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


@dataclass(frozen=True)
class Root:
    """Where the corpus root is and why (SPEC §9)."""

    path: Path
    source: Path | None  # the configuration file, when there is one
    table: dict
    how: str  # "config", "git", "dir" or "file"


def find_root_info(cwd: Path, paths: Iterable[Path] = (), config_file: Path | None = None) -> Root:
    """The corpus root, the first of (SPEC §9): the directory of ``config_file``; the
    nearest ancestor of ``cwd`` holding ``si-lint.toml`` or a ``pyproject.toml`` with
    ``[tool.si-lint]``; the same search from the first named path; the top of the git work
    tree that holds ``cwd``; else the first named directory, or a named file's directory.
    Never a wider guess: without a configuration or a work tree, a check of one file reads
    that file's directory, never its parents (nor the current directory)."""
    cwd = Path(os.path.abspath(cwd))
    if config_file is not None:
        config_file = Path(os.path.abspath(config_file))
        found = _config_file_table(config_file)
        return Root(config_file.parent, config_file, found, "config")
    first = [Path(os.path.abspath(p)) for p in list(paths)[:1]]
    starts = [cwd] + [p if p.is_dir() else p.parent for p in first]
    for start in starts:
        d = Path(os.path.realpath(start))
        while True:
            found = _config_table(d)
            if found is not None:
                return Root(d, found[0], found[1], "config")
            if d.parent == d:
                break
            d = d.parent
    top = git_top(cwd)
    if top is not None:
        return Root(top, None, {}, "git")
    if first:
        p = first[0]
        if p.is_dir():
            return Root(Path(os.path.realpath(p)), None, {}, "dir")
        return Root(Path(os.path.realpath(p.parent)), None, {}, "file")
    return Root(Path(os.path.realpath(cwd)), None, {}, "dir")


def find_root(
    cwd: Path, paths: Iterable[Path] = (), config_file: Path | None = None
) -> tuple[Path, Path | None, dict]:
    """``(root, config file or None, config table)``; see :func:`find_root_info`."""
    info = find_root_info(cwd, paths, config_file)
    return info.path, info.source, info.table


def git_top(start: Path) -> Path | None:
    """The top of the git work tree holding ``start`` (the nearest ancestor with ``.git``,
    a directory or a worktree's ``.git`` file), or None. Git itself is not run."""
    d = Path(os.path.realpath(start))
    while True:
        try:
            if os.path.lexists(d / ".git"):
                return d
        except OSError:
            pass
        if d.parent == d:
            return None
        d = d.parent


def _config_file_table(path: Path) -> dict:
    if path.name == "pyproject.toml":
        data = _read_toml(path)
        tool = data.get("tool")
        table = tool.get("si-lint") if isinstance(tool, dict) else None
        return table if isinstance(table, dict) else {}
    return _read_toml(path)


_CONFIG_KEYS = {
    "profile",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "include",
    "require-fixtures",
    "require-band-coverage",
}


def load_config(
    cwd: Path,
    paths: Iterable[Path] = (),
    config_file: Path | None = None,
    *,
    info: Root | None = None,
    validated: bool = False,
) -> Config:
    """The configuration of the corpus root found from ``cwd``, the named ``paths`` and
    ``config_file`` (or the one in ``info``, already found). ``validated``: the same table
    passed the schema before (the run memo's key holds it), so it is not validated again."""
    info = info or find_root_info(cwd, paths, config_file)
    root, source, table = info.path, info.source, info.table
    if source is None:
        return Config(root=root, root_how=info.how)
    where = str(source)
    if not validated:
        from .schemas import validate

        problems = validate("config", table)
        if problems:
            raise ConfigError(
                f"{where}: invalid si-lint configuration: " + "; ".join(m for _p, m, _o in problems)
            )
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
        raise ConfigError(
            f'{where}: `profile` must be "builtin", "builtin:oasisctl" or a directory'
        )
    if profile not in ("builtin", "builtin:si-0.3.0-rc1", "builtin:oasisctl"):
        from .limits import MAX_SETTING_CHARS

        shown = profile if len(profile) <= 80 else profile[:77] + "..."
        if len(profile) > MAX_SETTING_CHARS or "\0" in profile:
            raise ConfigError(f"{where}: `profile` {shown!r} is not a usable directory name")
        pdir = root / profile
        try:
            ok = (pdir / "registry.yaml").is_file()
        except (OSError, ValueError) as exc:  # a name too long for the file system
            raise ConfigError(
                f"{where}: profile directory {shown!r} cannot be used: "
                f"{getattr(exc, 'strerror', None) or exc}"
            ) from exc
        if not ok:
            raise ConfigError(f"{where}: profile directory {shown!r} has no registry.yaml")
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
        # compiled (and so checked) by check_patterns before the selection walks: a run
        # answered by the run memo never imports pathspec
        exclude=str_list("exclude"),
        include=str_list("include") if "include" in table else DEFAULT_INCLUDE,
        root_how=info.how,
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
    #: shared by the documents of one file: positions of all of them once the file had to
    #: be read again (a cross-file finding into one document reads the file once, not once
    #: per document)
    siblings: dict | None = field(default=None, repr=False, compare=False)

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
            shared = self.siblings if self.siblings is not None else {}
            if not shared:  # read (or tried) once for every document of the file
                from .fsutil import read_regular
                from .loader import MAX_BYTES, load_bytes

                shared[None] = PosMap()
                raw, _why = read_regular(self.abspath, MAX_BYTES)  # regular files only
                if raw is not None:
                    for d in load_bytes(raw).documents:
                        shared[d.index] = d.pos
            self._pos = shared.get(self.index) or shared[None]
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
        self._scenarios: dict[str, Document] | None = None
        #: OASIS profile directories (SPEC §1), filled in by the read stage: the profile
        #: directory of each file's directory (absolute paths; None: there is none), and
        #: what each profile directory's Markdown documents define (si_lint.profile_docs)
        self.profile_dirs: dict[str, str | None] = {}
        self.profile_docs: dict = {}

    def profile_docs_for(self, doc: Document):
        """The :class:`si_lint.profile_docs.ProfileDocs` of ``doc``'s OASIS profile
        directory, or None when it has none."""
        import os

        pdir = self.profile_dirs.get(os.path.dirname(os.path.abspath(doc.abspath)))
        return self.profile_docs.get(pdir) if pdir is not None else None

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
        """Scenario documents by id (the first in (path, index) order wins a duplicate);
        computed once (the corpus does not change after it is built)."""
        if self._scenarios is None:
            out: dict[str, Document] = {}
            for d in self.of_kind("scenario"):
                sid = d.data.get("id") if isinstance(d.data, dict) else None
                if isinstance(sid, str):
                    out.setdefault(sid, d)
            self._scenarios = out
        return dict(self._scenarios)

    @property
    def graph(self):
        if self._graph is None:
            from .graph import build_graph

            self._graph = build_graph(self)
        return self._graph


# --------------------------------------------------------------------------------------
# discovery


@dataclass
class Selection:
    """What :func:`discover` found: the files to read (sorted), the problems that are
    findings (SI001: unreadable directories, symbolic-link loops, dangling links) and the
    notes shown under ``--verbose`` (FIFOs, sockets, devices, links that leave the root).
    Unpacks as ``files, problems`` like the old tuple."""

    files: list[Path] = field(default_factory=list)
    problems: list[tuple[Path, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __iter__(self):
        return iter((self.files, self.problems))


#: the largest .gitignore file read
MAX_GITIGNORE_BYTES = 1 << 20


def _gitignore(directory: str):
    """The compiled ``.gitignore`` of ``directory``, or None (only a regular file is read)."""
    from .fsutil import read_regular

    raw, _ = read_regular(os.path.join(directory, ".gitignore"), MAX_GITIGNORE_BYTES)
    if not raw or len(raw) > MAX_GITIGNORE_BYTES:
        return None
    lines = tuple(raw.decode("utf-8", "replace").splitlines())
    try:
        return _spec(lines)
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
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def inside(path: str, root: str) -> bool:
    """``path`` is ``root`` or under it (both absolute, normalised)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_link(path: str, real_root: str) -> tuple[str, str | None]:
    """What to do with the symbolic link ``path``: ("read", None) when it leads to a regular
    file inside the root; ("problem", why) for a loop or a dangling link (SI001);
    ("note", why) when it leaves the root or leads to something that is not a regular file
    — such a link is never read."""
    import errno
    import stat as stat_mod

    from .fsutil import kind_of

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


def discover(
    root: Path, config: Config, cwd: Path, *, recursive: bool = True, deps: dict | None = None
) -> Selection:
    """The files under ``root`` that the configuration selects (SPEC §9 "Which files"):
    ``include`` minus ``exclude`` (gitignore-style, relative to ``config.root``) minus what
    the ``.gitignore`` files ignore; regular files only (a FIFO, socket or device is a note,
    never opened); symbolic links only when they lead to a regular file inside the corpus
    root (others are notes or, for loops and dangling links, SI001 problems, never read);
    linked directories are not entered. ``deps`` (the run memo's dependencies) gets the
    ``stat`` of every directory walked and of every path the ``.gitignore`` rules were
    looked for in (:mod:`si_lint.pipeline.memo`)."""
    import stat as stat_mod

    from .fsutil import kind_of
    from .statcache import record

    sel = Selection()
    base = os.path.abspath(root)
    cfg_root = os.path.abspath(config.root)
    real_root = os.path.realpath(cfg_root)
    specs: list = []
    # .gitignore files above the walked directory, up to the top of its work tree
    top = git_top(Path(base))
    if deps is not None:  # where .git was looked for, up to the one found (or to /)
        d = os.path.realpath(base)
        while True:
            record(deps, os.path.join(d, ".git"))
            if (top is not None and d == str(top)) or os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
    if top is not None:
        chain = []
        d = os.path.dirname(base)
        while inside(d, str(top)) and d != base:
            chain.append(d)
            if d == str(top):
                break
            d = os.path.dirname(d)
        for d in reversed(chain):
            record(deps, os.path.join(d, ".gitignore"))
            spec = _gitignore(d)
            if spec is not None:
                specs.append((d, spec))

    def rel_to_root(abspath: str) -> str:
        if inside(abspath, cfg_root):
            return abspath[len(cfg_root) :].lstrip(os.sep).replace(os.sep, "/")
        return os.path.relpath(abspath, base).replace(os.sep, "/")

    def note(abspath: str, why: str) -> None:
        sel.notes.append(f"skipped {relpath_of(abspath, cwd)}: {why}")

    stack = [(base, specs)]
    while stack:
        directory, specs = stack.pop()
        # before it is listed: an entry added, removed or renamed later is a later mtime
        record(deps, directory)
        own = _gitignore(directory)
        if own is not None:  # its content (an absent one appearing changes the mtime)
            record(deps, os.path.join(directory, ".gitignore"))
        if own is not None:
            specs = specs + [(directory, own)]
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            sel.problems.append((Path(directory), exc.strerror or type(exc).__name__))
            continue
        subdirs = []
        for entry in entries:
            name = entry.name
            path = entry.path
            if not name.isascii() and not _utf8_name(name):
                # an undecodable name (os.fsdecode's surrogate escapes) is reported under
                # a printable form of it, never read: no report could print the name
                shown = os.fsencode(path).decode("utf-8", "backslashreplace")
                if entry.is_dir(follow_symlinks=False) or config.included(rel_to_root(shown)):
                    sel.problems.append((Path(shown), "its name is not UTF-8; not read"))
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                sel.problems.append((Path(path), exc.strerror or type(exc).__name__))
                continue
            mode = st.st_mode
            rel = rel_to_root(path)
            if stat_mod.S_ISDIR(mode):
                if not recursive or name in SKIP_DIRS or name.startswith("."):
                    continue
                if config.excluded(rel, is_dir=True) or (specs and _ignored(specs, path, True)):
                    continue
                subdirs.append((path, specs))
                continue
            if name == ".gitignore" or not config.included(rel):
                continue
            if config.excluded(rel) or (specs and _ignored(specs, path, False)):
                continue
            if stat_mod.S_ISREG(mode):
                sel.files.append(Path(path))
            elif stat_mod.S_ISLNK(mode):
                what, why = check_link(path, real_root)
                if what == "read":
                    sel.files.append(Path(path))
                elif what == "problem":
                    sel.problems.append((Path(path), why))
                else:
                    note(path, why)
            else:
                note(path, f"{kind_of(mode)}, not a regular file; never opened")
        stack.extend(reversed(subdirs))
    sel.files.sort()
    return sel


def named_file_check(path: Path, config: Config) -> str | None:
    """Why a file named on the command line is not read (a --verbose note), or None:
    the configuration excludes it (pre-commit passes every staged file), or it is a
    symbolic link that leaves the corpus root or leads to something other than a file."""
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
        what, why = check_link(abspath, real_root)
        if what != "read":
            return why
    return None


def relpath_of(path: Path | str, cwd: Path | str) -> str:
    """``path`` relative to ``cwd``, '/'-separated (a string prefix test first: this runs
    for every file of every run)."""
    base = str(cwd).rstrip(os.sep) + os.sep
    if type(path) is str and path.startswith(base) and os.sep + "." not in path:
        return path[len(base) :].replace(os.sep, "/")  # already absolute and normal
    absolute = os.path.abspath(path)
    if absolute.startswith(base):
        rel = absolute[len(base) :]
    else:
        rel = os.path.relpath(absolute, cwd)
    return rel.replace(os.sep, "/")
