#!/usr/bin/env python3
"""Measure si-lint against issue 43's goals on a generated corpus and the published one.

    python bench/run.py [--quick] [--no-big] [--repeats N] [--format md|json] [--keep]

Generates the bench corpus (``bench/generate.py``: the published shape, 4,000 files) into a
temporary directory and measures, each command as its own process with the corpus as
working directory, ``--repeats`` times (default 3; ``--quick``: 1) as *paired* runs -- the
peer, the floor and si-lint back to back in each round, so load from elsewhere on the
machine hits all of them alike:

- ``yamllint -d relaxed -f parsable FILES`` (the peer, on the same files: every file, the
  ``.json`` artifacts named explicitly because yamllint skips them in a directory walk);
- the C-parse floor: ``bench/floor.c`` (read every file and run libyaml's parser over it),
  compiled into the temporary directory when ``gcc`` and libyaml's headers are there, else
  the same in Python with ruamel's C parser (the report says which);
- ``si-lint check --format json --no-cache .`` (cold, with si-lint's default ``--jobs`` or
  ``--jobs``; and the same with ``--jobs 1`` and ``--jobs 2``: the ``--jobs`` overhead
  row, CPU with two workers over CPU with one process), then with a fresh
  ``--cache-dir``: the fill, the warm re-check, ``si-lint check FILE`` of one scenario
  file (the pre-commit case: one staged file), and the re-check after appending a comment
  to one fixture;
- ``bench/bench_server.py`` on the same corpus (``--server-edits``, default 20; 0 skips
  it): the median time from ``didChange`` to ``publishDiagnostics``;
- the published corpus (``--published``, a copy of it): ``check --no-cache`` cold;
- reference figures, measured but no longer goals (issue 15's): the CPU / floor ratio; on
  a 40,000-file corpus (skip with ``--no-big``): cold with ``--jobs 2`` and with
  ``--jobs 1`` (paired), then the fill, warm and one-file-changed runs for the peak RSS;
  in the same rounds, ``bench/parallel_peer.py`` with ``--jobs 2`` and ``--jobs 1``: work
  that splits evenly, whose ratio is what a second process can give on this machine at
  that moment; ``si-lint eval`` of a ``.jsonl`` of oasisctl evidence artifacts
  (``--eval-artifacts``, default 10,000): artifacts per second end to end and peak RSS.

The goals are judged on CPU seconds (user + system), which load from elsewhere on a
shared machine moves less than wall time; the server row is wall time.

Every figure is the median over the rounds. Peak RSS is the larger of ``wait4``'s
``ru_maxrss`` (the largest process) and the sampled memory of the whole process tree
(from ``/proc`` every 0.05 s, or less often for big processes, so that sampling costs at
most 5% of a core; ``--jobs`` workers count together: the sum of their PSS, so the pages a
forked worker shares with its parent count once). CPU is user + system time of
the process and its waited-for children. Cached runs must report the cold run's findings
(the edit only appends a comment); a run that does not is flagged.

Each goal row prints the measurement, the goal and whether it is met. This is a
benchmark, never a timed test: ``--check-goals`` makes the exit status 1 when a measured
goal is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate

SMALL_FILES = 4_000
BIG_FILES = 40_000

# (key, figure, goal text, test on the measured value, unit) -- issue 43's goals: the speed
# users feel, on the 4,000-file bench corpus (CPU seconds: the machine is shared) and on the
# published corpus
GOALS = [
    (
        "cold_ratio",
        "cold check CPU, 4,000 files / yamllint's CPU",
        "<= 0.08",
        lambda v: v <= 0.08,
        "x",
    ),
    ("warm", "warm whole-corpus re-check, CPU", "<= 0.2 s", lambda v: v <= 0.2, "s"),
    (
        "staged",
        "one staged file, warm (the pre-commit case), CPU",
        "<= 0.2 s",
        lambda v: v <= 0.2,
        "s",
    ),
    ("changed", "one file changed, whole corpus, CPU", "<= 0.5 s", lambda v: v <= 0.5, "s"),
    (
        "server",
        "server didChange -> publishDiagnostics, median",
        "<= 300 ms",
        lambda v: v <= 300,
        "ms",
    ),
    ("published", "published corpus cold, CPU", "<= 0.5 s", lambda v: v <= 0.5, "s"),
    (
        "jobs_overhead",
        "cold check CPU, --jobs 2 / --jobs 1",
        "<= 1.15x",
        lambda v: v <= 1.15,
        "x",
    ),
]

#: (key, figure) of the reference figures: measured, no goal of their own (the 40,000-file
#: rows and eval were issue 15's goals; issue 43 keeps them as measurements)
REFERENCES = {
    "cold_floor": "cold check CPU / C-parse floor (si-lint's default --jobs)",
    "floor_jobs1": "the same cold check's CPU / the C-parse floor's with --jobs 1, in the same "
    "rounds (one process: none of a second busy process's cost on this machine)",
    "big_cold": "40,000 files cold, --jobs 2, wall",
    "big_scaling": "40,000 files: --jobs 1 time / --jobs 2 time",
    "peer_scaling": "what a second process gives work that splits evenly, here and in the "
    "same rounds: a pure-Python peer's --jobs 1 time / --jobs 2 time (bench/parallel_peer.py)",
    "big_rss": "peak RSS, 40,000 files",
    "eval_rate": "eval end to end (artifacts/s)",
    "eval_rss": "eval peak RSS",
}
#: the unit of a reference figure (default: a ratio, "x")
REFERENCE_UNITS = {"big_cold": "s", "big_rss": "MB", "eval_rate": "/s", "eval_rss": "MB"}
#: the published corpus (tests reach it as ``../shared/...`` from the repository)
PUBLISHED = HERE.parent.parent / "shared" / "data" / "oasis-si" / "software-infrastructure"


# ---------------------------------------------------------------------------------------
# process measurement


def _proc_tree_rss(root: int, page: int) -> int:
    """Resident bytes of ``root`` and all its descendants (Linux /proc; 0 elsewhere): the
    sum of each process's PSS (``smaps_rollup``: a page shared by n processes counts 1/n in
    each), so the copy-on-write pages forked workers share with their parent count once;
    the RSS of ``statm`` where PSS cannot be read."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: fields start after the last ')'
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _pss(pid, page)
        todo.extend(children.get(pid, ()))
    return total


def _pss(pid: int, page: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * page
    except (OSError, IndexError, ValueError):
        return 0


def measure(
    cmd: list[str],
    cwd: Path,
    env: dict | None = None,
    stdin: bytes | None = None,
    sample_s: float = 0.05,
    report: bool = False,
) -> dict:
    """Run ``cmd``: wall and CPU seconds, exit code, peak RSS (largest process, tree).

    ``report``: the command is a si-lint run with ``--format json``; one whose stdout is
    not a JSON document failed whatever its exit code (exit 1 is also "findings"), and its
    exit is recorded as ``"N (no report)"`` so no median counts it.
    """
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    inp = None
    if stdin is not None:
        inp = tempfile.TemporaryFile()
        inp.write(stdin)
        inp.seek(0)
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=inp, stdout=out, stderr=err)
    except OSError as exc:
        return {"error": f"cannot run {cmd[0]}: {exc}"}
    peak = [0]
    done = threading.Event()
    linux_proc = os.path.isdir("/proc/self")
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def sampler() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            peak[0] = max(peak[0], _proc_tree_rss(proc.pid, page))
            # reading PSS walks the page tables (~10 ms for 1 GB): at most 5% of a core
            done.wait(max(sample_s, 20 * (time.perf_counter() - t0)))

    thread = threading.Thread(target=sampler, daemon=True)
    if linux_proc:
        thread.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        # Linux reports ru_maxrss in KiB, macOS in bytes
        maxrss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
        cpu = usage.ru_utime + usage.ru_stime
    finally:
        done.set()
        if linux_proc:
            thread.join()
    out.seek(0)
    err.seek(0)
    stdout = out.read().decode("utf-8", "replace")
    stderr = err.read().decode("utf-8", "replace")
    for fh in (out, err, inp):
        if fh is not None:
            fh.close()
    rss = max(maxrss, peak[0])
    code: int | str = proc.returncode
    if report and code in (0, 1):
        try:
            json.loads(stdout)
        except ValueError:
            code = f"{code} (no report)"
    return {
        "cmd": cmd[:6] + (["..."] if len(cmd) > 6 else []),
        "seconds": round(seconds, 4),
        "cpu": round(cpu, 4),
        "exit": code,
        "rss_mb": round(rss / 2**20, 1),
        "stdout": stdout,
        "stderr_tail": stderr[-2000:],
    }


def _findings(result: dict | None):
    """The diagnostics of a ``--format json`` report, or None."""
    try:
        report = json.loads((result or {}).get("stdout", ""))
    except ValueError:
        return None
    return report.get("diagnostics") if isinstance(report, dict) else None


def _summary(result: dict | None):
    try:
        report = json.loads((result or {}).get("stdout", ""))
    except ValueError:
        return None
    return report.get("summary") if isinstance(report, dict) else None


def median_of(results: list[dict], key: str):
    """The median of ``key`` over the runs that worked (exit 0 or 1), or None."""
    vals = [r[key] for r in results if r and r.get(key) is not None and r.get("exit") in (0, 1)]
    return round(statistics.median(vals), 4) if vals else None


# ---------------------------------------------------------------------------------------
# the floor


def build_floor(tmp: Path) -> tuple[list[str], str]:
    """(command reading paths on stdin, description): the C program, else Python+ruamel."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc:
        exe = tmp / "floor"
        proc = subprocess.run(
            [gcc, "-O2", "-o", str(exe), str(HERE / "floor.c"), "-lyaml"],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode == 0:
            return [str(exe)], "C program with libyaml (bench/floor.c, gcc -O2)"
    script = (
        "import sys\nfrom ruamel.yaml import YAML\ny = YAML(typ='safe')\nn = 0\n"
        "for p in sys.stdin.read().splitlines():\n"
        "    with open(p, 'rb') as fh:\n        data = fh.read()\n"
        "    try:\n        n += sum(1 for _ in y.parse(data))\n"
        "    except Exception:\n        pass\nprint(n, 'events')\n"
    )
    return (
        [sys.executable, "-c", script],
        "Python with ruamel.yaml's C parser (gcc or libyaml's headers are missing)",
    )


# ---------------------------------------------------------------------------------------


def si_lint_command(given: str | None) -> list[str]:
    if given:
        return shlex.split(given)
    exe = shutil.which("si-lint")
    return [exe] if exe else [sys.executable, "-m", "si_lint.cli"]


def detect_options(si: list[str]) -> dict:
    try:
        proc = subprocess.run(
            [*si, "check", "--help"], capture_output=True, text=True, timeout=60, check=False
        )
        text = proc.stdout
    except (OSError, subprocess.SubprocessError):
        text = ""
    return {
        "check": "Usage" in text,
        "no_cache": "--no-cache" in text,
        "cache_dir": "--cache-dir" in text,
        "jobs": "--jobs" in text,
    }


def _files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.is_file() and ".si-lint-cache" not in p.parts)


def peer_command(jobs: int) -> list[str]:
    """``bench/parallel_peer.py``: what ``jobs`` processes give on this machine."""
    return [sys.executable, str(HERE / "parallel_peer.py"), "--jobs", str(jobs)]


def scaling(one: list[dict], two: list[dict]) -> float | None:
    """The median over the rounds of (time with one process / time with two); a round in
    which either failed is left out."""
    ratios = [
        a["seconds"] / c["seconds"]
        for a, c in zip(one, two)
        if a.get("exit") in (0, 1) and c.get("exit") in (0, 1) and c.get("seconds")
    ]
    return round(statistics.median(ratios), 2) if ratios else None


def cpu_ratio(two: list[dict], one: list[dict]) -> float | None:
    """The median over the rounds of (CPU with --jobs 2 / CPU with --jobs 1); a round in
    which either failed is left out."""
    ratios = [
        a["cpu"] / c["cpu"]
        for a, c in zip(two, one)
        if a.get("exit") in (0, 1) and c.get("exit") in (0, 1) and c.get("cpu")
    ]
    return round(statistics.median(ratios), 3) if ratios else None


def floor_ratio(runs: list[dict], floor: list[dict]) -> float | None:
    """The median over the rounds of (si-lint's CPU / the floor's CPU); a round in which
    either failed is left out."""
    ratios = [
        c["cpu"] / f["cpu"]
        for c, f in zip(runs, floor)
        if c.get("exit") in (0, 1) and f.get("exit") == 0 and f.get("cpu")
    ]
    return round(statistics.median(ratios), 1) if ratios else None


def run_env(drop: tuple[str, ...] = ()) -> dict[str, str]:
    """The environment si-lint is measured in: this one without ``SI_LINT_CACHE_DIR`` and
    ``PYTHONDONTWRITEBYTECODE`` (an installed si-lint has its bytecode compiled; with the
    variable set, a tree without ``__pycache__`` compiles its modules on every run, which
    no user pays), nor the names in ``drop``."""
    gone = ("SI_LINT_CACHE_DIR", "PYTHONDONTWRITEBYTECODE", *drop)
    return {k: v for k, v in os.environ.items() if k not in gone}


class Bench:
    def __init__(self, args: argparse.Namespace, tmp: Path):
        self.args = args
        self.tmp = tmp
        self.si = si_lint_command(args.si_lint)
        self.opts = detect_options(self.si)
        self.notes: list[str] = []
        self.env = run_env()
        self.caches = 0

    def check(self, *extra: str, jobs: int | None = None) -> list[str]:
        cmd = [*self.si, "check", "--format", "json"]
        if jobs is not None and self.opts["jobs"]:
            cmd += ["--jobs", str(jobs)]
        return [*cmd, *extra]

    def jobs_label(self, jobs: int | None) -> str:
        return "si-lint's default --jobs" if jobs is None else f"--jobs {jobs}"

    def server(self, corpus: Path, edits: int) -> float | None:
        """The median ms from didChange to publishDiagnostics over ``edits`` edits of one
        scenario (``bench/bench_server.py`` on ``corpus``); None when not measured."""
        if edits <= 0:
            self.notes.append("--server-edits 0: the server row is not measured")
            return None
        cmd = [sys.executable, str(HERE / "bench_server.py"), "--corpus", str(corpus)]
        proc = subprocess.run(
            [*cmd, "--edits", str(edits), "--format", "json"],
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        try:
            return round(json.loads(proc.stdout)["server"]["median_ms"], 1)
        except (ValueError, KeyError, TypeError):
            tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
            self.notes.append(f"bench_server.py failed: {tail[0][:200]}")
            return None

    def fresh_cache(self) -> list[str]:
        self.caches += 1
        return ["--cache-dir", str(self.tmp / f"cache-{self.caches}")]

    def cached_rounds(
        self, corpus: Path, jobs: int | None, rounds: int, staged: Path | None, edit: list[Path]
    ) -> dict[str, list[dict]]:
        """Per round: fill a fresh cache, re-check warm, one staged file, one file changed."""
        out: dict[str, list[dict]] = {"fill": [], "warm": [], "staged": [], "changed": []}
        if not (self.opts["no_cache"] and self.opts["cache_dir"]):
            self.notes.append("si-lint has no --no-cache/--cache-dir: cache runs not measured")
            return out
        for r in range(rounds):
            cache = self.fresh_cache()
            out["fill"].append(
                measure(self.check(*cache, ".", jobs=jobs), corpus, self.env, report=True)
            )
            out["warm"].append(
                measure(self.check(*cache, ".", jobs=jobs), corpus, self.env, report=True)
            )
            if staged is not None:
                rel = staged.relative_to(corpus).as_posix()
                out["staged"].append(
                    measure(self.check(*cache, rel, jobs=jobs), corpus, self.env, report=True)
                )
            target = edit[r % len(edit)]
            with open(target, "a", encoding="utf-8", newline="\n") as fh:
                fh.write(f"# edited by bench/run.py (round {r})\n")
            out["changed"].append(
                measure(self.check(*cache, ".", jobs=jobs), corpus, self.env, report=True)
            )
        return out


def run(args: argparse.Namespace) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="si-lint-bench-"))
    try:
        return _run(args, tmp)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(args: argparse.Namespace, tmp: Path) -> dict:
    b = Bench(args, tmp)
    rounds = args.repeats if args.repeats else (1 if args.quick else 3)
    if rounds < 3:
        b.notes.append(f"{rounds} round(s) only (--quick/--repeats): medians of fewer than 3")
    measured: dict[str, float | None] = {k: None for k, *_ in GOALS}
    #: figures that are no goal but say how to read one (``REFERENCES``)
    references: dict[str, float | None] = {k: None for k in REFERENCES}
    raw: dict[str, dict] = {}
    corpus_info: dict[str, dict] = {}

    # -- 4,000 files: peer, floor, cold; then the cached runs --------------------------------
    small = tmp / "corpus"
    written = generate.generate(small, args.files, args.seed)
    files = _files(small)
    corpus_info["small"] = {"files": len(written), "bytes": sum(p.stat().st_size for p in written)}
    rels = [p.relative_to(small).as_posix() for p in files]
    floor_cmd, floor_what = build_floor(tmp)
    yl = (
        shlex.split(args.yamllint)
        if args.yamllint
        else (["yamllint"] if shutil.which("yamllint") else None)
    )
    if yl is None:
        b.notes.append("yamllint is not installed: ratios to it are n/a")
    stdin = ("\n".join(rels) + "\n").encode()
    peer, floor, cold, cold1, cold2 = [], [], [], [], []
    no_cache = ["--no-cache"] if b.opts["no_cache"] else []
    for _ in range(rounds):
        if yl is not None:
            peer.append(measure([*yl, "-d", "relaxed", "-f", "parsable", *rels], small))
        floor.append(measure(floor_cmd, small, stdin=stdin))
        cold.append(measure(b.check(*no_cache, ".", jobs=args.jobs), small, b.env, report=True))
        if b.opts["jobs"]:  # the --jobs overhead: the same with one process and with two
            cold1.append(measure(b.check(*no_cache, ".", jobs=1), small, b.env, report=True))
            cold2.append(measure(b.check(*no_cache, ".", jobs=2), small, b.env, report=True))
    ratios = [
        c["cpu"] / p["cpu"] for c, p in zip(cold, peer) if c.get("exit") in (0, 1) and p.get("cpu")
    ]
    if ratios:
        measured["cold_ratio"] = round(statistics.median(ratios), 3)
    measured["jobs_overhead"] = cpu_ratio(cold2, cold1)
    references["cold_floor"] = floor_ratio(cold, floor)
    references["floor_jobs1"] = floor_ratio(cold1, floor)
    raw["yamllint -d relaxed (peer)"] = peer
    raw[f"C-parse floor: {floor_what}"] = floor
    raw[f"si-lint check --no-cache (cold, {b.jobs_label(args.jobs)})"] = cold
    if cold1:
        raw["si-lint check --no-cache (cold, --jobs 1)"] = cold1
        raw["si-lint check --no-cache (cold, --jobs 2)"] = cold2
    reference = _findings(cold[0]) if cold else None

    scenario_files = sorted((small / "scenarios").rglob("*.yaml"))
    transcripts = sorted((small / "fixtures").rglob("*.yaml"))
    staged = scenario_files[len(scenario_files) // 2] if scenario_files else None
    edit = transcripts[len(transcripts) // 2 :: max(1, len(transcripts) // 7)] or scenario_files
    cached = b.cached_rounds(small, args.jobs, rounds, staged, edit)
    labels = {
        "fill": "empty cache (fill)",
        "warm": "warm re-check",
        "staged": f"one staged file, warm ({staged.relative_to(small).as_posix()})"
        if staged
        else "one staged file",
        "changed": "one file changed",
    }
    for key, results in cached.items():
        for r in results:
            got = _findings(r)
            if key == "staged" and reference is not None and got is not None:
                rel = staged.relative_to(small).as_posix()
                r["same_findings_as_cold"] = got == [d for d in reference if d.get("path") == rel]
            elif reference is not None and got is not None:
                r["same_findings_as_cold"] = got == reference
        raw[f"si-lint check, {labels[key]}"] = results
    measured["warm"] = median_of(cached["warm"], "cpu")
    measured["staged"] = median_of(cached["staged"], "cpu")
    measured["changed"] = median_of(cached["changed"], "cpu")
    corpus_info["small"]["edited"] = [p.relative_to(small).as_posix() for p in edit[:rounds]]
    measured["server"] = b.server(small, args.server_edits)

    # -- the published corpus ----------------------------------------------------------------
    if not Path(args.published).is_dir():
        b.notes.append(f"{args.published} is not there: the published corpus is not measured")
    else:
        published = tmp / "published"  # a copy: no run writes next to the shared data
        shutil.copytree(args.published, published)
        pub = [
            measure(b.check(*no_cache, ".", jobs=args.jobs), published, b.env, report=True)
            for _ in range(rounds)
        ]
        raw["published corpus: si-lint check --no-cache (cold)"] = pub
        measured["published"] = median_of(pub, "cpu")

    # -- 40,000 files ----------------------------------------------------------------------
    if args.no_big:
        b.notes.append("--no-big: the 40,000-file rows are not measured")
    else:
        shutil.rmtree(small, ignore_errors=True)  # disk and page cache for the big one
        big = tmp / "big"
        written = generate.generate(big, args.big_files, args.seed)
        corpus_info["big"] = {
            "files": len(written),
            "bytes": sum(p.stat().st_size for p in written),
        }
        j2, j1, p2, p1 = [], [], [], []
        big_rounds = 1 if args.quick else rounds
        for _ in range(big_rounds):
            j2.append(measure(b.check("--no-cache", ".", jobs=2), big, b.env, report=True))
            if b.opts["jobs"]:
                j1.append(measure(b.check("--no-cache", ".", jobs=1), big, b.env, report=True))
                p2.append(measure(peer_command(2), big))
                p1.append(measure(peer_command(1), big))
        raw["40,000 files: si-lint check --no-cache --jobs 2"] = j2
        raw["40,000 files: si-lint check --no-cache --jobs 1"] = j1
        raw["parallel peer (bench/parallel_peer.py) --jobs 2"] = p2
        raw["parallel peer (bench/parallel_peer.py) --jobs 1"] = p1
        references["big_cold"] = median_of(j2, "seconds")
        references["big_scaling"] = scaling(j1, j2)
        references["peer_scaling"] = scaling(p1, p2)
        btrans = sorted((big / "fixtures").rglob("*.yaml"))
        bcached = b.cached_rounds(big, 2, 1, None, btrans[len(btrans) // 2 :][:1])
        for key in ("fill", "warm", "changed"):
            raw[f"40,000 files: si-lint check --jobs 2, {labels[key]}"] = bcached[key]
        every = j2 + j1 + [r for v in bcached.values() for r in v]
        rss = [r["rss_mb"] for r in every if r.get("rss_mb") is not None]
        references["big_rss"] = max(rss) if rss else None
        shutil.rmtree(big, ignore_errors=True)

    # -- eval ------------------------------------------------------------------------------
    if args.eval_artifacts:
        edir = tmp / "eval"
        scenario, jsonl, nbytes = write_eval_input(edir, args.eval_artifacts, args.seed)
        corpus_info["eval"] = {"artifacts": args.eval_artifacts, "bytes": nbytes}
        ev = [
            measure(
                [*b.si, "eval", "--format", "json", scenario.name, jsonl.name],
                edir,
                b.env,
                report=True,
            )
            for _ in range(1 if args.quick else rounds)
        ]
        for r in ev:
            r["stdout_bytes"] = len(r.get("stdout", ""))
            r["verdicts"] = _eval_verdicts(r)
        raw[f"si-lint eval, {args.eval_artifacts:,} artifacts in one .jsonl"] = ev
        secs = median_of(ev, "seconds")
        if secs:
            references["eval_rate"] = round(args.eval_artifacts / secs)
        rss = [r["rss_mb"] for r in ev if r.get("rss_mb") is not None and r.get("exit") in (0, 1)]
        references["eval_rss"] = max(rss) if rss else None

    goals = []
    for key, figure, goal, test, unit in GOALS:
        v = measured[key]
        goals.append(
            {
                "key": key,
                "figure": figure,
                "goal": goal,
                "measured": v,
                "unit": unit,
                "met": None if v is None else bool(test(v)),
            }
        )
    for _name, results in raw.items():
        for r in results:
            r["summary"] = _summary(r)
            r.pop("stdout", None)
            if r.get("exit") in (0, 1):
                r.pop("stderr_tail", None)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "corpus": corpus_info,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "load_avg": _loadavg(),
        },
        "si_lint": {"command": b.si, "options": b.opts, "jobs": args.jobs},
        "rounds": rounds,
        "goals": goals,
        "references": [
            {"key": k, "figure": REFERENCES[k], "measured": v, "unit": REFERENCE_UNITS.get(k, "x")}
            for k, v in references.items()
        ],
        "measurements": {name: _medians(results) for name, results in raw.items()},
        "notes": b.notes,
        "kept": str(tmp) if args.keep else None,
    }


def _loadavg():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _eval_verdicts(result: dict):
    try:
        report = json.loads(result.get("stdout", ""))
    except ValueError:
        return None
    items = report.get("results") if isinstance(report, dict) else report
    return len(items) if isinstance(items, list) else None


def _medians(results: list[dict]) -> dict:
    ok = [r for r in results if r.get("exit") in (0, 1)]
    out = {
        "runs": len(results),
        "seconds": median_of(results, "seconds"),
        "cpu": median_of(results, "cpu"),
        "rss_mb": max((r["rss_mb"] for r in ok if r.get("rss_mb")), default=None),
        "exit": sorted({r.get("exit") for r in results}, key=str),
    }
    sums = [r.get("summary") for r in results]
    if any(sums):
        out["summary"] = next(s for s in sums if s)
    same = [r["same_findings_as_cold"] for r in results if "same_findings_as_cold" in r]
    if same:
        out["same_findings_as_cold"] = all(same)
    errors = [
        r.get("error") or r.get("stderr_tail") for r in results if r.get("exit") not in (0, 1)
    ]
    if errors:
        out["error"] = (errors[0] or "")[-600:]
    for extra in ("verdicts", "stdout_bytes"):
        vals = [r[extra] for r in results if r.get(extra) is not None]
        if vals:
            out[extra] = vals[0]
    return out


def write_eval_input(out: Path, n: int, seed: str) -> tuple[Path, Path, int]:
    """A one-scenario file and a ``.jsonl`` of ``n`` oasisctl artifacts against it (each with
    a 100-line log result, a realistic kubectl response)."""
    import random

    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"si-lint-bench-eval:{seed}")
    team, prefixes = generate.TEAMS[0]
    s = generate.make_scenario(0, team, prefixes, False, rng)
    scenario = out / "scenario.yaml"
    scenario.write_text(generate.formb_yaml(s)[len("---\n") :], encoding="utf-8")
    jsonl = out / "evidence.jsonl"
    with open(jsonl, "w", encoding="utf-8", newline="\n") as fh:
        for i in range(n):
            row = i % s.rows + 1
            _case, calls, answer, interim, _why = generate.fixture_events(s, row, i // s.rows, rng)
            noise = "\n".join(
                f"2026-11-20T10:{k // 60:02d}:{k % 60:02d}Z info request served "
                f"path=/api/v1/items/{rng.randrange(10**6)} status=200"
                for k in range(100)
            )
            calls = [(c, f"{noise}\n{r}" if " logs " in c else r) for c, r in calls]
            art = generate.artifact(s, calls, answer, interim, rng)
            fh.write(json.dumps(art, ensure_ascii=False) + "\n")
    return scenario, jsonl, jsonl.stat().st_size


# ---------------------------------------------------------------------------------------
# output


def _fmt(v, unit: str = "") -> str:
    if v is None:
        return "n/a"
    if unit == "/s":
        return f"{v:,.0f}/s"
    if unit == "MB":
        return f"{v:,.0f} MB"
    if unit == "s":
        return f"{v:.3f} s"
    if unit == "ms":
        return f"{v:.0f} ms"
    if unit == "x":
        return f"{v}x" if isinstance(v, float) and v >= 1 else f"{v}"
    return str(v)


def _jobs_text(jobs) -> str:
    return "with its default --jobs" if jobs is None else f"--jobs {jobs}"


def markdown(report: dict) -> str:
    c = report["corpus"]
    m = report["machine"]
    lines = [
        f"{report['date']}; {m['cpus']} CPUs, load average {m['load_avg']}, Python "
        f"{m['python']}; si-lint {_jobs_text(report['si_lint']['jobs'])}; median of "
        f"{report['rounds']} paired round(s)"
    ]
    for name, info in c.items():
        size = info.get("bytes", 0) / 1e6
        what = (
            f"{info['artifacts']:,} artifacts"
            if "artifacts" in info
            else f"{info['files']:,} files"
        )
        lines.append(f"- corpus `{name}`: {what}, {size:.1f} MB")
    lines += ["", "| figure | measured | goal | met |", "|---|---:|---|---|"]
    for g in report["goals"]:
        met = "not measured" if g["met"] is None else ("met" if g["met"] else "**not met**")
        lines.append(f"| {g['figure']} | {_fmt(g['measured'], g['unit'])} | {g['goal']} | {met} |")
    lines += [
        "",
        "| run | median s | median CPU s | peak RSS MB | exit | findings (E/W/I) "
        "| same findings as cold |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for name, r in report["measurements"].items():
        s = r.get("summary") or {}
        counts = f"{s.get('errors')}/{s.get('warnings')}/{s.get('infos')}" if s else "-"
        same = r.get("same_findings_as_cold")
        same = "-" if same is None else ("yes" if same else "**NO**")
        extra = f" ({r['error'].strip().splitlines()[-1][:120]})" if r.get("error") else ""
        lines.append(
            f"| {name} | {_fmt(r['seconds'])} | {_fmt(r['cpu'])} | "
            f"{_fmt(r['rss_mb'])} | {','.join(map(str, r['exit']))}{extra} | "
            f"{counts} | {same} |"
        )
    refs = report.get("references") or []
    if refs:
        lines += [""] + [
            f"- reference: {r['figure']}: {_fmt(r['measured'], r.get('unit', 'x'))}" for r in refs
        ]
    for n in report["notes"]:
        lines.append(f"\nnote: {n}")
    if report.get("kept"):
        lines.append(f"\nkept at {report['kept']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--files", type=int, default=SMALL_FILES, help="files of the main corpus (default 4000)"
    )
    ap.add_argument(
        "--big-files", type=int, default=BIG_FILES, help="files of the large corpus (default 40000)"
    )
    ap.add_argument("--no-big", action="store_true", help="skip the 40,000-file rows")
    ap.add_argument(
        "--eval-artifacts",
        type=int,
        default=10_000,
        help="artifacts in the eval .jsonl (0: skip the eval rows)",
    )
    ap.add_argument("--seed", default="0")
    ap.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="--jobs for the 4,000-file runs (default: si-lint's own default)",
    )
    ap.add_argument(
        "--server-edits",
        type=int,
        default=20,
        help="edits for the server row (bench/bench_server.py; 0: skip it)",
    )
    ap.add_argument(
        "--published",
        default=str(PUBLISHED),
        help="the published corpus (default: ../shared/data/oasis-si/software-infrastructure)",
    )
    ap.add_argument("--repeats", type=int, default=None, help="paired rounds (default 3)")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="one round (and one 40,000-file round): for a busy machine",
    )
    ap.add_argument("--format", choices=("md", "json"), default="md")
    ap.add_argument("--si-lint", help="command that runs si-lint (default: si-lint on PATH)")
    ap.add_argument("--yamllint", help="command that runs yamllint (default: yamllint)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument(
        "--check-goals", action="store_true", help="exit 1 when a measured goal is not met"
    )
    args = ap.parse_args(argv)
    if args.files < generate.MIN_FILES or args.big_files < generate.MIN_FILES:
        ap.error(f"--files and --big-files must be >= {generate.MIN_FILES}")
    if (args.jobs is not None and args.jobs < 1) or (args.repeats is not None and args.repeats < 1):
        ap.error("--jobs and --repeats must be >= 1")
    report = run(args)
    try:
        if args.format == "json":
            print(json.dumps(report, indent=2, sort_keys=True))
        else:
            print(markdown(report), end="")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if args.check_goals and any(g["met"] is False for g in report["goals"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
