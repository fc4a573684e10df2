"""`si-lint eval SCENARIO EVIDENCE...`: score recorded evidence against one scenario (SPEC §5,
§7).

* Results come in argument order; a directory expands to its ``.yaml``/``.yml``/``.json``/
  ``.jsonl`` files (recursively, hidden entries skipped) in sorted path order.
* A ``.jsonl`` file holds one artifact per line; each is reported as ``PATH:N`` (N the
  1-based line number; blank lines are skipped).
* ``evidence`` is the path as given (directory members: the directory as given joined with
  the member's relative path, ``/``-separated).
* Exit status: 0 every artifact was evaluated; 1 some verdict is an error (including evidence
  that cannot be read); 2 the scenario itself cannot be used (unreadable, not a scenario, its
  table does not validate or needs an implementation — ``eval`` never imports corpus code —
  or the configuration is unusable).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import click

from ..errors import UsageError

EVIDENCE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")


class _ScenarioError(Exception):
    pass


def _loader_message(loaded) -> str | None:
    """The first loader finding as text, or None when the document was read cleanly."""
    if loaded.failed and not loaded.findings:
        return "file cannot be read"
    if not loaded.findings:
        return None
    d = loaded.findings[0]
    line, col = d.line, d.col
    if line is None and d.path is not None:
        try:
            line, col = loaded.pos.key(d.path)
        except Exception:
            line, col = None, None
    where = f" (line {line}, column {col})" if line is not None else ""
    return f"{d.code} {d.message}{where}"


def _read_document(path: Path) -> tuple[Any, str | None]:
    from ..loader import load_bytes

    from ..limits import read_input

    raw, why = read_input(path)
    if raw is None:
        return None, f"cannot read file: {why}"
    loaded = load_bytes(raw)
    problem = _loader_message(loaded)
    if problem is not None:
        return None, f"file is not valid YAML/JSON: {problem}"
    return loaded.data, None


def _load_scenario(path: Path):
    data, problem = _read_document(path)
    if problem is not None:
        raise _ScenarioError(f"{path}: {problem}")
    if not (isinstance(data, dict) and "id" in data and "scoring" in data):
        raise _ScenarioError(f"{path}: not a scenario (a mapping with `id` and `scoring`)")
    return data


def _expand(given: str) -> list[tuple[str, Path]]:
    """(label, path) for an argument: a file as given, or a directory's evidence files."""
    p = Path(given)
    if not p.is_dir():
        return [(given, p)]
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(p):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.startswith(".") or not name.endswith(EVIDENCE_SUFFIXES):
                continue
            full = Path(dirpath) / name
            found.append((full.relative_to(p).as_posix(), full))
    found.sort(key=lambda item: item[0])
    base = given.rstrip("/\\") or given
    return [(f"{base}/{rel}", full) for rel, full in found]


def _artifacts(label: str, path: Path) -> Iterator[tuple[str, Any, str | None]]:
    """(evidence label, artifact, read error) for one evidence file."""
    if path.suffix != ".jsonl":
        data, problem = _read_document(path)
        yield label, data, problem
        return
    from ..limits import MAX_JSONL_BYTES, parse_json, read_input, too_big

    raw, why = read_input(path, MAX_JSONL_BYTES)
    if raw is None:
        yield label, None, f"cannot read file: {why}"
        return
    if too_big(len(raw), MAX_JSONL_BYTES):
        yield label, None, f"file is {too_big(len(raw), MAX_JSONL_BYTES)}"
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        yield label, None, f"file is not UTF-8 (byte {exc.start})"
        return
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        data, why = parse_json(line)  # the same size and depth limits as a file
        if why is not None:
            yield f"{label}:{n}", None, f"line {n} is {why}"
            continue
        yield f"{label}:{n}", data, None


def _text_line(entry: dict) -> str:
    head = f"{entry['evidence']}: "
    if entry.get("error") is not None:
        return head + f"error: {entry['error']}"
    out = head + f"{entry['score']!r} (row {entry['row']})"
    md = entry.get("metadata") or {}
    bits = [f"tool calls {md.get('tool_calls')}",
            "final answer" if md.get("final_answer") else "no final answer"]
    if "duration_s" in md:
        bits.append(f"{md['duration_s']} s")
    if "tokens" in md:
        bits.append(f"{md['tokens']} tokens")
    return out + "  [" + ", ".join(bits) + "]"


@click.command("eval")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.argument("evidence", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def command(scenario, evidence, fmt):
    """Score recorded EVIDENCE (yaml/json/jsonl files or directories) against SCENARIO.

    Exit status: 0 every artifact was evaluated, 1 some verdict is an error, 2 the scenario
    itself cannot be used."""
    from ..corpus import ConfigError
    from ..evaluator import evaluate, untrusted_primitives
    from ..evaluator.tables import compile_table, locate_table
    from ..profile import load_profile_for

    scen_path = Path(scenario)
    try:
        data = _load_scenario(scen_path)
        try:
            profile = load_profile_for(scen_path)
        except ConfigError as exc:
            raise _ScenarioError(str(exc)) from None
        sid = data.get("id")
        untrusted = untrusted_primitives(data, profile)
        if untrusted:
            raise _ScenarioError(
                f"{scenario}: its table needs {', '.join(f'`{n}`' for n in untrusted)}, "
                "which has no trusted implementation (`eval` never imports corpus code)")
        located = locate_table(data, profile)
        if isinstance(located, str):
            raise _ScenarioError(f"{scenario}: {located}")
        table, bindings, composite = located
        compiled = compile_table(table, bindings, composite=composite, profile=profile,
                                 scenario=data)
        if isinstance(compiled, str):
            raise _ScenarioError(f"{scenario}: invalid decision table: {compiled}")
    except _ScenarioError as exc:
        raise UsageError(str(exc)) from None

    results: list[dict] = []
    for given in evidence:
        for label, path in _expand(given):
            for name, artifact, problem in _artifacts(label, path):
                entry: dict[str, Any] = {"evidence": name, "scenario": sid}
                if problem is not None:
                    entry.update({"score": None, "row": None, "error": problem})
                else:
                    entry.update(evaluate(artifact, data, profile))
                results.append(entry)

    if fmt == "json":
        click.echo(json.dumps(results, indent=2))
    else:
        for entry in results:
            click.echo(_text_line(entry))
    return 1 if any(e.get("error") is not None for e in results) else 0
