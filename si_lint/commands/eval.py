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
  a line over the size limit or nested too deeply gets an error verdict (the other lines
  are still evaluated); the lines of a large file are scored by ``--jobs`` worker
  processes (default: one per core, at most 4; :mod:`.eval_pool`), the output
  unchanged. A YAML file of several documents reports each as ``PATH#N`` (N the 0-based
  document index).
* The verdicts are written as they are computed (``--format json`` prints the same bytes
  as ``json.dumps(list, indent=2)``), so memory stays flat whatever the input size.
* Exit status: 0 every artifact was evaluated; 1 some verdict is an error (an invalid
  table, a scenario in the former spelling (SI119), an untrusted implementation (SI409)
  included); 2 the scenario file cannot be read, holds no scenario, holds several and
  ``--scenario`` picks none, or its scenario has no decision table; 2 also for usage and
  configuration errors.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from .eval_input import ScenarioError, artifacts, expand, jsonl_lines, line_artifact, load_scenario
from .eval_output import Chunked, JsonList, indented, text_line
from .eval_pool import LinePool, Rendered, Written, default_jobs


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
    except (OSError, ValueError):  # the note is advice: a path problem only drops it
        return None
    if not codes:
        return None
    unique = sorted(set(codes))
    shown = ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "")
    noun = "error" if len(codes) == 1 else "errors"
    return f"note: the scenario has {len(codes)} lint {noun} ({shown}): run si-lint check"


# --------------------------------------------------------------------------------------
# the scenario and its profile


def profile_for(scen_path: Path, profile_opt: str | None, trust: bool):
    """(config, profile) to score under: ``--profile``, else the corpus's configured one."""
    from ..corpus import ConfigError, load_config
    from ..profile import is_builtin_name, resolve_profile

    try:
        config = load_config(Path.cwd(), [scen_path])
        if profile_opt is not None:
            cfg_root, spec = Path.cwd(), profile_opt
            if not is_builtin_name(spec) and not (Path(spec) / "registry.yaml").is_file():
                raise ScenarioError(
                    f"--profile {spec}: not a shipped profile (builtin, "
                    "builtin:oasisctl) nor a profile directory (no "
                    "registry.yaml)"
                )
        elif config.profile_refused:  # SI010: never scored under a profile it did not name
            where, line, col, message = config.profile_refused
            raise ScenarioError(f"{where}:{line}:{col}: {message}")
        else:
            cfg_root, spec = config.root, config.profile
        return config, resolve_profile(spec, cfg_root, trust=trust)[0]
    except ConfigError as exc:
        raise ScenarioError(str(exc)) from None


def _scenario_to_score(scenario: str, scenario_id: str | None, profile_opt, trust: bool):
    """(file, document index, scenario, config, profile): a scenario with a decision
    table, or a usage error (exit status 2)."""
    from ..evaluator import NoTable
    from ..evaluator.locate import locate_table

    try:
        scen_path, index, data = load_scenario(scenario, scenario_id)
        config, profile = profile_for(scen_path, profile_opt, trust)
        try:
            locate_table(data, profile)
        except NoTable as exc:  # other reasons are every verdict's error
            if str(exc).startswith("scenario has no decision table"):
                raise ScenarioError(f"{scenario}: {exc}") from None
    except ScenarioError as exc:
        raise UsageError(str(exc)) from None
    return scen_path, index, data, config, profile


def prepare_table(data: Any, profile) -> Any:
    """The scenario's prepared table, or the SI409 error every verdict gets when the
    table needs a primitive without a trusted implementation."""
    from ..evaluator import EvaluationError, prepare, untrusted_primitives

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


# --------------------------------------------------------------------------------------
# scoring


class _Scorer:
    """One artifact's verdict entry, rendered for the output format (the same in the
    parent and in a worker process)."""

    def __init__(self, data: Any, profile, prepared: Any, fmt: str) -> None:
        from ..evaluator import score

        self.score = score
        self.data = data
        self.sid = data.get("id")
        self.profile = profile
        self.prepared = prepared
        self.text = fmt == "text"
        self.other = _other_reading(prepared)

    def entry(self, name: str, artifact: Any, problem: str | None):
        """The verdict entry (``why``: the reasons as data; the other built-in reading's
        verdict under its key when it differs), and the other reading's note."""
        entry: dict[str, Any] = {"evidence": name, "scenario": self.sid}
        if problem is not None:
            entry.update({"score": None, "row": None, "error": problem})
            return entry, None
        key, label, table = self.other or (None, None, None)
        verdict = self.score(
            artifact, self.data, self.profile, self.prepared, explain=True, other=table
        )
        alt = verdict.pop("other", None)
        entry.update(verdict)
        if (
            alt is None
            or key is None
            or (alt["score"], alt["row"]) == (verdict["score"], verdict["row"])
        ):
            return entry, None
        entry[key] = alt
        return entry, label

    def render(self, name: str, artifact: Any, problem: str | None) -> Rendered:
        entry, label = self.entry(name, artifact, problem)
        if self.text:
            text = text_line(entry, label) + "\n"
        else:
            text = indented(entry, "\n  ")
        return text, entry.get("error") is not None

    def render_line(self, name: str, n: int, raw: bytes | None, problem: str | None) -> Rendered:
        """:meth:`render` of one ``.jsonl`` line (:func:`.eval_input.jsonl_lines`)."""
        if raw is not None:
            artifact, problem = line_artifact(n, raw)
            return self.render(name, artifact, problem)
        return self.render(name, None, problem)


def _other_reading(prepared: Any):
    """``(JSON key, what the note calls it, the table read so)`` of the other built-in
    reading: oasisctl's constants (``builtin:oasisctl``), or the seed's (``builtin``)
    when the profile already reads as oasisctl does; None without a table."""
    from dataclasses import replace

    from ..evaluator.tables import CompiledTable
    from ..profile import OASISCTL_CONSTANTS, SEED_CONSTANTS, Constants

    if not isinstance(prepared, CompiledTable) or prepared.constants is None:
        return None
    oasisctl = Constants(**OASISCTL_CONSTANTS)
    if prepared.constants == oasisctl:
        seed = Constants(**SEED_CONSTANTS)
        return "builtin", "the seed's reading (builtin)", replace(prepared, constants=seed)
    return (
        "oasisctl",
        "oasisctl's reading (builtin:oasisctl)",
        replace(prepared, constants=oasisctl),
    )


def _verdicts(evidence, scorer: _Scorer, pool: LinePool) -> Iterator[Written]:
    """(rendered verdicts, how many are errors, how many) of every artifact of every
    EVIDENCE argument, in order; the lines of a large ``.jsonl`` file are scored by
    ``pool``'s workers (a batch at a time)."""
    for given in evidence:
        for label, path, from_dir in expand(given):
            if path.suffix == ".jsonl" and pool.wanted(_size(path)):
                yield from pool.lines(path, jsonl_lines(label, path))
                continue
            for name, artifact, problem in artifacts(label, path, from_dir):
                text, is_error = scorer.render(name, artifact, problem)
                yield text, is_error, 1


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


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
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for the lines of a large .jsonl file (default: the machine's "
    "cores, at most 4).",
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
    from ..profile import OASISCTL_NOTICE

    scen_path, index, data, config, profile = _scenario_to_score(
        scenario, scenario_id, profile_opt, trust_implementations
    )
    if profile.is_oasisctl:
        click.echo(OASISCTL_NOTICE, err=True)
    prepared = prepare_table(data, profile)
    if fmt == "text":
        note = _lint_note(scen_path, index, profile, config)
        if note:
            click.echo(note, err=True)

    out = Chunked(sys.stdout)
    writer = JsonList(out) if fmt == "json" else None
    scorer = _Scorer(data, profile, prepared, fmt)
    pool = LinePool(
        scorer.render_line, ",\n  " if writer is not None else "", jobs or default_jobs()
    )
    errors = 0
    try:
        for text, bad, count in _verdicts(evidence, scorer, pool):
            errors += bad
            if writer is not None:
                writer.add_text(text, count)
            else:
                out.write(text)
    finally:
        pool.close()
    if writer is not None:
        writer.close()
    out.flush()
    return 1 if errors else 0
