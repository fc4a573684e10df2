#!/usr/bin/env python3
"""A pure-Python peer for the ``--jobs`` scaling row: what two processes give on this
machine, measured in the same rounds as si-lint (issue 15).

    python bench/parallel_peer.py --jobs N [--tasks N]

Runs ``--tasks`` equal tasks of interpreter work like the loader's (small dicts, lists and
strings made and dropped; no I/O, no shared state) with ``--jobs 1`` in this process, or
with more in that many forked worker processes that each take the next task as they are
free (as si-lint's workers take chunks of files). Prints the tasks' checksum, the same
for every ``--jobs``.

The time with ``--jobs 1`` over the time with ``--jobs 2`` is the most a program whose
work all splits evenly gets from a second process here, at that moment. On a virtual
machine it is not 2: when both virtual CPUs are busy the host may run one of them slower
(on the bench machine, the same loop ran up to 1.8x as long in one of two concurrent
processes as alone). ``bench/run.py`` reports it next to si-lint's own ratio.
"""

from __future__ import annotations

import argparse
import sys

#: items one task makes: about 3 ms of CPU on the bench machine (2,000 tasks: 6-7 s)
ITEMS = 4_000


def task(seed: int) -> int:
    """One task: build a list of small documents and fold them into a checksum."""
    docs = []
    for i in range(ITEMS):
        key = f"s{seed}-{i}"
        docs.append({"id": key, "n": i, "items": [i, i + 1, str(i)], "name": key.upper()})
    total = 0
    for d in docs:
        total = (total * 31 + d["n"] + len(d["name"]) + len(d["items"][2])) % 1_000_000_007
    return total


def run(tasks: int, jobs: int) -> int:
    if jobs <= 1:
        results = [task(i) for i in range(tasks)]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        mp = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp) as pool:
            results = list(pool.map(task, range(tasks), chunksize=4))
    checksum = 0
    for r in results:
        checksum = (checksum * 1_000_003 + r) % 1_000_000_007
    return checksum


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--tasks", type=int, default=2000)
    args = ap.parse_args(argv)
    if args.jobs < 1 or args.tasks < 1:
        ap.error("--jobs and --tasks must be at least 1")
    print(run(args.tasks, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
