"""What ``si-lint eval`` reads: the scenario (SCENARIO [--scenario ID]) and the evidence
artifacts of every EVIDENCE argument (files, directories, ``.jsonl`` line by line), each
with the label it is reported under and the reason it could not be read (SPEC §4, §7).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from ..limits import MAX_BYTES as MAX_LINE_BYTES  # a `.jsonl` line over it: not parsed
from ..limits import MAX_DEPTH as MAX_LINE_DEPTH  # nesting deeper (outside strings): not parsed
from ..limits import MAX_INT_DIGITS  # a longer integer is read as a float (a value)

EVIDENCE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")

#: (evidence label, artifact, why it could not be read)
Artifact = tuple[str, Any, str | None]


class ScenarioError(Exception):
    """The scenario cannot be used (exit status 2)."""


# --------------------------------------------------------------------------------------
# the scenario


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
        line, col = loaded.pos.key(d.path)
    where = f" (line {line}, column {col})" if line is not None else ""
    return f"{d.code} {d.message}{where}"


def _documents(loaded) -> list[tuple[int, Any]]:
    """(index, data) of every non-empty document of a loaded file."""
    return [(d.index, d.data) for d in loaded.documents]


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


def load_scenario(given: str, wanted: str | None) -> tuple[Path, int, Any]:
    """(file, document index, scenario data) named by SCENARIO [--scenario ID]."""
    path = Path(given)
    if path.is_dir():
        if wanted is None:
            raise ScenarioError(f"{given}: a directory: pass --scenario ID to pick a scenario")
        for f in _scenario_files(path):
            docs, problem = _read_stream(f)
            if problem is not None:
                continue
            for index, data in docs:
                if _is_scenario(data) and data.get("id") == wanted:
                    return f, index, data
        raise ScenarioError(f"{given}: no scenario with id `{wanted}`")
    docs, problem = _read_stream(path)
    if problem is not None:
        raise ScenarioError(f"{given}: {problem}")
    scenarios = [(i, d) for i, d in docs if _is_scenario(d)]
    if wanted is not None:
        for i, d in scenarios:
            if d.get("id") == wanted:
                return path, i, d
        raise ScenarioError(f"{given}: no scenario with id `{wanted}`")
    if not scenarios:
        raise ScenarioError(f"{given}: holds no scenario (a mapping with `id` and `scoring`)")
    if len(scenarios) > 1:
        ids = ", ".join(str(d.get("id")) for _, d in scenarios[:10])
        raise ScenarioError(
            f"{given}: holds {len(scenarios)} scenarios ({ids}): pass --scenario ID to pick one"
        )
    return path, scenarios[0][0], scenarios[0][1]


# --------------------------------------------------------------------------------------
# the evidence


def expand(given: str) -> Iterator[tuple[str, Path, bool]]:
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


#: one decoder for every line, with the integer bound (no decoder built per line)
_BOUNDED = json.JSONDecoder(parse_int=_parse_int).decode
#: json's own decoder, when it reads exactly what the bound would (it rejects an integer
#: longer than MAX_INT_DIGITS, which the bound reads as a float); otherwise the bound
_PLAIN = json.JSONDecoder().decode if sys.get_int_max_str_digits() == MAX_INT_DIGITS else _BOUNDED

#: msgspec's decoder, where it reads what json does: every value it accepts is json's
#: (integers of up to MAX_INT_DIGITS digits, like json under Python's default digit
#: limit; it refuses longer ones); what it refuses goes to json (twice as fast on
#: artifacts: most of a line is tool output). Imported on the first line read (20 ms):
#: empty until then, then [decode] or [None]
_FAST: list = []


_REFUSED = object()


def _fast():
    if not _FAST:
        found = None
        if _PLAIN is not _BOUNDED:
            try:
                from msgspec.json import decode

                found = decode
            except ImportError:  # pragma: no cover - msgspec is a dependency
                found = None
        _FAST.append(found)
    return _FAST[0]


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _too_deep(raw: bytes) -> bool:
    """Whether brackets outside JSON strings nest deeper than MAX_LINE_DEPTH (asked of a
    line json could not read: its RecursionError, or another error, may be the nesting)."""
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


def _deeper(value: Any) -> bool:
    """Whether parsed JSON nests containers deeper than MAX_LINE_DEPTH: what
    :func:`_too_deep` tells of the text of valid JSON (a walk of the containers costs less
    than counting the brackets of a long line)."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 1
    while level:
        if depth > MAX_LINE_DEPTH:
            return True
        deeper: list = []
        for v in level:
            deeper.extend(
                x for x in (v.values() if type(v) is dict else v) if type(x) in _CONTAINERS
            )
        level = deeper
        depth += 1
    return False


_CONTAINERS = (dict, list)
_TOO_DEEP = f"nesting deeper than {MAX_LINE_DEPTH} levels; not read"


def _decoded(text: str) -> Any:
    """What ``json.loads(text, parse_int=_parse_int)`` returns (or raises)."""
    if text.startswith("\ufeff"):  # json.loads's own error for a BOM
        return json.loads(text, parse_int=_parse_int)
    try:
        return _PLAIN(text)  # C-speed integers; a too-long one raises ValueError
    except ValueError:
        return _BOUNDED(text)  # the same text, read with the integer bound


def _failed(raw: bytes, problem: str) -> tuple[None, str]:
    """A line that cannot be read: too deep (checked first), else ``problem``."""
    return None, _TOO_DEEP if _too_deep(raw) else problem


def _json_value(raw: bytes) -> tuple[Any, str | None]:
    """The value of one line, or why it is not read: nested too deeply (whatever else is
    wrong with it), not UTF-8, not JSON."""
    fast = _FAST[0] if _FAST else _fast()
    if fast is not None:
        try:  # msgspec checks the UTF-8 (as strictly as Python) and the JSON of the bytes
            data = fast(raw)
        except Exception:  # what it refuses (invalid UTF-8 or JSON, NaN, a lone surrogate,
            data = _REFUSED  # a long integer, a BOM, any error): json decides, says why
        if data is not _REFUSED:
            return (None, _TOO_DEEP) if _deeper(data) else (data, None)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _failed(raw, f"not UTF-8 (byte {exc.start})")
    try:
        data = _decoded(text)
    except RecursionError:
        return _failed(raw, "nesting too deep; not read")
    except ValueError as exc:
        return _failed(raw, f"not valid JSON: {exc}")
    if _deeper(data):
        return None, _TOO_DEEP
    return data, None


#: (evidence label, line number, the line's bytes, why it is not read, the bytes' offset
#: in the file)
Line = tuple[str, int, bytes | None, str | None, int]


def jsonl_lines(label: str, path: Path) -> Iterator[Line]:
    """Every non-blank line of a ``.jsonl`` file, read line by line with a size limit per
    line (the file itself may be of any size: it is never held in memory), unparsed: a
    line over the limit, or a file that cannot be read (line number 0), carries why
    instead. Regular files only."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            yield label, 0, None, "cannot read file: not a regular file", 0
            return
        fh = open(path, "rb", buffering=1 << 20)
    except OSError as exc:
        yield label, 0, None, f"cannot read file: {exc.strerror or exc}", 0
        return
    with fh:
        n = 0
        offset = 0  # of the next line
        while True:
            chunk = fh.readline(MAX_LINE_BYTES + 1)
            if not chunk:
                return
            n += 1
            start = offset
            offset += len(chunk)
            if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
                while chunk and not chunk.endswith(b"\n"):  # skip the rest of the line
                    chunk = fh.readline(1 << 20)
                    offset += len(chunk)
                yield (
                    f"{label}:{n}",
                    n,
                    None,
                    f"line {n} is longer than the {MAX_LINE_BYTES:,}-byte limit; not read",
                    start,
                )
                continue
            if n == 1 and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
                start += 3
            if not chunk.strip():
                continue
            yield f"{label}:{n}", n, chunk, None, start


def line_artifact(n: int, raw: bytes) -> tuple[Any, str | None]:
    """(artifact, None) of line ``n`` of a ``.jsonl`` file, or (None, why it is not read)."""
    data, problem = _json_value(raw)
    if problem is None:
        return data, None
    return None, f"line {n} is {problem}" if problem.startswith("not") else f"line {n}: {problem}"


def _jsonl(label: str, path: Path) -> Iterator[Artifact]:
    """One artifact per line (:func:`jsonl_lines`, each parsed)."""
    for name, n, raw, problem, _offset in jsonl_lines(label, path):
        if raw is None:
            yield name, None, problem
        else:
            data, problem = line_artifact(n, raw)
            yield name, data, problem


def artifacts(label: str, path: Path, from_dir: bool) -> Iterator[Artifact]:
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
