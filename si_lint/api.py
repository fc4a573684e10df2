"""si-lint as a library (``docs/api.md``): the code of ``si-lint check``, ``eval`` and ``rule
CODE``, returning frozen values. Nothing here prints (but eval's line on stderr for a file
that is no evidence) or exits: what the command refuses with exit status 2 raises
:class:`SiLintError`."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import rule_url
from .catalogue import rules
from .commands.check import FAIL_ON, failing
from .commands.eval import profile_for, scored_table
from .commands.eval_input import evidence_artifacts, load_scenario
from .commands.options import profile_spec, split_codes
from .commands.rule import page
from .errors import SiLintError, UsageError
from .evaluator import score
from .findings import Finding, Location
from .pipeline import Options, run
from .profile import is_builtin_name

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

PathLike = str | os.PathLike

FailOn = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    files: int
    errors: int
    warnings: int
    infos: int
    exit_status: int
    fail_on: FailOn = "error"

    @property
    def ok(self) -> bool:
        return self.exit_status == 0


@dataclass(frozen=True)
class Why:
    """``text`` is what ``si-lint eval`` prints after ``why:``."""

    row: int
    fired: str
    failed: tuple[tuple[int, str], ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Verdict:
    """One piece of evidence scored against a scenario, as ``si-lint eval`` reports it."""

    evidence: str
    scenario: str | None
    score: float | None
    row: int | None
    error: str | None = None
    why: Why | None = None
    metadata: Mapping[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class RuleDoc:
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


def _codes(codes: str | Iterable[str] | None) -> tuple[str, ...]:
    return split_codes((codes,) if isinstance(codes, str) else tuple(codes or ()))


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
    """``si-lint check`` from ``cwd``; each keyword is the option of the same name, but
    the cache is off and ``jobs`` is 1 unless asked for."""
    if fail_on not in FAIL_ON:
        raise UsageError(f"fail_on={fail_on!r}: one of {', '.join(FAIL_ON)}")
    base = Path(os.fspath(cwd) if cwd is not None else os.getcwd()).resolve()
    if profile is not None and not is_builtin_name(
        profile_spec(profile, base, f"profile={profile!r}")
    ):
        profile = str(base / profile)  # a profile directory, relative to cwd
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
    named = [paths] if isinstance(paths, str | os.PathLike) else paths
    result = run([os.fspath(p) for p in named], options, cwd=base)
    findings = tuple(sorted(result.findings, key=Finding.sort_key))
    counts = Counter(f.severity for f in findings)
    return Report(
        findings=findings,
        files=result.files,
        errors=counts["error"],
        warnings=counts["warning"],
        infos=counts["info"],
        exit_status=1 if failing(findings, fail_on) else 0,
        fail_on=fail_on,
    )


def evaluate(
    scenario: PathLike | Mapping[str, Any],
    evidence: PathLike | Mapping[str, Any] | Iterable[PathLike | Mapping[str, Any]],
    *,
    profile: str | None = "builtin",
    scenario_id: str | None = None,
    trust_implementations: bool = False,
) -> list[Verdict]:
    """One :class:`Verdict` per artifact of ``evidence`` (paths or loaded mappings), as
    ``si-lint eval`` scores them; ``profile`` None: the configured one."""
    if isinstance(scenario, Mapping):
        where, data = Path("."), dict(scenario)
    else:
        where, _index, data = load_scenario(os.fspath(scenario), scenario_id)
    profile_obj = profile_for(where, profile, trust_implementations)[1]
    prepared = scored_table(data, profile_obj, f"scenario {data.get('id')}")
    return [
        _verdict(label, artifact, problem, data, profile_obj, prepared)
        for label, artifact, problem in _artifacts(evidence)
    ]


def _artifacts(evidence) -> Iterator[tuple[str, Any, str | None]]:
    items = [evidence] if isinstance(evidence, str | os.PathLike | Mapping) else list(evidence)
    for n, item in enumerate(items):
        if isinstance(item, Mapping):
            yield f"<evidence {n}>", dict(item), None
            continue
        yield from evidence_artifacts([os.fspath(item)])


def _verdict(label, artifact, problem, data, profile, prepared) -> Verdict:
    sid = data.get("id") if isinstance(data.get("id"), str) else None
    if problem is not None:
        return Verdict(label, sid, score=None, row=None, error=problem)
    v = score(artifact, data, profile, prepared, explain=True)
    why = v.get("why")  # the evaluator's reasons (why.explain), as a Why
    if why is not None:
        failed = tuple((f["row"], f["reason"]) for f in why["failed"])
        why = Why(why["row"], str(why["fired"]), failed, why["text"])
    return Verdict(label, sid, v.get("score"), v.get("row"), v.get("error"), why, v.get("metadata"))


def explain(code: str) -> RuleDoc:
    """The rule ``code`` (any case), with the page ``si-lint rule CODE`` prints."""
    found = rules().get(str(code).strip().upper())
    if found is None:
        raise UnknownRuleError(f"unknown rule {code!r}; `si-lint rule` lists them")
    return RuleDoc(
        **found.doc_text,
        check=found.check,
        url=rule_url(found.code),
        examples=found.examples,
        text=page(found),
        full_text=page(found, full=True),
    )
