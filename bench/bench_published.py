"""Whole-corpus check time of the published OASIS SI corpus against the per-file time.

    python bench/bench_published.py [--corpus DIR] [--runs 5] [--format text|json]

Runs, each in its own process with the corpus (``software-infrastructure/``, the corpus
root) as working directory and ``--no-cache``:

* whole corpus: ``si-lint check --format json .``
* per file: ``si-lint check --format json FILE`` for each scenario file (what pre-commit
  runs for one staged file; cross-file checks still load the corpus), the mean over files
* whole corpus without the SI6xx rules (``--ignore SI6``): what the core scenario rules
  and the profile-document references cost

and reports the median wall-clock seconds of ``--runs`` runs of each, and the ratio of the
whole-corpus time to the per-file time (issue 17: at most 2). Exit status 1 when the
ratio is over 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "data" / "oasis-si" / "software-infrastructure"
GOAL = 2.0


def si_lint() -> list[str]:
    exe = shutil.which("si-lint")
    return [exe] if exe else [sys.executable, "-m", "si_lint.cli"]


def timed(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        si_lint() + ["check", "--format", "json", "--no-cache", *args],
        cwd=cwd,
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"si-lint failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
    return elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--format", choices=("text", "json"), default="text")
    opts = ap.parse_args(argv)
    if not (opts.corpus / "profile.md").is_file():
        print(f"no published corpus at {opts.corpus} (../shared is absent)", file=sys.stderr)
        return 2
    files = sorted(str(p.relative_to(opts.corpus)) for p in opts.corpus.glob("scenarios/*/*.yaml"))
    env_cwd = opts.corpus

    def median(args):
        return statistics.median(timed(args, env_cwd) for _ in range(opts.runs))

    whole = median(["."])
    per_file = statistics.mean(median([f]) for f in files)
    without = median(["--ignore", "SI6", "."])
    ratio = whole / per_file
    result = {
        "corpus": str(opts.corpus),
        "files": len(files),
        "runs": opts.runs,
        "whole_corpus_s": round(whole, 3),
        "per_file_mean_s": round(per_file, 3),
        "whole_without_si6_s": round(without, 3),
        "ratio_whole_to_per_file": round(ratio, 2),
        "goal": f"ratio <= {GOAL}",
        "met": ratio <= GOAL,
        "cpus": os.cpu_count(),
    }
    if opts.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(
            f"published corpus: {len(files)} scenario files, median of {opts.runs} runs, --no-cache"
        )
        print(f"  whole corpus            {whole:7.3f} s")
        print(f"  per file (mean)         {per_file:7.3f} s")
        print(f"  whole, --ignore SI6     {without:7.3f} s")
        print(
            f"  ratio whole / per file  {ratio:7.2f}   (goal <= {GOAL}: "
            f"{'met' if ratio <= GOAL else 'NOT met'})"
        )
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
