#!/usr/bin/env python3
"""Peak memory and time of ``si-lint check`` on a corpus of many findings, per format
(issue 41 item 4; SPEC §9 "Output is bounded").

    python bench/report_memory.py OUT [--files 1000] [--findings 1000] [--formats text,json,...]

Writes ``OUT/`` (``--files`` YAML files ``f-NNNN.yaml``, each a mapping that repeats the key
``a`` ``--findings`` + 1 times: ``--findings`` SI002 duplicate-key findings per file, the
cheapest finding to produce — the loader reports it, no check runs and no kind is needed;
1,000 × 1,000 is 5 MB and 1,000,000 findings), then runs, one format after the other,

    /usr/bin/time -v si-lint check --no-cache --format F OUT > /dev/null

and prints each run's peak RSS ("Maximum resident set size") and wall time. The si-lint
run is the one on ``PATH`` (activate the checkout's virtual environment first).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

FORMATS = ("text", "json", "sarif", "junit", "github", "gitlab")


def generate(out: str, files: int, findings: int) -> None:
    """``files`` files of ``findings`` SI002 findings each (the same bytes every time)."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    body = "a: 1\n" * (findings + 1)
    for i in range(files):
        with open(os.path.join(out, f"f-{i:04d}.yaml"), "w", encoding="utf-8") as fh:
            fh.write(body)


def measure(root: str, fmt: str) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of one ``si-lint check`` run."""
    cmd = ["/usr/bin/time", "-v", "si-lint", "check", "--no-cache", "--format", fmt, root]
    with open(os.devnull, "wb") as sink:
        proc = subprocess.run(cmd, stdout=sink, stderr=subprocess.PIPE, text=True, check=False)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", proc.stderr)
    if rss is None or wall is None:
        sys.exit(f"no figures from /usr/bin/time for {fmt}:\n{proc.stderr[-2000:]}")
    seconds = 0.0
    for part in wall.group(1).split(":"):
        seconds = seconds * 60 + float(part)
    status = re.search(r"Exit status: (\d+)", proc.stderr)
    return int(rss.group(1)) / 1024, seconds, int(status.group(1)) if status else -1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--findings", type=int, default=1000)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--keep", action="store_true", help="reuse OUT when it exists")
    args = parser.parse_args(argv)
    if not (args.keep and os.path.isdir(args.out)):
        generate(args.out, args.files, args.findings)
    total = args.files * args.findings
    print(f"{args.files:,} files x {args.findings:,} findings = {total:,} findings")
    print(f"{'format':<8} {'peak RSS':>10} {'wall':>8}  exit")
    for fmt in args.formats.split(","):
        rss, wall, status = measure(args.out, fmt)
        print(f"{fmt:<8} {rss:>7.0f} MB {wall:>6.1f} s  {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
