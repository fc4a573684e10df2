"""The runs a user feels, on any corpus: cold, warm re-check, one named file, one file changed.

    python bench/cache_runs.py CORPUS NAMED [--runs 9] [--src TREE]

Copies CORPUS into a temporary directory and runs ``si-lint check`` there, each run its
own process (``--src TREE``: ``python -m si_lint.cli`` with TREE first on the path, to
compare two checkouts; else the ``si-lint`` command), with a user cache directory of its
own and ``--cache-dir`` of a fresh directory:

- cold: an empty cache each time; ``--no-cache``;
- warm: ``check .`` again over the unchanged corpus;
- one named file: ``check NAMED`` (the pre-commit case: one staged file);
- one file changed: a comment appended to NAMED before each ``check .``.

Prints the median wall and CPU (user + system of the process and its children) of
``--runs`` runs of each. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("named", help="a file of the corpus, relative to it")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--src", help="a source tree to run instead of the si-lint command")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp()
    work, cache = os.path.join(tmp, "corpus"), os.path.join(tmp, "cache")
    shutil.copytree(args.corpus, work)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "xdg"), NO_COLOR="1")
    command = [shutil.which("si-lint") or "si-lint"]
    if args.src:
        command = [sys.executable, "-m", "si_lint.cli"]
        env["PYTHONPATH"] = args.src

    def run(*check_args: str) -> tuple[float, float, int]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            [*command, "check", *check_args], cwd=work, env=env, capture_output=True
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, proc.returncode

    def report(name: str, rows: list) -> None:
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        print(f"{name:24s} wall {wall:6.3f} s   cpu {cpu:6.3f} s   (exit {rows[0][2]})")

    cached = ("--cache-dir", cache)
    cold = []
    for _ in range(args.runs):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(run(*cached, "."))
    report("cold (empty cache)", cold)
    report("--no-cache", [run("--no-cache", ".") for _ in range(args.runs)])
    run(*cached, ".")
    report("warm re-check", [run(*cached, ".") for _ in range(args.runs)])
    report("one named file, warm", [run(*cached, args.named) for _ in range(args.runs)])
    changed = []
    for i in range(args.runs):
        with open(os.path.join(work, args.named), "a", encoding="utf-8") as fh:
            fh.write(f"# edit {i}\n")
        changed.append(run(*cached, "."))
    report("one file changed", changed)
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
