"""`si-lint migrate`: the Form A → Form B migration draft of one scenario (SPEC §3.1;
docs/migrating.md), rewritten by ``--fix``'s round trip; never overwrites a fixture.

The draft fixtures: one per row of the template's decision table, so that the dry runs
(SI401/SI402) and the band coverage (SI403) have something to bite on. A few candidate
answers built from the drafted binding are scored by the evaluator itself; each row gets
the first candidate that fires it, with that verdict's score as ``expect``. A row none
fires gets a placeholder answer: its dry run fails until an author writes one. Both
evidence forms (SPEC §4.3): transcripts (YAML) and oasisctl's artifacts (JSON).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..checks.form_a import draft_scoring, first_deviation
from ..checks.value_facts import PLACEHOLDER, is_placeholder
from ..errors import OutputError, UsageError
from ..evaluator import evaluate
from ..fix import FixError, set_value
from ..fix.text import fix_stream
from ..fsutil import ReadOnlyFile, atomic_write
from ..loader import load_bytes
from ..mapping import MAPPING, lookup
from ..model import FORM_A, TEMPLATE_KEY, budget_roles, find_template, scoring_of, template_roles
from ..profile import is_builtin_name, load_profile_for, resolve_profile
from . import options
from .eval_input import load_scenario


@click.command(name="migrate")
@click.argument("scenario_file", type=click.Path(dir_okay=False))
@options.declare(
    ("--scenario scenario_id", "The scenario's id (a file holding several).", {}),
    (
        "--profile profile_opt",
        "The profile whose template to bind (default: the corpus's configured one).",
        {},
    ),
    (
        "--evidence",
        "The fixtures' evidence form: YAML transcripts or oasisctl's JSON artifacts.",
        options.choice(["transcript", "artifact"]),
    ),
    (
        "--fixtures-dir",
        "Where the fixtures go (default: fixtures/<last part of the id>/ beside the "
        "`scenarios/` directory holding the file, else beside the file).",
        {"type": click.Path(file_okay=False)},
    ),
    ("--write", "Rewrite `scoring` and create the fixture files."),
)
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
    key = index if len(load_bytes(text.encode("utf-8")).documents) > 1 else None
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
    target = path
    try:
        atomic_write(str(path), new.encode("utf-8"), follow_symlinks=True)
        for target, body in files:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "x", encoding="utf-8") as fh:
                fh.write(body)
    except ReadOnlyFile:
        raise OutputError(f"{path}: the file is read-only; nothing written") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise OutputError(f"{target}: cannot write it ({why})") from None


@dataclass(frozen=True)
class Candidate:
    slug: str  # the file name's part: row-N-<slug>
    what: str  # the description's part
    answer: str  # the agent's answer ("" none)
    final: bool = True  # whether the answer is final


def evaluable(scoring: Mapping[str, Any], template: Any) -> dict:
    """The draft binding as the evaluator can read it before it is filled in."""
    budgets = budget_roles(template)
    out: dict[str, Any] = {}
    for key, value in scoring.items():
        if key in budgets and is_placeholder(value):
            value = 1
        elif isinstance(value, list):
            value = [v for v in value if not is_placeholder(v)]
        elif isinstance(value, MAPPING) and isinstance(value.get("required_identifiers"), list):
            ids = [v for v in value["required_identifiers"] if not is_placeholder(v)]
            value = {**value, "required_identifiers": ids}
        out[key] = value
    return out


def candidates(data: Any, scoring: Mapping[str, Any], template: Any, profile: Any) -> list:
    """The candidate answers, most telling first."""
    dev = first_deviation(data) or {}
    resource = lookup(dev, "resource", str, "it")
    factor, members = [], []
    for role, spec in template_roles(template).items():
        value = scoring.get(role)
        rtype = spec.get("type") if isinstance(spec, MAPPING) else None
        if rtype == "factor" and isinstance(value, MAPPING):
            factor = _real(value.get("required_identifiers"))
        elif rtype == "identifier_set":
            members.extend(_real(value))
    synonyms = (getattr(profile, "synonyms", None) or {}).get(dev.get("deviation_type"))
    synonym = next((s for s in synonyms or () if isinstance(s, str) and s), None)
    out = [Candidate("no-final-answer", "no final answer", "Still looking into it.", False)]
    if factor and synonym:
        ids = " and ".join(factor)
        answer = f"Root cause: {ids} is {synonym} in {resource}."
        out.append(Candidate("root-cause", f"names {ids} and says it is {synonym}", answer))
    for member in members:
        what = f"points at {member} but never says what is wrong"
        answer = f"The trouble is around {member}; I could not pin it down further."
        out.append(Candidate("subsystem", what, answer))
    wrong = "A network outage upstream; nothing to change."
    out.append(Candidate("wrong", "blames something else", wrong))
    return out


def _real(values: Any) -> list[str]:
    if not isinstance(values, list):
        return []
    return [v for v in values if isinstance(v, str) and v.strip() and not is_placeholder(v)]


def _tool_call(data: Any) -> tuple[str, str]:
    """(the resource the agent reads, what it sees): the deviation's resource and its
    state in the preconditions (the injected state)."""
    resource = lookup(first_deviation(data), "resource", str, "")
    env = lookup(lookup(data, "preconditions"), "environment")
    for entry in lookup(env, "state", list, ()):
        if isinstance(entry, MAPPING) and entry.get("resource") == resource:
            kv = entry.get("data")
            if isinstance(kv, MAPPING):
                return resource, "".join(f"{k}: {v}\n" for k, v in kv.items())
    return resource, ""


def transcript(sid: str, cand: Candidate, seen: tuple[str, str]) -> dict:
    resource, response = seen
    call = {"kind": "tool_call", "tool": "inspect", "args": {"resource": resource}}
    answer: dict[str, Any] = {"kind": "agent_response", "text": cand.answer}
    if cand.final:
        answer["final"] = True
    return {"scenario": sid, "events": [{**call, "response": response}, answer]}


def artifact(sid: str, cand: Candidate, seen: tuple[str, str]) -> dict:
    resource, response = seen
    action = {"id": "call_1", "tool": "inspect", "arguments": {"resource": resource}}
    return {
        "scenario_id": sid,
        "final_answer": cand.answer if cand.final else "",
        "reasoning_trace": "" if cand.final else cand.answer,
        "actions": [{**action, "result": response}],
    }


def draft_fixtures(data: Any, scoring: Mapping[str, Any], template: Any, profile: Any, form: str):
    """(file name, text) of one fixture per row of the template's table, in row order."""
    table = lookup(template, "table", list, [])
    sid = lookup(data, "id", str, "")
    scenario = {
        **data,
        "scoring": {TEMPLATE_KEY: scoring[TEMPLATE_KEY], **evaluable(scoring, template)},
    }
    seen = _tool_call(data)
    build = artifact if form == "artifact" else transcript
    fired: dict[int, tuple[Candidate, float]] = {}
    for cand in candidates(data, scoring, template, profile):
        verdict = evaluate(build(sid, cand, seen), scenario, profile)
        row = verdict.get("row")
        if isinstance(row, int) and row not in fired:
            fired[row] = (cand, verdict["score"])
    out = []
    for row in range(1, len(table) + 1):
        todo = f"{PLACEHOLDER} an answer that fires row {row}"
        placeholder = Candidate("todo", "a placeholder", todo), _row_score(table[row - 1])
        cand, score = fired.get(row) or placeholder
        doc = build(sid, cand, seen)
        head = {
            "description": f"draft: {cand.what} (row {row})",
            "expect": {"score": score, "row": row},
        }
        if form == "artifact":  # `scenario_id` first
            text = json.dumps({"scenario_id": sid, **head, **doc}, indent=2, ensure_ascii=False)
            out.append((f"row-{row}-{cand.slug}.json", text + "\n"))
        else:
            out.append((f"row-{row}-{cand.slug}.yaml", _yaml(head, doc)))
    return out


def _row_score(row: Any) -> float:
    score = row.get("score") if isinstance(row, MAPPING) else None
    return float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 0.0


def _yaml(head: dict, doc: dict) -> str:
    """A transcript fixture written out key by key (a string plain when it reads back as
    itself, else a JSON string: a valid YAML double-quoted scalar)."""
    lines = [f"{k}: {scalar(v)}" for k, v in {"scenario": doc["scenario"], **head}.items()]
    lines.append("events:")
    for event in doc["events"]:
        for n, (key, value) in enumerate(event.items()):
            lines.append(("  - " if n == 0 else "    ") + f"{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def scalar(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {scalar(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value.lower() not in _WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)
