"""What ``si-lint eval`` reads: the scenario and the evidence artifacts, each with the label
it is reported under and the reason it could not be read (SPEC §4, §7)."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from ..corpus import classify
from ..errors import UsageError
from ..evaluator.evidence import form_of
from ..fsutil import read_regular
from ..limits import MAX_BYTES as MAX_LINE_BYTES  # a `.jsonl` line over it: not parsed
from ..limits import MAX_DEPTH as MAX_LINE_DEPTH  # nesting deeper (outside strings): not parsed
from ..limits import MAX_INT_DIGITS
from ..loader import load_bytes

EVIDENCE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")

#: (evidence label, artifact, why it could not be read)
Artifact = tuple[str, Any, str | None]


def _loader_message(loaded) -> str | None:
    """The first loader finding that stops reading, as text (None: read cleanly)."""
    stops = ("SI001", "SI002", "SI005", "SI006", "SI007")
    d = next((d for d in loaded.findings if d.code in stops), None)
    if d is None:
        return "file cannot be read" if loaded.failed else None
    line, col = d.line, d.col
    if line is None and d.path is not None:
        line, col = loaded.pos.key(d.path)
    where = f" (line {line}, column {col})" if line is not None else ""
    return f"{d.code} {d.message}{where}"


def _read_stream(path: Path) -> tuple[list[tuple[int, Any]], str | None]:
    """(index, data) of every non-empty document of a file, or why it cannot be read."""
    raw, why = read_regular(path, MAX_LINE_BYTES)  # regular files only, within the limit
    if raw is None:
        return [], f"cannot read file: {why}"
    loaded = load_bytes(raw)
    problem = _loader_message(loaded)
    if problem is not None:
        return [], f"file is not valid YAML/JSON: {problem}"
    return [(d.index, d.data) for d in loaded.documents], None


def files_under(directory: Path, suffixes: tuple[str, ...], hidden_files: bool = False):
    """(relative path with ``/``, path) of its files with one of ``suffixes``, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if (hidden_files or not name.startswith(".")) and name.endswith(suffixes):
                full = Path(dirpath) / name
                found.append((full.relative_to(directory).as_posix(), full))
    return sorted(found, key=lambda item: item[0])


def load_scenario(given: str, wanted: str | None) -> tuple[Path, int, Any]:
    """(file, document index, scenario data) named by SCENARIO [--scenario ID]."""
    path = Path(given)
    if path.is_dir() and wanted is None:
        raise UsageError(f"{given}: a directory: pass --scenario ID to pick a scenario")
    files = [f for _rel, f in files_under(path, SCENARIO_SUFFIXES)] if path.is_dir() else [path]
    scenarios: list[tuple[Path, int, Any]] = []
    for f in files:
        docs, problem = _read_stream(f)
        if problem is not None and f is path:  # (a directory's unreadable file is skipped)
            raise UsageError(f"{given}: {problem}")
        for i, d in docs:
            if classify(d) != "scenario":
                continue
            if wanted is None:
                scenarios.append((f, i, d))
            elif d.get("id") == wanted:
                return f, i, d
    if wanted is not None:
        raise UsageError(f"{given}: no scenario with id `{wanted}`")
    if not scenarios:
        raise UsageError(f"{given}: holds no scenario (a mapping with `id` and `scoring`)")
    if len(scenarios) > 1:
        ids = ", ".join(str(d.get("id")) for _, _, d in scenarios[:10])
        raise UsageError(
            f"{given}: holds {len(scenarios)} scenarios ({ids}): pass --scenario ID to pick one"
        )
    return scenarios[0]


def evidence_artifacts(evidence: Iterable[str]) -> Iterator[Artifact]:
    for given in evidence:
        p = Path(given)
        if not p.is_dir():
            yield from artifacts(given, p, False)
            continue
        base = given.rstrip("/\\") or given
        for rel, full in files_under(p, EVIDENCE_SUFFIXES):
            yield from artifacts(f"{base}/{rel}", full, True)


def _parse_int(text: str) -> int | float:
    # a longer integer is read as a float (inf for a huge one): a value, never a crash
    return float(text) if len(text.lstrip("-")) > MAX_INT_DIGITS else int(text)


def _too_deep(raw: bytes) -> bool:
    """Whether brackets outside JSON strings nest deeper than MAX_LINE_DEPTH (checked
    before parsing: json's recursion would fail on it, or worse, succeed)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_LINE_DEPTH:
        return False
    depth = 0
    for b in re.sub(rb'"(?:[^"\\]|\\.)*"', b"", raw):
        if b in b"[{":
            depth += 1
            if depth > MAX_LINE_DEPTH:
                return True
        elif b in b"]}":
            depth -= 1
    return False


def line_artifact(n: int, raw: bytes) -> tuple[Any, str | None]:
    """(artifact, None) of line ``n`` of a ``.jsonl`` file, or (None, why it is not read)."""
    if _too_deep(raw):
        return None, f"line {n}: nesting deeper than {MAX_LINE_DEPTH} levels; not read"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"line {n} is not UTF-8 (byte {exc.start})"
    try:
        return json.loads(text, parse_int=_parse_int), None
    except RecursionError:
        return None, f"line {n}: nesting too deep; not read"
    except ValueError as exc:
        return None, f"line {n} is not valid JSON: {exc}"


def _jsonl(label: str, path: Path) -> Iterator[Artifact]:
    """One artifact per non-blank line, with a size limit per line: the file itself may be
    of any size (it is never held in memory)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            yield label, None, "cannot read file: not a regular file"
            return
        fh = open(path, "rb", buffering=1 << 20)
    except OSError as exc:
        yield label, None, f"cannot read file: {exc.strerror or exc}"
        return
    with fh:
        for n, chunk in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
            if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
                while chunk and not chunk.endswith(b"\n"):  # skip the rest of the line
                    chunk = fh.readline(1 << 20)
                limit = f"line {n} is longer than the {MAX_LINE_BYTES:,}-byte limit; not read"
                yield f"{label}:{n}", None, limit
                continue
            if n == 1 and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            if chunk.strip():
                yield f"{label}:{n}", *line_artifact(n, chunk)


def artifacts(label: str, path: Path, from_dir: bool) -> Iterator[Artifact]:
    if path.suffix == ".jsonl":
        yield from _jsonl(label, path)
        return
    docs, problem = _read_stream(path)
    if problem is not None:
        yield label, None, problem
        return
    kept = [(i, d) for i, d in docs if form_of(d) is not None] if from_dir else docs
    if from_dir and not kept:
        click.echo(f"si-lint: skipped {label}: holds no evidence", err=True)
        return
    if not kept:
        yield label, None, "file holds no document"
        return
    many = len(docs) > 1
    for index, data in kept:
        yield (f"{label}#{index}" if many else label), data, None
