"""`si-lint profile [SECTION]`: the vocabulary of a profile, each entry with the file and
line that defines it; `si-lint profile --init DIR` starts a profile from the built-in one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ..config import load_config
from ..discovery import inside, relpath_of
from ..errors import OutputError, UsageError
from ..findings import did_you_mean
from ..fsutil import atomic_write
from ..profile import BUILTIN_DIR, is_builtin_name
from ..profile_docs import find_profile_dir
from ..root import find_root_info
from . import options
from .profile_vocab import DOC_SECTIONS, SECTIONS, SHIPPED_DIR, Entry, one_line, vocabulary

#: why a section of the profile documents is empty
NO_DOCS = "no profile.md in the current directory or above it in the corpus"


@click.command("profile")
@click.argument("section", required=False, metavar="[SECTION]")
@options.declare(
    options.profile(
        "The profile to list (default: the corpus's configured `profile`, else builtin; "
        "a directory is relative to the current directory).",
        dest="profile",
    ),
    options.fmt("text", "json"),
    (
        "--init",
        "Write a new profile directory DIR (registry.yaml, templates/) copied from the "
        "built-in profile; an existing DIR must be empty.",
        {"metavar": "DIR"},
    ),
)
def command(section, profile, fmt, init):
    """List the vocabulary of a profile, each entry with where it is defined.

    SECTION is one of: templates, primitives, channels, deviation-types, budgets,
    behaviors, stimuli, categories, subcategories, archetypes (default: all). The last
    five come from the OASIS profile documents (profile.md and its siblings) of the
    current directory's corpus.

    Exit status: 0 listed (or written), 2 usage error."""
    if init is not None:
        if section is not None or profile is not None:
            raise UsageError("profile: --init takes no SECTION and no --profile")
        return init_profile(Path(init))
    if section is not None:
        folded = section.lower().replace("_", "-")
        if folded not in SECTIONS:
            hint = did_you_mean(section, SECTIONS) or f"sections: {', '.join(SECTIONS)}"
            raise UsageError(f"profile: unknown section {section!r}; {hint}")
        section = folded
    cwd = Path.cwd()
    name, directory, shown_dir, root = _resolve(profile, cwd)
    here, top = os.path.abspath(cwd), os.path.abspath(root)  # as `check` finds a scenario's
    pdir = find_profile_dir(here, top if inside(here, top) else here)
    if section in DOC_SECTIONS and pdir is None:
        raise UsageError(f"profile: {section} come from the profile documents: {NO_DOCS}")
    header, sections = vocabulary(directory, shown_dir, cwd, root, pdir)
    docs = None if pdir is None else relpath_of(pdir, cwd) or "."
    if section is not None:
        sections = {section: sections[section]}
    if fmt == "json":
        click.echo(render_json(name, shown_dir, header, docs, sections))
    else:
        click.echo(render_text(name, shown_dir, header, docs, sections, whole=section is None))
    return 0


def _resolve(option: str | None, cwd: Path) -> tuple[str, Path, str, Path]:
    """(name, directory, directory as printed, corpus root) of the profile ``check`` uses:
    one refused for leading outside the corpus root is not listed (SI010's message)."""
    if option is not None:
        root = find_root_info(cwd, [cwd]).path
        spec, base = options.profile_spec(option, cwd), cwd
    else:
        config = load_config(cwd, [cwd])
        root, spec, base = config.root, config.profile, config.root
        if config.profile_refused:
            where, line, col, message = config.profile_refused
            click.echo(f"si-lint: {where}:{line}:{col}: {message}", err=True)
    if is_builtin_name(spec):
        name = "builtin" if spec == "builtin:si-0.3.0-rc1" else spec
        return name, BUILTIN_DIR, SHIPPED_DIR, root
    directory = Path(os.path.abspath(base / spec))
    return spec, directory, relpath_of(directory, cwd) or ".", root


def _entry_json(entry: Entry, children: str | None) -> dict:
    out = {"name": entry.name, **entry.fields, "file": entry.file, "line": entry.line}
    if children is not None:
        out[children] = [_entry_json(c, None) for c in entry.children]
    return out


#: the JSON key of each section's children
CHILDREN = {"templates": "roles", "primitives": "params"}


def render_json(name, shown_dir, header, docs, sections) -> str:
    out = {"profile": name, "directory": shown_dir, "registry": header, "documents": docs}
    for section, entries in sections.items():
        listed = [_entry_json(e, CHILDREN.get(section)) for e in entries or ()]
        out[section.replace("-", "_")] = None if entries is None else listed
    return json.dumps(out, indent=2, ensure_ascii=False)


def render_text(name, shown_dir, header, docs, sections, *, whole: bool) -> str:
    lines = []
    if whole:
        version = " ".join(v for v in (header["profile"], header["version"]) if v)
        lines.append(f"profile {name}" + (f" ({version})" if version else "") + f": {shown_dir}")
        lines.append(f"profile documents: {docs or f'none here ({NO_DOCS})'}")
    for section, entries in sections.items():
        if entries is None:
            continue  # a document the section comes from is absent
        if lines:
            lines.append("")
        lines.append(section)
        lines.extend(_rows(entries) if entries else ["  (none)"])
    return "\n".join(lines)


def _rows(entries: list[Entry]) -> list[str]:
    """name, detail (a column left out when every entry has none), file:line."""
    listed = [(i, e) for p in entries for i, e in [("  ", p)] + [("    ", c) for c in p.children]]
    rows = [
        (i + one_line(e.name), one_line(e.detail), one_line(f"{e.file}:{e.line}"))
        for i, e in listed
    ]
    widths = [max(len(r[0]) for r in rows), max(len(r[1]) for r in rows), 0]
    cols = (0, 1, 2) if widths[1] else (0, 2)
    return ["  ".join(r[c].ljust(widths[c]) for c in cols) for r in rows]


def init_profile(target: Path) -> int:
    if os.path.lexists(target) and not target.is_dir():
        raise UsageError(f"profile --init: {target} exists and is not a directory")
    try:
        if target.is_dir() and any(target.iterdir()):
            raise UsageError(
                f"profile --init: {target} is not empty; name a new or an empty directory"
            )
        names = ["registry.yaml"] + [
            f"templates/{p.name}"
            for p in sorted((BUILTIN_DIR / "templates").iterdir())
            if p.suffix in (".yaml", ".yml", ".json")
        ]
        (target / "templates").mkdir(parents=True, exist_ok=True)
        for rel in names:
            atomic_write(target / rel, (BUILTIN_DIR / rel).read_bytes())
    except OSError as exc:
        raise OutputError(f"profile --init: cannot write {target}: {exc.strerror or exc}") from None
    click.echo(f"wrote {', '.join(str(target / rel) for rel in names)}")
    click.echo(
        "point `profile` at it in si-lint.toml (a path relative to the corpus root), "
        f"or run `si-lint check --profile {target}`"
    )
    return 0
