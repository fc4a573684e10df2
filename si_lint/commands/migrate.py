"""`si-lint migrate SCENARIO_FILE [--scenario ID] [--write]`: the Form A → Form B migration
draft of one scenario (SPEC §3.1; docs/migrating.md): the ``scoring`` block SI115's unsafe
fix writes (:mod:`si_lint.checks.form_a`), rewritten by ``--fix``'s round trip, and one
draft fixture per row of the template's table (:mod:`.migrate_draft`), never overwriting a
file; without ``--write``, one unified diff of both (``git apply`` takes it).
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

import click

from ..checks.form_a import draft_scoring
from ..errors import OutputError, UsageError
from ..fix import FixError, set_value
from ..fix.text import fix_stream
from ..fsutil import ReadOnlyFile, atomic_write
from ..loader import load_bytes
from ..model import FORM_A, find_template, scoring_of
from ..profile import is_builtin_name, load_profile_for, resolve_profile
from . import options
from .eval_input import load_scenario
from .migrate_draft import draft_fixtures


@click.command(name="migrate")
@click.argument("scenario_file", type=click.Path(dir_okay=False))
@click.option("--scenario", "scenario_id", help="The scenario's id (a file holding several).")
@click.option(
    "--profile",
    "profile_opt",
    help="The profile whose template to bind (default: the corpus's configured one).",
)
@click.option(
    "--evidence",
    type=click.Choice(["transcript", "artifact"]),
    default="transcript",
    show_default=True,
    help="The fixtures' evidence form: YAML transcripts or oasisctl's JSON artifacts.",
)
@click.option(
    "--fixtures-dir",
    type=click.Path(file_okay=False),
    help="Where the fixtures go (default: fixtures/<last part of the id>/ beside the "
    "`scenarios/` directory holding the file, else beside the file).",
)
@options.flag("--write", help="Rewrite `scoring` and create the fixture files.")
def command(scenario_file, scenario_id, profile_opt, evidence, fixtures_dir, write):
    """Draft the Form B scoring block of a Form A scenario from its injection manifest,
    with one draft fixture per row of the template's table.

    Without --write, print the draft as a unified diff. The scenario must be a Form A
    capability scenario whose archetype has a template in the profile, and must have an
    injection manifest (`injection.deviations`): without one there is nothing to derive
    the binding from. Fill in every `TODO(si-lint):` placeholder, then run `si-lint check`.
    SI115's unsafe fix (`si-lint check --fix --unsafe-fixes`) writes the same block,
    without fixtures. See docs/migrating.md.

    Exit status: 0 the draft was printed or written; 2 the scenario cannot be migrated,
    a fixture file is in the way, or a file cannot be written (nothing is written then).
    """
    path, index, data = load_scenario(scenario_file, scenario_id)
    if profile_opt is None:
        profile = load_profile_for(path)
    elif is_builtin_name(profile_opt) or (Path(profile_opt) / "registry.yaml").is_file():
        profile = resolve_profile(profile_opt, Path.cwd())[0]
    else:
        raise UsageError(f"--profile {profile_opt}: not a shipped profile nor a profile directory")
    scoring, template = _draft_block(scenario_file, data, profile)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{scenario_file}: cannot read it ({type(exc).__name__})") from None
    new = _rewritten(text, index, scoring, path)
    fdir = Path(fixtures_dir) if fixtures_dir else default_fixtures_dir(path, str(data.get("id")))
    drafts = draft_fixtures(data, scoring, template, profile, evidence)
    files = [(fdir / name, body) for name, body in drafts]
    existing = [str(p) for p, _ in files if p.exists()]
    if existing:
        raise UsageError(f"{existing[0]}: already exists (move it away, or pass --fixtures-dir)")
    todo = sum(n.count("TODO(si-lint):") for n in [new] + [t for _, t in files])
    if not write:
        click.echo(_diff(scenario_file, text, new, files), nl=False)
    else:
        _write(path, new, files)
    verb = "wrote" if write else "drafted (nothing written; --write writes it)"
    click.echo(
        f"si-lint: {verb}: the scoring block of {scenario_file} and {len(files)} fixture(s) in "
        f"{_shown(fdir)}; {todo} placeholder(s) to fill in, then run si-lint check",
        err=True,
    )
    return 0


def _draft_block(given: str, data, profile):
    """(the drafted scoring block, the template), or the reason there is none (exit 2)."""
    sid = data.get("id")
    if data.get("classification", "capability") != "capability" or scoring_of(data).form != FORM_A:
        raise UsageError(f"{given}: scenario `{sid}` is not a Form A capability scenario")
    archetype = data.get("archetype")
    template = find_template(profile, archetype)
    if template is None:
        raise UsageError(
            f"{given}: no template for archetype {archetype} in profile {profile.name}: "
            "the scenario stays Form A until the profile has one (docs/migrating.md)"
        )
    scoring = draft_scoring(data, profile, template, archetype)
    if scoring is None:
        raise UsageError(
            f"{given}: scenario `{sid}` has no injection manifest (`injection.deviations`) "
            "to derive the binding from: write it first (docs/migrating.md)"
        )
    return scoring, template


def _rewritten(text: str, index: int, scoring: dict, path: Path) -> str:
    docs = load_bytes(text.encode("utf-8")).documents
    key = index if len(docs) > 1 else None
    try:
        new, applied = fix_stream(text, {key: [set_value(("scoring",), scoring)]})
    except FixError as exc:
        raise UsageError(f"{path}: cannot rewrite its scoring block ({exc})") from None
    if not applied:
        raise UsageError(f"{path}: cannot rewrite its scoring block")
    return new


def default_fixtures_dir(path: Path, sid: str) -> Path:
    """``fixtures/<tail>`` beside the nearest ``scenarios`` directory above the file, else
    beside the file (``<tail>``: the id's last dotted part, every run of characters but
    letters, digits, ``_`` and ``-`` made one ``-``: an id is no path)."""
    tail = re.sub(r"[^A-Za-z0-9_-]+", "-", sid.rsplit(".", 1)[-1]).strip("-") or "scenario"
    ups = [path.parent, *path.parent.parents]
    base = next((up.parent for up in ups if up.name == "scenarios"), path.parent)
    return base / "fixtures" / tail


def _shown(path: Path) -> str:
    rel = os.path.relpath(path)
    return (rel if not rel.startswith("..") else str(path)) + "/"


def _diff(given: str, text: str, new: str, files) -> str:
    """The scenario's change, then each fixture as a new file."""
    changes = [(text, new, f"a/{given}", f"b/{given}")]
    changes += [("", body, "/dev/null", f"b/{_shown(p)[:-1]}") for p, body in files]
    out = [
        line
        for old, now, a, b in changes
        for line in difflib.unified_diff(
            old.splitlines(keepends=True), now.splitlines(keepends=True), fromfile=a, tofile=b
        )
    ]
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def _write(path: Path, new: str, files) -> None:
    """The scenario first (a read-only one stops everything), then the fixtures."""
    try:
        atomic_write(str(path), new.encode("utf-8"), follow_symlinks=True)
    except ReadOnlyFile:
        raise OutputError(f"{path}: the file is read-only; nothing written") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise OutputError(f"{path}: cannot write it ({why})") from None
    for p, body in files:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            with open(p, "x", encoding="utf-8") as fh:
                fh.write(body)
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            raise OutputError(f"{p}: cannot write it ({why})") from None
