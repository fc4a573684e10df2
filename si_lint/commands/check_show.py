"""`si-lint check --show-settings` and `--show-files` (ruff's options, docs/cli.md): what
a check of the named paths would use, printed without checking anything; exit 0. The
settings are each root's, as TOML; the files are those whose findings a check reports,
as findings show paths, sorted."""

from __future__ import annotations

import json
from pathlib import Path

from ..config import load_config
from ..discovery import relpath_of
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


def _profile(given: str | None, configured: str, cwd: Path) -> str:
    """``--profile`` (a directory: as typed relative to here) or the configured one."""
    if given is None or is_builtin_name(given):
        return given or configured
    return _rel(given, cwd)


def _settings(group, options, cwd: Path) -> str:
    """One root's block: comments saying where it comes from, then its settings."""
    cfg = load_config(cwd, info=group.root).with_cli(
        options.select, options.ignore, options.extend_select, options.extend_ignore
    )
    source = "none (--isolated)" if options.isolated else "none"
    lines = [
        f"# corpus root: {_rel(cfg.root, cwd)} (found by: {cfg.root_how})",
        f"# configuration file: {_rel(cfg.source, cwd) if cfg.source else source}",
    ]
    for base in cfg.extends:
        lines.append(f"# extends: {_rel(base, cwd)}")
    lines.append("# named: " + ", ".join(_rel(p, cwd) for p in group.paths))
    if cfg.profile_refused:
        lines.append(f"# {cfg.profile_refused[3]}")
    lines.append(f"profile = {_toml(_profile(options.profile, cfg.profile, cwd))}")
    for key in SETTINGS:
        value = getattr(cfg, key.replace("-", "_"))
        lines.append(f"{key} = {_toml(dict(value) if key == 'per-file-ignores' else value)}")
    return "\n".join(lines) + "\n"
