"""si-lint as a library: :func:`check`, :func:`evaluate` and :func:`explain`.

The three functions run the code the commands run (``si-lint check``, ``si-lint eval``,
``si-lint rule``) and return typed, frozen values instead of printing::

    from si_lint.api import check, evaluate, explain

    report = check(["scenarios"], select=["SI1"])
    for f in report.findings:
        print(f.path, f.line, f.column, f.code, f.message)
    verdicts = evaluate("scenarios/mail-relay.yaml", ["runs/"])
    print(explain("SI115").summary)

Nothing here prints (but for a line on stderr when an evidence directory holds a file that
is no evidence, as the command says it) or exits. What the command would refuse with exit
status 2 (a path that does not exist, a code that matches no rule, an unreadable
configuration, a scenario without a decision table) raises :class:`SiLintError` (its
``exit_code`` is 2); a problem in the corpus is a finding, and a problem in one piece of
evidence is that verdict's ``error``, as on the command line. See ``docs/api.md``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .errors import SiLintError, UsageError
from .findings import SEVERITY_RANK, Finding, Location

__all__ = [
    "Finding",
    "Location",
    "Report",
    "RuleDoc",
    "SiLintError",
    "UnknownRuleError",
    "Verdict",
    "Why",
    "check",
    "evaluate",
    "explain",
]

#: a path as the functions take it
PathLike = str | os.PathLike

FailOn = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Report:
    """What :func:`check` found.

    ``findings``: every finding, in report order (path, line, column, code), each a
    :class:`~si_lint.findings.Finding` (a named tuple: ``path``, ``line``, ``column``,
    ``code``, ``severity``, ``message``, ``help``, ``related``, ``end_line``,
    ``end_column``, ``document``, ...; ``path`` relative to ``cwd``, ``/``-separated).
    ``files``: how many files were checked. ``errors``, ``warnings``, ``infos``: the
    findings of each severity. ``exit_status``: what ``si-lint check --fail-on FAIL_ON``
    would exit with (0, or 1 when a finding is at or above ``fail_on``)."""

    findings: tuple[Finding, ...]
    files: int
    errors: int
    warnings: int
    infos: int
    exit_status: int
    fail_on: FailOn = "error"

    @property
    def ok(self) -> bool:
        """No finding at or above ``fail_on`` (``exit_status == 0``)."""
        return self.exit_status == 0


@dataclass(frozen=True)
class Why:
    """Why a verdict: the decision table's ``row`` that fired (1-based), what ``fired`` it
    (the sentence and identifier, or the gate), each earlier row's ``failed`` clause as
    ``(row, reason)``, and the whole reason as one line of ``text`` (what ``si-lint eval``
    prints after ``why:``; also ``str(why)``)."""

    row: int
    fired: str
    failed: tuple[tuple[int, str], ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Verdict:
    """One piece of evidence scored against a scenario, as ``si-lint eval`` reports it.

    ``evidence``: its label (the path as given, ``PATH#N`` for the N-th document of a YAML
    stream, ``PATH:N`` for the N-th line of a ``.jsonl`` file, ``<evidence N>`` for the
    N-th mapping passed in). ``score`` and ``row``: the value and the 1-based row of the
    decision table that fired (None when ``error``). ``error``: why there is no score.
    ``why``: the row that fired and, for a lower band, the clause that failed (:class:`Why`).
    ``metadata``: what the artifact says of the run (tool calls, tokens, ...), if
    anything."""

    evidence: str
    scenario: str | None
    score: float | None
    row: int | None
    error: str | None = None
    why: Why | None = None
    metadata: Mapping[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class RuleDoc:
    """One rule of the catalogue (``rules/CODE.yaml``), as ``si-lint rule CODE`` shows it.

    ``examples``: ``{"bad": {"files": {path: text}, "expect": [finding, ...]}, "good":
    ...}``. ``check``: the function that emits the code (``module:function``). ``url``:
    the rule's generated page. ``text``: the page ``si-lint rule CODE`` prints (trimmed
    examples); ``full_text``: the page of ``--full``."""

    code: str
    name: str
    severity: str
    summary: str
    rationale: str
    seed: str
    fix: str
    check: str
    url: str
    examples: Mapping[str, Any] = field(hash=False, repr=False)
    text: str = field(repr=False)
    full_text: str = field(repr=False)


class UnknownRuleError(UsageError, LookupError):
    """:func:`explain` of a code the catalogue does not have."""


def _paths(paths: PathLike | Iterable[PathLike]) -> list[str]:
    if isinstance(paths, str | os.PathLike):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _codes(codes: str | Iterable[str] | None) -> tuple[str, ...]:
    """``--select``/``--ignore`` values: a comma-separated string or an iterable of codes
    and prefixes, in any case."""
    from .commands.check_run import split_codes

    if codes is None:
        return ()
    return split_codes((codes,) if isinstance(codes, str) else tuple(codes))


def check(
    paths: PathLike | Iterable[PathLike] = ".",
    *,
    config: PathLike | None = None,
    cwd: PathLike | None = None,
    select: str | Iterable[str] | None = None,
    ignore: str | Iterable[str] | None = None,
    profile: str | None = None,
    fail_on: FailOn = "error",
    no_cache: bool = True,
    cache_dir: PathLike | None = None,
    jobs: int = 1,
    trust_implementations: bool = False,
) -> Report:
    """Lint ``paths`` (files or directories, relative to ``cwd``, default the current
    directory) as ``si-lint check`` does: the corpus root and its configuration are found
    from ``cwd`` (or ``config``, a ``si-lint.toml``/``pyproject.toml`` whose directory is
    the root), cross-file checks see the whole corpus under the root, findings are
    reported for ``paths`` only.

    ``select``/``ignore``: codes or prefixes (``"SI1"``, ``["si113", "EIO"]``), as
    ``--select``/``--ignore``. ``profile``: ``"builtin"``, ``"builtin:oasisctl"`` or a
    profile directory, replacing the configured one. ``no_cache`` (default True): neither
    read nor write ``.si-lint-cache/``. ``jobs``: worker processes (default 1: no fork).

    Raises :class:`SiLintError` where the command exits 2 (a missing path, a code that
    matches no rule, a configuration that cannot be used)."""
    from .commands.check_run import FAIL_ON, failing
    from .pipeline import Options, run

    if fail_on not in FAIL_ON:
        raise UsageError(f"fail_on={fail_on!r}: one of {', '.join(FAIL_ON)}")
    base = Path(os.fspath(cwd) if cwd is not None else os.getcwd()).resolve()
    profile = _check_profile(profile, base)
    options = Options(
        select=_codes(select),
        ignore=_codes(ignore),
        trust_implementations=trust_implementations,
        use_cache=not no_cache,
        cache_dir=None if cache_dir is None else str(base / os.fspath(cache_dir)),
        jobs=jobs,
        config_file=None if config is None else str(base / os.fspath(config)),
        profile=profile,
    )
    result = run(_paths(paths), options, cwd=base)
    findings = tuple(sorted(result.findings, key=Finding.sort_key))
    counts = {s: 0 for s in SEVERITY_RANK}
    for f in findings:
        counts[f.severity if f.severity in counts else "info"] += 1
    return Report(
        findings=findings,
        files=result.files,
        errors=counts["error"],
        warnings=counts["warning"],
        infos=counts["info"],
        exit_status=1 if failing(findings, fail_on) else 0,
        fail_on=fail_on,
    )


def _check_profile(profile: str | None, base: Path) -> str | None:
    """``profile`` as the check command takes it: a shipped name, or a profile directory
    (made absolute); else a usage error."""
    from .profile import is_builtin_name

    if profile is None or is_builtin_name(profile):
        return profile
    directory = base / profile
    if not (directory / "registry.yaml").is_file():
        raise UsageError(
            f"profile={profile!r}: not a shipped profile (builtin, builtin:oasisctl) nor a "
            "profile directory (no registry.yaml)"
        )
    return str(directory)


def evaluate(
    scenario: PathLike | Mapping[str, Any],
    evidence: PathLike | Mapping[str, Any] | Iterable[PathLike | Mapping[str, Any]],
    *,
    profile: str | None = "builtin",
    scenario_id: str | None = None,
    trust_implementations: bool = False,
) -> list[Verdict]:
    """Score ``evidence`` against ``scenario`` with the evaluator ``si-lint eval`` runs.

    ``scenario``: a file holding one scenario (``scenario_id`` picks one out of a
    multi-document file or a directory), or the scenario already loaded (a mapping).
    ``evidence``: a path (a file of either evidence form, a ``.jsonl`` file, a directory
    of them), an artifact or transcript already loaded (a mapping), or a list of those.
    ``profile``: ``"builtin"`` (the default), ``"builtin:oasisctl"``, a profile
    directory, or None for the profile the corpus's configuration names.

    Returns one :class:`Verdict` per artifact, in order. Raises :class:`SiLintError` when
    the scenario cannot be used (unreadable, none or several without ``scenario_id``, no
    decision table) or ``profile`` is no profile."""
    from .commands.eval import prepare_table, profile_for
    from .commands.eval_input import ScenarioError, load_scenario
    from .evaluator import NoTable
    from .evaluator.locate import locate_table

    try:
        if isinstance(scenario, Mapping):
            where, data = Path("."), dict(scenario)
        else:
            where, _index, data = load_scenario(os.fspath(scenario), scenario_id)
        profile_obj = profile_for(where, profile, trust_implementations)[1]
    except ScenarioError as exc:
        raise UsageError(str(exc)) from None
    try:
        locate_table(data, profile_obj)
    except NoTable as exc:  # other reasons are every verdict's error, as in the command
        if str(exc).startswith("scenario has no decision table"):
            raise UsageError(f"scenario {data.get('id')}: {exc}") from None
    prepared = prepare_table(data, profile_obj)
    return [
        _verdict(label, artifact, problem, data, profile_obj, prepared)
        for label, artifact, problem in _artifacts(evidence)
    ]


def _artifacts(evidence) -> Iterator[tuple[str, Any, str | None]]:
    """(label, artifact, why it cannot be read) of every piece of ``evidence``, as the
    command reads its EVIDENCE arguments."""
    from .commands.eval_input import artifacts, expand

    items = [evidence] if isinstance(evidence, str | os.PathLike | Mapping) else list(evidence)
    for n, item in enumerate(items):
        if isinstance(item, Mapping):
            yield f"<evidence {n}>", dict(item), None
            continue
        for label, path, from_dir in expand(os.fspath(item)):
            yield from artifacts(label, path, from_dir)


def _verdict(label, artifact, problem, data, profile, prepared) -> Verdict:
    from .evaluator import score

    sid = data.get("id") if isinstance(data.get("id"), str) else None
    if problem is not None:
        return Verdict(evidence=label, scenario=sid, score=None, row=None, error=problem)
    v = score(artifact, data, profile, prepared, explain=True)
    return Verdict(
        evidence=label,
        scenario=sid,
        score=v.get("score"),
        row=v.get("row"),
        error=v.get("error"),
        why=_why(v.get("why")),
        metadata=v.get("metadata"),
    )


def _why(data: Any) -> Why | None:
    """The evaluator's reasons (``why.explain``: row, fired, failed, text) as a :class:`Why`."""
    if not isinstance(data, Mapping):
        return None
    failed = tuple((int(f["row"]), str(f["reason"])) for f in data.get("failed") or ())
    return Why(int(data["row"]), str(data["fired"]), failed, str(data["text"]))


def explain(code: str) -> RuleDoc:
    """The rule ``code`` (any case: ``"si115"`` is SI115) from the catalogue, with its
    examples and the page ``si-lint rule CODE`` prints. Raises :class:`UnknownRuleError`
    (a :class:`LookupError` and a :class:`SiLintError`) for a code it does not have."""
    from . import rule_url
    from .catalogue import rules
    from .commands.rule import page

    found = rules().get(str(code).strip().upper())
    if found is None:
        raise UnknownRuleError(f"unknown rule {code!r}; `si-lint rule` lists them")
    return RuleDoc(
        code=found.code,
        name=found.name,
        severity=found.severity,
        summary=found.summary,
        rationale=found.rationale,
        seed=found.seed,
        fix=found.fix,
        check=found.check,
        url=rule_url(found.code),
        examples=found.examples,
        text=page(found),
        full_text=page(found, full=True),
    )
