#!/usr/bin/env python3
"""Compare two revisions of si-lint on the same generated corpus, paired (issue 15).

    python bench/ab.py [--base REV] [--head REV] [--files N] [--rounds N]
                       [--instructions [--instruction-files N]] [--format md|json]
                       [-- CHECK OPTIONS]

A speed change is judged against the code it changes, measured in the same rounds: this
machine's speed drifts from minute to minute (the same run took 9.9 s and 16 s within one
hour), so two figures taken apart say more about the machine than about the change.

Each revision's ``si_lint`` package (``--base``, default ``HEAD``; ``--head``, default the
working tree, ``.``) is copied into a temporary directory and its bytecode compiled there
(``compileall``), as an installed si-lint's is: with ``PYTHONDONTWRITEBYTECODE`` set (as
here), a run from a source tree without ``__pycache__`` compiles every module it imports,
about 0.3 s of CPU on every run, which no user pays. Then, for ``--rounds`` rounds, both
run ``python -m si_lint.cli check --format json OPTIONS .`` (default options:
``--no-cache --jobs 2``) on the corpus of ``bench/generate.py`` (``--files``, default
4,000), one after the other, the order alternating between rounds; each revision with its
own ``XDG_CACHE_HOME`` (its own cache signing key) and without
``PYTHONDONTWRITEBYTECODE`` or ``SI_LINT_CACHE_DIR``, after one run each that is not
measured (the first reads the tree from disk).

Printed: per revision the median wall and CPU seconds and the peak RSS (as
``bench/run.py`` measures them), head / base for each, and whether both reports were
byte-identical in every round (a speed change must not change the output). With
``--instructions`` (valgrind needed) each revision also runs once under callgrind on a
smaller corpus (``--instruction-files``, default 400) with ``PYTHONHASHSEED=0`` and
``--jobs 1`` (callgrind counts the process it runs): instruction counts do not drift with
the machine (two runs of the same code differ by under 0.01%), so a change of 0.1% shows.
Exit status 1 when the outputs differ or a run failed. A benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import generate
from run import measure, median_of, run_env

DEFAULT_OPTIONS = ["--no-cache", "--jobs", "2"]


#: what a run reads of a revision: the package, and the data a checkout keeps beside it
#: (``si_lint/fsutil.py``, ``data_path``: ``rules/`` and ``schemas/`` at the repository root)
PARTS = ("si_lint", "rules", "schemas")


def materialise(rev: str, dest: Path, repo: Path = REPO) -> Path:
    """``rev``'s package and data (``.``: the working tree's) under ``dest``, the bytecode
    compiled; returns ``dest`` (what goes on ``PYTHONPATH``)."""
    dest.mkdir(parents=True)
    if rev == ".":
        for part in PARTS:
            shutil.copytree(repo / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", rev, *PARTS],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(dest / "si_lint")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return dest


def environment(tree: Path, xdg: Path) -> dict[str, str]:
    """``bench/run.py``'s environment, with ``tree`` the only thing on ``PYTHONPATH``."""
    return {**run_env(drop=("PYTHONPATH",)), "PYTHONPATH": str(tree), "XDG_CACHE_HOME": str(xdg)}


def command(options: list[str]) -> list[str]:
    return [sys.executable, "-m", "si_lint.cli", "check", "--format", "json", *options, "."]


def order(round_index: int, names: list[str]) -> list[str]:
    """The revisions in round ``round_index``'s order: alternating, so that neither one
    always runs first (after the other has warmed the page cache, or before it)."""
    return names if round_index % 2 == 0 else names[::-1]


def collected(text: str) -> int | None:
    """The instruction count in callgrind's summary (``==PID== Collected : N``)."""
    m = re.search(r"Collected\s*:\s*([0-9,]+)", text)
    return int(m.group(1).replace(",", "")) if m else None


def serial(options: list[str]) -> list[str]:
    """``options`` with ``--jobs 1``: callgrind counts the process it runs, not the workers
    it forks."""
    out, skip = [], False
    for i, o in enumerate(options):
        if skip:
            skip = False
        elif o in ("--jobs", "-j"):
            skip = i + 1 < len(options)
        elif not o.startswith(("--jobs=", "-j")):
            out.append(o)
    return [*out, "--jobs", "1"]


def instructions(tree: Path, xdg: Path, corpus: Path, options: list[str]) -> int | None:
    if shutil.which("valgrind") is None:
        return None
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            *command(serial(options)),
        ],
        cwd=corpus,
        # the hash seed changes the order of set and dict work, and so the count by 0.5%
        env={**environment(tree, xdg), "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    return collected(proc.stderr)


def compare(args: argparse.Namespace, tmp: Path) -> dict:
    revs = {"base": args.base, "head": args.head}
    trees = {name: materialise(rev, tmp / name) for name, rev in revs.items()}
    xdg = {name: tmp / f"xdg-{name}" for name in revs}
    corpus = tmp / "corpus"
    generate.generate(corpus, args.files, args.seed)
    runs: dict[str, list[dict]] = {name: [] for name in revs}
    for name in revs:  # not measured: the first run reads the tree's files from disk
        measure(command(args.options), corpus, environment(trees[name], xdg[name]))
    same = True
    for r in range(args.rounds):
        outputs = {}
        for name in order(r, list(revs)):
            result = measure(
                command(args.options), corpus, environment(trees[name], xdg[name]), report=True
            )
            outputs[name] = result.pop("stdout", None)
            runs[name].append(result)
        same = same and outputs["base"] == outputs["head"]
    out: dict = {
        "files": args.files,
        "rounds": args.rounds,
        "options": args.options,
        "revisions": revs,
        "same_output": same,
        "runs": {},
    }
    for name, results in runs.items():
        out["runs"][name] = {
            "seconds": median_of(results, "seconds"),
            "cpu": median_of(results, "cpu"),
            "rss_mb": max((r.get("rss_mb") or 0 for r in results), default=None),
            "exit": [r.get("exit") for r in results],
        }
    if args.instructions:
        small = tmp / "corpus-small"
        generate.generate(small, args.instruction_files, args.seed)
        for name in revs:
            out["runs"][name]["instructions"] = instructions(
                trees[name], xdg[name], small, args.options
            )
        out["instruction_files"] = args.instruction_files
    out["ratios"] = {
        key: _ratio(out["runs"]["head"].get(key), out["runs"]["base"].get(key))
        for key in ("seconds", "cpu", "rss_mb", "instructions")
    }
    return out


def _ratio(head, base) -> float | None:
    return round(head / base, 3) if head and base else None


def failed(report: dict) -> bool:
    codes = [c for run in report["runs"].values() for c in run["exit"]]
    return not report["same_output"] or any(c not in (0, 1) for c in codes)


def markdown(report: dict) -> str:
    revs = report["revisions"]
    lines = [
        f"{report['files']:,} files, `si-lint check {' '.join(report['options'])} .`, "
        f"median of {report['rounds']} paired round(s); base `{revs['base']}`, head "
        f"`{revs['head']}`; same output: {'yes' if report['same_output'] else '**no**'}",
        "",
        "| | wall s | CPU s | peak RSS MB | instructions | exit |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name in ("base", "head"):
        run = report["runs"][name]
        ins = run.get("instructions")
        lines.append(
            f"| {name} | {run['seconds']} | {run['cpu']} | {run['rss_mb']} | "
            f"{f'{ins:,}' if ins else 'n/a'} | {run['exit']} |"
        )
    ratios = report["ratios"]
    lines.append(
        f"| head / base | {ratios['seconds']} | {ratios['cpu']} | {ratios['rss_mb']} | "
        f"{ratios['instructions'] or 'n/a'} | |"
    )
    if "instruction_files" in report:
        lines.append(
            f"\n(instructions: one run each under callgrind, {report['instruction_files']:,} "
            "files, --jobs 1)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="HEAD", help="a git revision (default HEAD)")
    ap.add_argument("--head", default=".", help="a git revision, or . for the working tree")
    ap.add_argument("--files", type=int, default=4000)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--instructions", action="store_true", help="callgrind counts too")
    ap.add_argument("--instruction-files", type=int, default=400)
    ap.add_argument("--format", choices=("md", "json"), default="md")
    ap.add_argument("options", nargs="*", help="si-lint check options (after --)")
    args = ap.parse_args(argv)
    args.options = args.options or DEFAULT_OPTIONS
    if args.rounds < 1 or args.files < 1 or args.instruction_files < 1:
        ap.error("--rounds, --files and --instruction-files must be >= 1")
    tmp = Path(tempfile.mkdtemp(prefix="si-lint-ab-"))
    try:
        report = compare(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report, indent=2) if args.format == "json" else markdown(report))
    return 1 if failed(report) else 0


if __name__ == "__main__":
    sys.exit(main())
