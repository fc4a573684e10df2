"""One run over paths under several corpus roots (SPEC §9 "Corpus root": roots are found
for each named path, and paths under different roots are checked as separate corpora in
one run, each with its own configuration): one pipeline run per root
(:func:`si_lint.roots.plan_roots`), their results merged in the usual sort order, and the
named paths no corpus holds counted as skipped."""

from __future__ import annotations

import os
from pathlib import Path

from ..config import Config
from ..discovery import inside, relpath_of
from ..findings import Finding
from ..roots import plan_roots
from .context import MergedCorpus, RunResult


def _overrides_for(overrides: dict | None, root: str, paths: list[str]) -> dict | None:
    """The unsaved buffers of one group: those under its root or named in it."""
    if not overrides:
        return overrides
    return {
        k: v
        for k, v in overrides.items()
        if inside(os.path.abspath(k), root) or os.path.abspath(k) in paths
    }


def run_roots(paths, options, cwd: Path, overrides, run_one) -> RunResult:
    """``run_one(paths, options, cwd, overrides, root)`` for each root of the plan, the
    results merged; a single root with nothing skipped is that run's result as it is."""
    plan = plan_roots(cwd, list(paths), options.config_file, options.isolated)
    skipped = [(relpath_of(p, cwd), why) for p, why in plan.skipped]
    results = []
    for group in plan.groups:
        root = str(group.root.path)
        sub = _overrides_for(overrides, root, group.paths)
        results.append(run_one(group.paths, options, cwd, sub, group.root))
    if len(results) == 1 and not skipped:
        return results[0]
    return merge(results, skipped, cwd)


def merge(results: list[RunResult], skipped: list[tuple[str, str]], cwd: Path) -> RunResult:
    """The results of the runs over several roots as one (``skipped``: the named paths no
    root holds, with their reasons)."""
    findings: list[Finding] = []
    seen = set()
    for r in results:
        for f in r.findings:
            key = (f.path, f.document, f.line, f.column, f.code, f.message)
            if key not in seen:
                seen.add(key)
                findings.append(f)
    findings.sort(key=Finding.sort_key)
    corpora = [r.corpus for r in results if r.corpus is not None]
    config = results[0].config if results else Config(root=Path(cwd), root_how="none")
    return RunResult(
        findings,
        sum(r.files for r in results),
        MergedCorpus(corpora) if corpora and len(corpora) == len(results) else None,
        config,
        [s for r in results for s in r.skipped],
        [p for r in results for p in r.reported],
        [n for r in results for n in r.notes] + [f"skipped {p}: {why}" for p, why in skipped],
        [p for r in results for p in r.skipped_paths] + skipped,
        sorted({w for r in results for w in r.warnings}),  # (one line each)
    )
