"""`si-lint check --show-settings`, `--show-files` and `--watch` (docs/cli.md): what a check
of the named paths would read, and the loop that checks again when a file of it changes."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..config import load_config
from ..discovery import relpath_of
from ..errors import SiLintError, UsageError
from ..pipeline.select import make_selection
from ..profile import is_builtin_name
from ..report.output import write
from ..report.text import printable
from ..roots import plan_roots

#: the settings shown after ``profile``, in order (each the ``Config`` attribute of its name)
SETTINGS = (
    "select ignore per-file-ignores include exclude"
    " require-fixtures require-band-coverage require-form-b"
).split()


def show(a, options) -> int:
    cwd = Path.cwd().resolve()
    if a.show_files:
        sels = selections(a, options, cwd)
        shown = {_rel(f, cwd) for _g, _c, sel in sels for f in sel.files if sel.reports(f)}
        text = "".join(f"{p}\n" for p in sorted(shown))
    else:
        plan = plan_roots(cwd, list(a.paths), a.config_file, a.isolated)
        text = "\n".join(_settings(g, options, cwd) for g in plan.groups)
        text += "".join(f"# skipped {_rel(p, cwd)}: {why}\n" for p, why in plan.skipped)
    write(text, a.output)
    return 0


def _rel(path, cwd: Path) -> str:
    return printable(relpath_of(str(path), cwd) or ".")


def selections(a, options, cwd: Path):
    """(group, its configuration, its selection) of each corpus root of the named paths."""
    for group in plan_roots(cwd, list(a.paths), a.config_file, a.isolated).groups:
        config = load_config(cwd, info=group.root)
        yield group, config, make_selection(group.paths, options, cwd, config)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items())
        return "{" + (f" {inner} " if inner else "") + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _settings(group, options, cwd: Path) -> str:
    cfg = load_config(cwd, info=group.root).with_cli(
        options.select, options.ignore, options.extend_select, options.extend_ignore
    )
    source = "none (--isolated)" if options.isolated else "none"
    lines = [
        f"# corpus root: {_rel(cfg.root, cwd)} (found by: {cfg.root_how})",
        f"# configuration file: {_rel(cfg.source, cwd) if cfg.source else source}",
    ]
    lines += [f"# extends: {_rel(base, cwd)}" for base in cfg.extends]
    lines.append("# named: " + ", ".join(_rel(p, cwd) for p in group.paths))
    if cfg.profile_refused:
        lines.append(f"# {cfg.profile_refused[3]}")
    given = options.profile  # a directory: as typed, relative to here
    profile = given or cfg.profile if given is None or is_builtin_name(given) else _rel(given, cwd)
    lines.append(f"profile = {_toml(profile)}")
    for key in SETTINGS:
        value = getattr(cfg, key.replace("-", "_"))
        lines.append(f"{key} = {_toml(dict(value) if key == 'per-file-ignores' else value)}")
    return "\n".join(lines) + "\n"


#: seconds between two looks at the files (or twice a look's time: at most a third of a core)
POLL = 0.5
#: the environment variable that bounds the number of checks
RUNS_ENV = "SI_LINT_WATCH_RUNS"


def say(message: str) -> None:
    write(message + "\n", err=True, color=None)


def watched(a, options) -> list[str]:
    """The paths whose ``stat`` the loop compares (absolute, sorted)."""
    out = {os.path.abspath(p) for p in (a.paths or ["."])}
    for group, config, sel in selections(a, options, Path.cwd().resolve()):
        if group.root.source is not None:
            out.add(os.path.abspath(group.root.source))
        out.update(map(os.path.abspath, config.extends), sel.files, map(os.path.dirname, sel.files))
    return sorted(out)


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def watch(a, options, run_once) -> int:
    limit = os.environ.get(RUNS_ENV) or None
    if limit is not None and (not limit.isdigit() or int(limit) < 1):
        raise UsageError(f"{RUNS_ENV}={limit!r}: must be a whole number of checks, 1 or more")
    runs = 0
    paths: list[str] = []
    try:
        while True:
            try:
                paths = watched(a, options)
                before = tuple(map(_stat, paths))
                run_once(a)
            except SiLintError as exc:
                if runs == 0:  # the first check: a usage error ends the command
                    raise
                say(f"si-lint: {exc}")  # (the files of the last good check are watched)
                before = tuple(map(_stat, paths))
            runs += 1
            if limit is not None and runs >= int(limit):
                return 0
            if a.fix:  # the fixes just written are no change to check again for
                before = tuple(map(_stat, paths))
            say(f"si-lint: watching {len(paths)} path(s) for changes (Ctrl-C stops)")
            started = time.monotonic()
            while tuple(map(_stat, paths)) == before:
                time.sleep(max(POLL, 2 * (time.monotonic() - started)))
                started = time.monotonic()
            say("si-lint: a file changed: checking again")
    except KeyboardInterrupt:
        return 0
