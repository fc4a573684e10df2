"""`si-lint check --watch` (docs/cli.md, "Watch mode"): check, then poll the ``stat`` of
every file of each root's corpus, their directories and the configuration files, and
check again when one differs, until Ctrl-C (exit 0). A look every :data:`POLL` seconds,
or after twice the last look's time, so the loop never takes more than a third of a core.
``SI_LINT_WATCH_RUNS=N`` stops after N checks: a bound for tests and scripts."""

from __future__ import annotations

import os
import time
from pathlib import Path

from ..errors import SiLintError, UsageError
from ..report.output import write
from .check_show import selections

#: seconds between two looks at the files
POLL = 0.5
#: the environment variable that bounds the number of checks
RUNS_ENV = "SI_LINT_WATCH_RUNS"


def say(message: str) -> None:
    """A line on stderr (what ``click.echo(message, err=True)`` writes)."""
    write(message + "\n", err=True, color=None)


def _limit() -> int | None:
    value = os.environ.get(RUNS_ENV)
    if value is None or value == "":
        return None
    if not value.isdigit() or int(value) < 1:
        raise UsageError(f"{RUNS_ENV}={value!r}: must be a whole number of checks, 1 or more")
    return int(value)


def watched(a, options) -> list[str]:
    """The paths whose ``stat`` the loop compares: the selected files of every root, their
    directories, the named paths and the configuration files (absolute, sorted)."""
    out = {os.path.abspath(p) for p in (a.paths or ["."])}
    for group, config, sel in selections(a, options, Path.cwd().resolve()):
        if group.root.source is not None:
            out.add(os.path.abspath(group.root.source))
        out.update(os.path.abspath(p) for p in config.extends)
        out.update(sel.files)
        out.update(os.path.dirname(f) for f in sel.files)
    return sorted(out)


def snapshot(paths: list[str]) -> tuple:
    """What the loop compares: each path's (modification time, size, inode), or None."""
    out: list[tuple[int, int, int] | None] = []
    for p in paths:
        try:
            st = os.stat(p)
        except (OSError, ValueError):
            out.append(None)
        else:
            out.append((st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def _wait_for_change(paths: list[str], before: tuple) -> None:
    """Return when a look at ``paths`` differs from ``before``."""
    while True:
        started = time.monotonic()
        now = snapshot(paths)
        if now != before:
            return
        spent = time.monotonic() - started
        time.sleep(max(POLL, 2 * spent))


def watch(a, options, run_once) -> int:
    """Check, wait for a change, check again; 0 on Ctrl-C or after ``SI_LINT_WATCH_RUNS``."""
    limit = _limit()
    runs = 0
    paths: list[str] = []
    try:
        while True:
            try:
                paths = watched(a, options)
                before = snapshot(paths)
                run_once(a)
            except SiLintError as exc:
                if runs == 0:  # the first check: a usage error ends the command
                    raise
                say(f"si-lint: {exc}")  # (the files of the last good check are watched)
                before = snapshot(paths)
            runs += 1
            if limit is not None and runs >= limit:
                return 0
            if a.fix:  # the fixes just written are no change to check again for
                before = snapshot(paths)
            say(f"si-lint: watching {len(paths)} path(s) for changes (Ctrl-C stops)")
            _wait_for_change(paths, before)
            say("si-lint: a file changed: checking again")
    except KeyboardInterrupt:
        return 0
