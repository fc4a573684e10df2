"""The corpus roots of one run, found for each named path (SPEC §9 "Corpus root",
"Monorepos"): a guessed root is never ``/`` nor a home directory."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .discovery import inside, relpath_of
from .errors import ConfigError, UsageError
from .root import CONFIG_FILE, Root, ancestors, config_in, git_top, profile_ancestor, root_of

#: directories never searched for configuration files
_SKIP = frozenset({".git", ".hg", ".svn", ".si-lint-cache", "node_modules", "__pycache__"})
#: the most directory entries the fallback search for configured roots looks at
_MAX_WALK = 200_000


@dataclass
class Group:
    root: Root
    paths: list[str]


@dataclass
class Plan:
    """``groups`` in the order their first path was named; ``skipped``: ``(absolute path,
    reason)``."""

    groups: list[Group]
    skipped: list[tuple[str, str]]


def _start(path: str) -> str:
    return os.path.realpath(path if os.path.isdir(path) else os.path.dirname(path))


def _git_listed(top: str) -> list[str] | None:
    """The configuration files git knows in ``top`` (tracked, or untracked but not
    ignored); None when git cannot tell."""
    import subprocess  # (~1 ms: only where a monorepo's configured roots are listed)

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    cmd = ["git", "-c", "core.fsmonitor=false", "-C", top, "ls-files", "-z", "--cached"]
    cmd += ["--others", "--exclude-standard", "--", f":(glob)**/{CONFIG_FILE}"]
    cmd += [":(glob)**/pyproject.toml"]
    try:
        proc = subprocess.run(cmd, capture_output=True, env=env, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return sorted({n for n in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if n})


def _walked(top: str) -> list[str]:
    out: list[str] = []
    seen = 0
    for d, dirs, files in os.walk(top):
        seen += len(dirs) + len(files)
        if seen > _MAX_WALK:
            break
        dirs[:] = sorted(x for x in dirs if x not in _SKIP and not x.startswith("."))
        for name in (CONFIG_FILE, "pyproject.toml"):
            if name in files:
                out.append(os.path.relpath(os.path.join(d, name), top))
    return sorted(out)


def configured_roots(top: str) -> list[str]:
    """The configured roots inside the git work tree ``top`` (SPEC §9 "Monorepos")."""
    listed = _git_listed(top)
    roots = set()
    for rel in _walked(top) if listed is None else listed:
        parts = rel.split("/")
        if any(p in _SKIP for p in parts[:-1]):
            continue
        directory = os.path.join(top, *parts[:-1])
        try:
            if config_in(Path(directory), True) is not None:
                roots.add(os.path.normpath(directory))
        except ConfigError:
            roots.add(os.path.normpath(directory))  # (its error is reported when it is used)
    return sorted(roots)


class _Planner:
    def __init__(self, cwd: Path, isolated: bool = False):
        self.cwd = cwd
        self.isolated = isolated  # --isolated: no configuration file is looked for
        self.groups: dict[tuple, Group] = {}
        self.skipped: list[tuple[str, str]] = []
        self.tops: dict[str, list[str]] = {}  # work tree top -> its configured roots

    def add(self, root: Root, path: str) -> None:
        group = self.groups.setdefault((str(root.path), str(root.source)), Group(root, []))
        if path not in group.paths:
            group.paths.append(path)

    def place(self, path: str) -> None:
        start = _start(path)
        if not self.isolated:
            for d in ancestors(start):
                found = config_in(Path(d), True)
                if found is not None:
                    return self.add(found[1], path)
        top, roots = self.roots_of_tree(start)
        if roots:
            return self.monorepo(path, roots)
        prof = profile_ancestor(start)
        if prof is not None:
            return self.add(Root(Path(prof), None, {}, "profile"), path)
        if top is not None:
            return self.add(Root(Path(top), None, {}, "git"), path)
        if start == os.path.dirname(start) or start == os.path.realpath(os.path.expanduser("~")):
            raise UsageError(
                f"{relpath_of(path, self.cwd) or '.'}: no corpus root found (no si-lint.toml, "
                "pyproject.toml with [tool.si-lint], OASIS profile layout or git work tree "
                f"above it), and si-lint does not crawl {start}: name the corpus directory, "
                "or add si-lint.toml at the corpus root"
            )
        self.add(Root(Path(start), None, {}, "dir" if os.path.isdir(path) else "file"), path)

    def roots_of_tree(self, start: str) -> tuple[str | None, list[str]]:
        top = git_top(Path(start))
        if top is None or self.isolated:
            return (None if top is None else str(top)), []
        if str(top) not in self.tops:
            self.tops[str(top)] = configured_roots(str(top))
        return str(top), self.tops[str(top)]

    def within(self, path: str, root: str) -> str | None:
        """``--config``: what a named path stands for, None: skipped (SPEC §9 "Monorepos")."""
        real = os.path.realpath(path)
        if inside(real, root):
            return path
        _top, roots = self.roots_of_tree(_start(path))
        if not roots:
            return path
        if os.path.isdir(path) and inside(root, real):
            return root
        if any(inside(real, r) for r in roots):
            return path
        self.skip_outside(path, roots)
        return None

    def skip_outside(self, path: str, roots: list[str]) -> None:
        shown = [relpath_of(r, self.cwd) or "." for r in roots[:3]]
        listed = ", ".join(shown) + (", ..." if len(roots) > 3 else "")
        self.skipped.append(
            (path, f"not under a configured corpus root of its work tree ({listed})")
        )

    def monorepo(self, path: str, roots: list[str]) -> None:
        """A directory stands for the roots under it; anything else is skipped (SPEC §9)."""
        under = (
            [r for r in roots if inside(r, os.path.realpath(path))] if os.path.isdir(path) else []
        )
        for r in under:
            name = CONFIG_FILE if os.path.isfile(os.path.join(r, CONFIG_FILE)) else "pyproject.toml"
            self.add(root_of(Path(r) / name, True), r)
        if not under:
            self.skip_outside(path, roots)


def plan_roots(
    cwd: Path, paths: list[str], config_file: str | None = None, isolated: bool = False
) -> Plan:
    """The roots of a run over ``paths`` (``.`` when none); ``--config``'s directory is
    the one root of every path."""
    given = list(paths or ["."])
    named = [os.path.normpath(os.path.join(cwd, p)) for p in given]
    planner = _Planner(cwd, isolated)
    for shown, p in zip(given, named):
        if not os.path.lexists(p):
            raise UsageError(f"{shown}: no such file or directory")
    if config_file is None:
        for p in named:
            planner.place(p)
        return Plan(list(planner.groups.values()), planner.skipped)
    root = root_of(Path(os.path.abspath(config_file)), True)
    kept: list[str] = []
    for p in named:
        inside_root = planner.within(p, str(root.path))
        if inside_root is not None and inside_root not in kept:
            kept.append(inside_root)
    return Plan([Group(root, kept)] if kept else [], planner.skipped)
