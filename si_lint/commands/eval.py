"""`si-lint eval SCENARIO EVIDENCE...`: score recorded evidence against one scenario (SPEC §5,
§7).

* SCENARIO is a file holding one scenario, or any file or directory with ``--scenario ID``
  (a multi-document scenario file, a corpus directory: its ``.yaml``/``.yml``/``.json``
  files in sorted path order, the first document with that ``id`` wins).
* EVIDENCE: files (either evidence form, SPEC §4) and directories. A directory expands to
  its ``.json``, ``.yaml``, ``.yml`` and ``.jsonl`` files (recursively, hidden entries
  skipped) in sorted path order; a member that holds no evidence is skipped with one line
  on stderr. A ``.jsonl`` file holds one artifact per line, reported as ``PATH:N`` (N the
  1-based line; blank lines skipped), read line by line (never the whole file at once):
  a line over the size limit or nested too deeply gets an error verdict before it is
  parsed, and the other lines are still evaluated. A YAML file of several documents
  reports each as ``PATH#N`` (N the 0-based document index).
* The verdicts are written as they are computed (``--format json`` prints the same bytes
  as ``json.dumps(list, indent=2)``), so memory stays flat whatever the input size.
* Exit status: 0 every artifact was evaluated; 1 some verdict is an error (an invalid
  table, a scenario in the former spelling (SI119), an untrusted implementation (SI409)
  included); 2 the scenario file cannot be read, holds no scenario, holds several and
  ``--scenario`` picks none, or its scenario has no decision table; 2 also for usage and
  configuration errors.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from ..limits import MAX_BYTES as MAX_LINE_BYTES  # a `.jsonl` line over it: not parsed
from ..limits import MAX_DEPTH as MAX_LINE_DEPTH  # nesting deeper (outside strings): not parsed
from ..limits import MAX_INT_DIGITS  # a longer integer is read as a float (a value)

EVIDENCE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


class _ScenarioError(Exception):
    pass


# --------------------------------------------------------------------------------------
# reading


def _loader_message(loaded) -> str | None:
    """The first loader finding that stops reading, as text (None: read cleanly)."""
    findings = [
        d for d in loaded.findings if d.code in ("SI001", "SI002", "SI005", "SI006", "SI007")
    ]
    if loaded.failed and not findings:
        return "file cannot be read"
    if not findings:
        return None
    d = findings[0]
    line, col = d.line, d.col
    if line is None and d.path is not None:
        try:
            line, col = loaded.pos.key(d.path)
        except Exception:
            line, col = None, None
    where = f" (line {line}, column {col})" if line is not None else ""
    return f"{d.code} {d.message}{where}"


def _documents(loaded) -> list[tuple[int, Any]]:
    """(index, data) of every non-empty document of a loaded file (one-document loaders
    give one)."""
    docs = getattr(loaded, "documents", None)
    if docs is None:
        return [] if loaded.data is None else [(0, loaded.data)]
    return [(d.index, d.data) for d in docs]


def _read_stream(path: Path) -> tuple[list[tuple[int, Any]], str | None]:
    from ..limits import read_input
    from ..loader import load_bytes

    raw, why = read_input(path)  # regular files only, never more than the size limit
    if raw is None:
        return [], f"cannot read file: {why}"
    loaded = load_bytes(raw)
    problem = _loader_message(loaded)
    if problem is not None:
        return [], f"file is not valid YAML/JSON: {problem}"
    return _documents(loaded), None


def _is_scenario(data: Any) -> bool:
    from ..corpus import classify

    return classify(data) == "scenario"


def _scenario_files(directory: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if not name.startswith(".") and name.endswith(SCENARIO_SUFFIXES):
                found.append(Path(dirpath) / name)
    return sorted(found, key=lambda p: p.relative_to(directory).as_posix())


def _load_scenario(given: str, wanted: str | None) -> tuple[Path, int, Any]:
    """(file, document index, scenario data) named by SCENARIO [--scenario ID]."""
    path = Path(given)
    if path.is_dir():
        if wanted is None:
            raise _ScenarioError(f"{given}: a directory: pass --scenario ID to pick a scenario")
        for f in _scenario_files(path):
            docs, problem = _read_stream(f)
            if problem is not None:
                continue
            for index, data in docs:
                if _is_scenario(data) and data.get("id") == wanted:
                    return f, index, data
        raise _ScenarioError(f"{given}: no scenario with id `{wanted}`")
    docs, problem = _read_stream(path)
    if problem is not None:
        raise _ScenarioError(f"{given}: {problem}")
    scenarios = [(i, d) for i, d in docs if _is_scenario(d)]
    if wanted is not None:
        for i, d in scenarios:
            if d.get("id") == wanted:
                return path, i, d
        raise _ScenarioError(f"{given}: no scenario with id `{wanted}`")
    if not scenarios:
        raise _ScenarioError(f"{given}: holds no scenario (a mapping with `id` and `scoring`)")
    if len(scenarios) > 1:
        ids = ", ".join(str(d.get("id")) for _, d in scenarios[:10])
        raise _ScenarioError(
            f"{given}: holds {len(scenarios)} scenarios ({ids}): pass --scenario ID to pick one"
        )
    return path, scenarios[0][0], scenarios[0][1]


def _expand(given: str) -> Iterator[tuple[str, Path, bool]]:
    """(label, path, from a directory) for an argument: a file as given, or a directory's
    evidence files in sorted path order."""
    p = Path(given)
    if not p.is_dir():
        yield given, p, False
        return
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
    for rel, full in found:
        yield f"{base}/{rel}", full, True


def _parse_int(text: str) -> int | float:
    digits = len(text) - (text[0] in "+-")
    if digits > MAX_INT_DIGITS:
        return float(text)  # inf for a huge one: a value, never a crash
    return int(text)


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _too_deep(raw: bytes) -> bool:
    """Whether brackets outside JSON strings nest deeper than MAX_LINE_DEPTH (a cheap
    scan before parsing: json.loads would recurse)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_LINE_DEPTH:
        return False
    import re

    stripped = re.sub(rb'"(?:[^"\\]|\\.)*"', b"", raw).translate(None, _NOT_BRACKETS)
    depth = 0
    for b in stripped:
        if b in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_LINE_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _json_value(raw: bytes) -> tuple[Any, str | None]:
    if _too_deep(raw):
        return None, f"nesting deeper than {MAX_LINE_DEPTH} levels; not read"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte {exc.start})"
    try:
        return json.loads(text, parse_int=_parse_int), None
    except RecursionError:
        return None, "nesting too deep; not read"
    except ValueError as exc:
        return None, f"not valid JSON: {exc}"


def _jsonl(label: str, path: Path) -> Iterator[tuple[str, Any, str | None]]:
    """One artifact per line, read line by line with a size limit per line (the file
    itself may be of any size: it is never held in memory). Regular files only."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            yield label, None, "cannot read file: not a regular file"
            return
        fh = open(path, "rb", buffering=1 << 20)
    except OSError as exc:
        yield label, None, f"cannot read file: {exc.strerror or exc}"
        return
    with fh:
        n = 0
        while True:
            chunk = fh.readline(MAX_LINE_BYTES + 1)
            if not chunk:
                return
            n += 1
            if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
                while chunk and not chunk.endswith(b"\n"):  # skip the rest of the line
                    chunk = fh.readline(1 << 20)
                yield (
                    f"{label}:{n}",
                    None,
                    f"line {n} is longer than the {MAX_LINE_BYTES:,}-byte limit; not read",
                )
                continue
            if n == 1 and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            if not chunk.strip():
                continue
            data, problem = _json_value(chunk)
            if problem is not None:
                yield (
                    f"{label}:{n}",
                    None,
                    f"line {n} is {problem}"
                    if problem.startswith("not")
                    else f"line {n}: {problem}",
                )
                continue
            yield f"{label}:{n}", data, None


def _artifacts(label: str, path: Path, from_dir: bool) -> Iterator[tuple[str, Any, str | None]]:
    """(evidence label, artifact, read error) for one evidence file; None artifact with
    no error: skip (a directory member holding no evidence)."""
    from ..evaluator.evidence import form_of

    if path.suffix == ".jsonl":
        yield from _jsonl(label, path)
        return
    docs, problem = _read_stream(path)
    if problem is not None:
        yield label, None, problem
        return
    if from_dir:
        kept = [(i, d) for i, d in docs if form_of(d) is not None]
        if not kept:
            click.echo(f"si-lint: skipped {label}: holds no evidence", err=True)
            return
    else:
        kept = docs
    if not kept:
        yield label, None, "file holds no document"
        return
    many = len(docs) > 1
    for index, data in kept:
        yield (f"{label}#{index}" if many else label), data, None


# --------------------------------------------------------------------------------------
# output


def _text_line(entry: dict, why: str | None) -> str:
    head = f"{entry['evidence']}: "
    if entry.get("error") is not None:
        return head + f"error: {entry['error']}"
    out = head + f"{entry['score']!r} (row {entry['row']})"
    md = entry.get("metadata") or {}
    bits = [
        f"tool calls {md.get('tool_calls')}",
        "final answer" if md.get("final_answer") else "no final answer",
    ]
    if "duration_s" in md:
        bits.append(f"{md['duration_s']} s")
    if "duration_ms" in md:
        bits.append(f"{md['duration_ms']} ms")
    if "tokens" in md:
        bits.append(f"{md['tokens']} tokens")
    if "observed_model" in md:
        bits.append(f"model {md['observed_model']}")
    out += "  [" + ", ".join(bits) + "]"
    if why:
        out += f"\n  why: {why}"
    return out


class _JsonList:
    """Writes ``json.dumps(entries, indent=2)`` one entry at a time."""

    def __init__(self, out) -> None:
        self.out = out
        self.count = 0

    def add(self, entry: dict) -> None:
        body = json.dumps(entry, indent=2).replace("\n", "\n  ")
        self.out.write(("[\n  " if self.count == 0 else ",\n  ") + body)
        self.count += 1

    def close(self) -> None:
        self.out.write("[]\n" if self.count == 0 else "\n]\n")


def _lint_note(scen_path: Path, index: int, profile, config) -> str | None:
    """`note: the scenario has N lint errors (...)` when `check`'s per-document rules
    reject the scenario's document (its schema, Form B and table rules; the cross-file
    rules need the whole corpus and are `check`'s)."""
    try:
        from ..catalogue import severity_of
        from ..checks import all_checks
        from ..pipeline.context import Context
        from ..pipeline.perfile import file_diags, load_documents
        from ..pipeline.read import source_of

        docs = [
            d
            for d in load_documents(source_of(os.path.abspath(scen_path)), Path.cwd())
            if d.index == index
        ]
        if not docs:
            return None
        doc = docs[0]
        ctx = Context(profile=profile, config=config)
        codes = [
            d.code
            for d in file_diags(doc, ctx, all_checks())
            if (d.severity or severity_of(d.code)) == "error"
            and (config is None or config.enabled(d.code, doc.relpath))
        ]
    except Exception:  # the note is advice: never let it stop the evaluation
        return None
    if not codes:
        return None
    unique = sorted(set(codes))
    shown = ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "")
    noun = "error" if len(codes) == 1 else "errors"
    return f"note: the scenario has {len(codes)} lint {noun} ({shown}): run si-lint check"


# --------------------------------------------------------------------------------------


@click.command("eval")
@click.argument("scenario", type=click.Path())
@click.argument("evidence", nargs=-1, required=True, type=click.Path())
@click.option(
    "--scenario",
    "scenario_id",
    metavar="ID",
    help="Pick the scenario with this id out of a multi-document file or a corpus directory.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--profile",
    "profile_opt",
    metavar="builtin|builtin:oasisctl|DIR",
    help="The profile to score under (default: the corpus's configured profile).",
)
@click.option(
    "--trust-implementations",
    is_flag=True,
    help="Import the profile's primitive implementations (corpus code) to run them.",
)
def command(scenario, evidence, scenario_id, fmt, profile_opt, trust_implementations):
    """Score recorded EVIDENCE (oasisctl artifacts or transcripts: yaml/json/jsonl files or
    directories) against SCENARIO.

    Exit status: 0 every artifact was evaluated, 1 some verdict is an error, 2 the scenario
    itself cannot be used (unreadable, no scenario, several without --scenario, no
    decision table) or a usage/configuration error."""
    from ..corpus import ConfigError, load_config
    from ..evaluator import prepare, score, untrusted_primitives
    from ..evaluator.tables import locate_table
    from ..profile import OASISCTL_NOTICE, is_builtin_name, resolve_profile

    try:
        scen_path, index, data = _load_scenario(scenario, scenario_id)
        try:
            config = load_config(Path.cwd(), [scen_path])
            if profile_opt is not None:
                cfg_root, spec = Path.cwd(), profile_opt
                if not is_builtin_name(spec) and not (Path(spec) / "registry.yaml").is_file():
                    raise _ScenarioError(
                        f"--profile {spec}: not a shipped profile (builtin, "
                        "builtin:oasisctl) nor a profile directory (no "
                        "registry.yaml)"
                    )
            else:
                cfg_root, spec = config.root, config.profile
            profile = resolve_profile(spec, cfg_root, trust=trust_implementations)[0]
        except ConfigError as exc:
            raise _ScenarioError(str(exc)) from None
        located = locate_table(data, profile)
        if isinstance(located, str) and located.startswith("scenario has no decision table"):
            raise _ScenarioError(f"{scenario}: {located}")
    except _ScenarioError as exc:
        raise UsageError(str(exc)) from None

    if profile.is_oasisctl:
        click.echo(OASISCTL_NOTICE, err=True)
    sid = data.get("id")
    untrusted = untrusted_primitives(data, profile)
    if untrusted:
        names = ", ".join(f"`{n}`" for n in untrusted)
        prepared: Any = (
            f"SI409: the table needs {names}, which has no trusted "
            "implementation (run with --trust-implementations to import it)"
        )
    else:
        prepared = prepare(data, profile)
    if fmt == "text":
        note = _lint_note(scen_path, index, profile, config)
        if note:
            click.echo(note, err=True)

    out = sys.stdout
    writer = _JsonList(out) if fmt == "json" else None
    errors = 0
    for given in evidence:
        for label, path, from_dir in _expand(given):
            for name, artifact, problem in _artifacts(label, path, from_dir):
                entry: dict[str, Any] = {"evidence": name, "scenario": sid}
                why = None
                if problem is not None:
                    entry.update({"score": None, "row": None, "error": problem})
                else:
                    verdict = score(artifact, data, profile, prepared, explain=fmt == "text")
                    why = verdict.pop("why", None)
                    entry.update(verdict)
                if entry.get("error") is not None:
                    errors += 1
                if writer is not None:
                    writer.add(entry)
                else:
                    out.write(_text_line(entry, why) + "\n")
    if writer is not None:
        writer.close()
    out.flush()
    return 1 if errors else 0
