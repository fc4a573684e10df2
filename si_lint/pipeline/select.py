"""Stage 1, select: the configuration, the profile, the files to read and to report on,
in one path form (absolute, normalised strings)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ..cache.keys import profile_fingerprint
from ..cache.signed import distrust
from ..cache.store import note_valid_configs, open_cache, valid_configs
from ..config import Config, load_config
from ..discovery import discover, expand_named, inside, named_file_check, relpath_of
from ..profile import is_builtin_name, resolve_profile
from ..root import find_root_info
from ..roots import plan_roots
from .context import Context, Options, State


@dataclass(frozen=True)
class Selection:
    """What a run reads and reports on. Every path is absolute and normalised (a named
    directory resolved through links, as discovery walks real directories)."""

    cwd: str
    config: Config
    named_files: tuple[str, ...]
    #: directories named on the command line (``.`` when nothing is named)
    named_dirs: tuple[str, ...]
    #: the corpus under the root, named paths outside it, and the profile directory
    files: tuple[str, ...]
    walk_problems: tuple[tuple[str, str], ...]
    profile_dir: str | None
    notes: tuple[str, ...] = ()
    #: named files not read: (relpath, reason), counted in the summary
    skipped_named: tuple[tuple[str, str], ...] = ()
    #: each directory the walks listed -> whether it holds ``profile.md``
    profile_md: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    @property
    def root(self) -> str:
        return str(self.config.root)

    def relpath(self, abspath: str) -> str:
        return relpath_of(abspath, self.cwd)

    def absolute(self, relpath: str) -> str:
        return os.path.normpath(os.path.join(self.cwd, relpath))

    def reports(self, abspath: str) -> bool:
        if abspath in self.named_files or abspath.startswith(self._under):
            return True
        return abspath in self.named_dirs  # (a directory itself: inside() says so too)

    @cached_property
    def _under(self) -> tuple[str, ...]:
        return tuple(d.rstrip(os.sep) + os.sep for d in self.named_dirs)


def make_selection(paths: list[str], options: Options, cwd: Path, config: Config) -> Selection:
    config = config.with_cli(
        options.select, options.ignore, options.extend_select, options.extend_ignore
    )
    config.check_patterns()
    named_files, named_dirs = expand_named(paths or ["."], cwd)
    # the configured profile directory, resolved (None for a shipped profile, and for one
    # refused because it leads outside the corpus root: ``Config.profile_refused``)
    profile_dir = (
        None if is_builtin_name(config.profile) else str((config.root / config.profile).resolve())
    )
    files: dict[str, None] = {}  # (an ordered set of absolute, normal paths)
    problems: list = []
    profile_md: dict[str, bool] = {}
    notes = [
        f"corpus root: {relpath_of(config.root, cwd) or '.'} ({config.root_how}); "
        f"configuration: {config.source or 'none'}"
    ]
    root = str(config.root)
    # the root, then named directories outside it
    for top in [root, *(d for d in named_dirs if not inside(d, root))]:
        found = discover(Path(top), config, cwd)
        problems += found.problems
        notes += found.notes
        profile_md.update(found.profile_md)
        files.update(dict.fromkeys(found.files))
    # an excluded named file, or a link out of the root, is a note and a skipped named
    # path (pre-commit passes every staged file)
    kept, skipped = [], []
    for f in named_files:
        why = named_file_check(Path(f), config)
        if why is None:
            kept.append(f)
            continue
        note = f"skipped {relpath_of(f, cwd)}: {why}"
        if note not in notes:  # (the walk of the root may have noted it)
            notes.append(note)
        skipped.append((relpath_of(f, cwd), why))
    files.update(dict.fromkeys(os.path.abspath(f) for f in kept))
    if profile_dir is not None and not inside(profile_dir, root):
        files.update(dict.fromkeys(discover(Path(profile_dir), config, cwd).files))
    return Selection(
        cwd=str(cwd),
        config=config,
        named_files=tuple(kept),
        named_dirs=tuple(named_dirs),
        files=tuple(files),
        walk_problems=tuple((str(p), r) for p, r in problems),
        profile_dir=profile_dir,
        notes=tuple(notes),
        skipped_named=tuple(skipped),
        profile_md=profile_md,
    )


def select(state: State) -> None:
    options = state.options
    if state.config is None:  # (the configure stage found the root)
        root = state.root_info.path
        valid, checked = valid_configs(root, options), set[str]()
        state.config = load_config(state.cwd, info=state.root_info, valid=valid, checked=checked)
        note_valid_configs(root, options, valid, checked)
    sel = make_selection(state.paths, options, state.cwd, state.config)
    # builtin, builtin:si-0.3.0-rc1, builtin:oasisctl, or a directory under the root
    spec = options.profile or sel.config.profile
    profile, _pdir = resolve_profile(spec, sel.config.root, trust=options.trust_implementations)
    header = (profile_fingerprint(profile), sel.config.fingerprint(), options.trust_implementations)
    cache = open_cache(sel.config.root, options, header)
    if cache.note:
        sel = replace(sel, notes=sel.notes + (cache.note,))
    state.selection, state.profile, state.cache = sel, profile, cache
    # the dry runs' results are kept (Context.map)
    state.ctx = Context(profile, sel.config, options, cache=cache, memo_tasks=True)


def configure(state: State) -> None:
    """Stage 1a: the corpus root and configuration table (SPEC §9), unless given; then no
    cache key inside the root, the named paths or their work trees is trusted."""
    named = [p for p in (state.cwd / q for q in state.paths) if p.exists()]
    if state.config is None and state.root_info is None:
        plan = plan_roots(state.cwd, state.paths, state.options.config_file, state.options.isolated)
        if plan.groups:
            state.root_info = plan.groups[0].root
        else:
            state.root_info = find_root_info(state.cwd, named, state.options.config_file)
    root = state.config.root if state.config is not None else state.root_info.path
    distrust([root, *named])
