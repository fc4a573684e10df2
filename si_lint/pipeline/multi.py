"""The results of one run over paths under several corpus roots (SPEC §9 "Corpus root"),
merged in the usual sort order, the named paths no corpus holds counted as skipped."""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from ..findings import Finding
from .context import MergedCorpus, RunResult


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
