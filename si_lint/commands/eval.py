"""`si-lint eval SCENARIO EVIDENCE...` (SPEC §5, §7; docs/eval.md). The verdicts are written
as they are computed, so memory stays flat whatever the input size."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..catalogue import severity_of
from ..checks import all_checks
from ..config import load_config
from ..errors import UsageError
from ..evaluator import EvaluationError, NoTable, prepare, score, untrusted_primitives
from ..evaluator.tables import CompiledTable, locate_table
from ..pipeline.context import Context
from ..pipeline.perfile import file_diags, load_documents
from ..pipeline.read import source_of
from ..profile import (
    OASISCTL_CONSTANTS,
    OASISCTL_NOTICE,
    SEED_CONSTANTS,
    Constants,
    resolve_profile,
)
from . import options
from .eval_input import evidence_artifacts, load_scenario


def _lint_note(scen_path: Path, index: int, profile, config) -> str | None:
    """The note when `check`'s per-document rules reject the scenario (the cross-file
    rules need the whole corpus)."""
    try:
        source = source_of(os.path.abspath(scen_path))
        doc = next((d for d in load_documents(source, Path.cwd()) if d.index == index), None)
        if doc is None:
            return None
        ctx = Context(profile=profile, config=config)
        codes = [
            d.code
            for d in file_diags(doc, ctx, all_checks())
            if (d.severity or severity_of(d.code)) == "error"
            and (config is None or config.enabled(d.code, doc.relpath))
        ]
    except (OSError, ValueError):  # the note is advice: a path problem only drops it
        return None
    if not codes:
        return None
    unique = sorted(set(codes))
    shown = ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "")
    noun = "error" if len(codes) == 1 else "errors"
    return f"note: the scenario has {len(codes)} lint {noun} ({shown}): run si-lint check"


def profile_for(scen_path: Path, profile_opt: str | None, trust: bool):
    """(config, profile) to score under: ``--profile``, else the corpus's configured one."""
    config = load_config(Path.cwd(), [scen_path])
    if profile_opt is not None:
        cfg_root, spec = Path.cwd(), options.profile_spec(profile_opt)
    elif config.profile_refused:  # SI010: never scored under a profile it did not name
        where, line, col, message = config.profile_refused
        raise UsageError(f"{where}:{line}:{col}: {message}")
    else:
        cfg_root, spec = config.root, config.profile
    return config, resolve_profile(spec, cfg_root, trust=trust)[0]


def scored_table(data: Any, profile, label: str) -> Any:
    """The scenario's prepared table, or the error every verdict gets; a scenario with no
    decision table is a usage error."""
    try:
        locate_table(data, profile)
    except NoTable as exc:  # other reasons are every verdict's error
        if str(exc).startswith("scenario has no decision table"):
            raise UsageError(f"{label}: {exc}") from None
    untrusted = untrusted_primitives(data, profile)
    if untrusted:
        names = ", ".join(f"`{n}`" for n in untrusted)
        return EvaluationError(
            f"SI409: the table needs {names}, which has no trusted "
            "implementation (run with --trust-implementations to import it)"
        )
    try:
        return prepare(data, profile)
    except EvaluationError as exc:
        return exc


def _other_reading(prepared: Any):
    """``(JSON key, what the note calls it, the table read so)`` of the other built-in
    reading: oasisctl's constants, or the seed's when the profile already has those."""
    if not isinstance(prepared, CompiledTable) or prepared.constants is None:
        return None
    key, label, constants = "oasisctl", "oasisctl's reading (builtin:oasisctl)", OASISCTL_CONSTANTS
    if prepared.constants == Constants(**OASISCTL_CONSTANTS):
        key, label, constants = "builtin", "the seed's reading (builtin)", SEED_CONSTANTS
    return key, label, replace(prepared, constants=Constants(**constants))


def _entry(name, artifact, problem, data, profile, prepared, other):
    """The verdict entry (the other built-in reading's verdict under its key when it
    differs), and the note's name for that reading."""
    entry: dict[str, Any] = {"evidence": name, "scenario": data.get("id")}
    if problem is not None:
        return {**entry, "score": None, "row": None, "error": problem}, None
    verdict = score(artifact, data, profile, prepared, explain=True, other=other and other[2])
    alt = verdict.pop("other", None)
    entry.update(verdict)
    if alt is None or (alt["score"], alt["row"]) == (verdict["score"], verdict["row"]):
        return entry, None
    entry[other[0]] = alt
    return entry, other[1]


#: the metadata a verdict's line shows when the evidence has it, and how
METADATA_SHOWN = (
    ("duration_s", "{} s"),
    ("duration_ms", "{} ms"),
    ("tokens", "{} tokens"),
    ("observed_model", "model {}"),
)


def text_line(entry: dict, other: str | None = None) -> str:
    """One verdict, its ``why:`` and the ``note:`` naming ``other`` (the other reading)."""
    head = f"{entry['evidence']}: "
    if entry.get("error") is not None:
        return head + f"error: {entry['error']}"
    md = entry.get("metadata") or {}
    bits = [
        f"tool calls {md.get('tool_calls')}",
        "final answer" if md.get("final_answer") else "no final answer",
    ]
    bits += [shown.format(md[key]) for key, shown in METADATA_SHOWN if key in md]
    out = head + f"{entry['score']!r} (row {entry['row']})  [" + ", ".join(bits) + "]"
    why = entry.get("why")
    if why:
        out += f"\n  why: {why['text']}"
    alt = entry.get("oasisctl") or entry.get("builtin")
    if other and alt:
        scored = f"{alt['score']!r} (row {alt['row']})"
        shown = scored if alt.get("error") is None else f"error: {alt['error']}"
        out += f"\n  note: {other} scores {shown}"
    return out


@click.command("eval")
@click.argument("scenario", type=click.Path())
@click.argument("evidence", nargs=-1, required=True, type=click.Path())
@options.declare(
    (
        "--scenario scenario_id",
        "Pick the scenario with this id out of a multi-document file or a corpus directory.",
        {"metavar": "ID"},
    ),
    options.fmt("text", "json", help=None),
    options.profile("The profile to score under (default: the corpus's configured profile)."),
    (
        "--trust-implementations",
        "Import the profile's primitive implementations (corpus code) to run them.",
    ),
    (
        "--jobs -j",
        "Accepted and ignored: the artifacts are scored in this process.",
        {"type": click.IntRange(min=1)},
    ),
)
def command(scenario, evidence, scenario_id, fmt, profile_opt, trust_implementations, jobs):
    """Score recorded EVIDENCE (oasisctl artifacts or transcripts: yaml/json/jsonl files or
    directories) against SCENARIO.

    Each verdict says why (text: a `why:` line; JSON: `why`, the same as data), quoting
    the artifact's own words, and notes when the other shipped reading (`builtin` /
    `builtin:oasisctl`) scores it otherwise (JSON: an `oasisctl` or `builtin` key).

    Exit status: 0 every artifact was evaluated, 1 some verdict is an error, 2 the scenario
    itself cannot be used (unreadable, no scenario, several without --scenario, no
    decision table) or a usage/configuration error."""
    scen_path, index, data = load_scenario(scenario, scenario_id)
    config, profile = profile_for(scen_path, profile_opt, trust_implementations)
    prepared = scored_table(data, profile, scenario)
    if profile.is_oasisctl:
        click.echo(OASISCTL_NOTICE, err=True)
    note = _lint_note(scen_path, index, profile, config) if fmt == "text" else None
    if note:
        click.echo(note, err=True)
    other = _other_reading(prepared)
    errors = count = 0
    for name, artifact, problem in evidence_artifacts(evidence):
        entry, note = _entry(name, artifact, problem, data, profile, prepared, other)
        errors += entry.get("error") is not None
        if fmt == "text":
            sys.stdout.write(text_line(entry, note) + "\n")
        else:  # json.dumps(list, indent=2), one entry at a time
            text = json.dumps(entry, indent=2).replace("\n", "\n  ")
            sys.stdout.write(("[\n  " if count == 0 else ",\n  ") + text)
        count += 1
    if fmt == "json":
        sys.stdout.write("[]\n" if count == 0 else "\n]\n")
    sys.stdout.flush()
    return 1 if errors else 0
