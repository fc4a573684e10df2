#!/usr/bin/env python3
"""Benchmark si-lint against yamllint on a generated corpus, all in one run.

    python bench/run.py [--scenarios 1000] [--fixtures 3] [--jobs N] [--format md|json]

Generates a corpus with ``bench/generate.py`` into a temporary directory, then measures,
each as a separate process with the corpus directory as working directory:

1. ``yamllint -d relaxed .``                    — the peer, on the same files
2. ``si-lint check --no-cache .``               — cold, no cache
3. ``si-lint check --cache-dir C .``            — cold, filling a fresh cache
4. the same again                               — warm re-check
5. the same after one fixture was edited        — one-file-changed

and reports wall-clock seconds, the ratio to yamllint, the peak resident memory of the
largest process (``wait4`` rusage, like ``/usr/bin/time -v``) and of the whole process
tree (sampled from ``/proc``, which counts ``--jobs`` workers together), the exit status
and the finding counts. Options si-lint does not offer (the cache, ``--jobs``) are
detected from ``si-lint check --help`` and reported as ``n/a``, never a crash. The
warm and one-file-changed reports are compared with the cold one (the edit only appends
a comment): a cache that changes the findings is flagged.

Goals (issue 7): cold <= 0.25 x yamllint on 4,000 files; warm and one-file-changed
<= 0.5 s; 40,000 files (``--scenarios 10000``) cold <= 20 s on 2 cores (``--jobs 2``) and
<= 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/generate.py, next to this file)

GOAL_COLD_RATIO = 0.25
GOAL_WARM_S = 0.5
GOAL_BIG_FILES = 40_000
GOAL_BIG_COLD_S = 20.0
GOAL_MEMORY_MB = 500.0


# ---------------------------------------------------------------------------------------
# process measurement


def _proc_tree_rss(root: int, page: int) -> int:
    """Resident bytes of ``root`` and all its descendants (Linux /proc; 0 elsewhere)."""
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
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            pass
        todo.extend(children.get(pid, ()))
    return total


def measure(cmd: list[str], cwd: Path, env: dict | None = None,
            sample_s: float = 0.1) -> dict:
    """Run ``cmd``; wall seconds, exit code, peak RSS (largest process, process tree)."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
    except OSError as exc:
        return {"error": f"cannot run {cmd[0]}: {exc}"}
    peak = [0]
    done = threading.Event()
    linux_proc = os.path.isdir("/proc/self")
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def sampler() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _proc_tree_rss(proc.pid, page))
            done.wait(sample_s)

    thread = threading.Thread(target=sampler, daemon=True)
    if linux_proc:
        thread.start()
    try:
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            # Linux reports ru_maxrss in KiB, macOS in bytes
            maxrss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
        else:  # pragma: no cover - non-POSIX
            proc.wait()
            seconds = time.perf_counter() - start
            maxrss = None
    finally:
        done.set()
        if linux_proc:
            thread.join()
    out.seek(0)
    err.seek(0)
    stdout = out.read().decode("utf-8", "replace")
    stderr = err.read().decode("utf-8", "replace")
    out.close()
    err.close()
    return {
        "cmd": cmd,
        "seconds": round(seconds, 4),
        "exit": proc.returncode,
        "max_rss_mb": None if maxrss is None else round(maxrss / 2**20, 1),
        "tree_peak_rss_mb": round(peak[0] / 2**20, 1) if linux_proc and peak[0] else None,
        "stdout": stdout,
        "stderr_tail": stderr[-2000:],
    }


# ---------------------------------------------------------------------------------------


def si_lint_command(given: str | None) -> list[str]:
    if given:
        return shlex.split(given)
    exe = shutil.which("si-lint")
    return [exe] if exe else [sys.executable, "-m", "si_lint.cli"]


def detect_options(si: list[str]) -> dict:
    try:
        proc = subprocess.run([*si, "check", "--help"], capture_output=True, text=True,
                              timeout=60, check=False)
        text = proc.stdout
    except (OSError, subprocess.SubprocessError):
        text = ""
    return {
        "check": "Usage" in text,
        "no_cache": "--no-cache" in text,
        "cache_dir": "--cache-dir" in text,
        "jobs": "--jobs" in text,
        "format_json": "json" in text,
    }


def _summary(result: dict | None) -> dict | None:
    if not result or "stdout" not in result:
        return None
    try:
        report = json.loads(result["stdout"])
    except ValueError:
        return None
    if not isinstance(report, dict):
        return None
    return {"summary": report.get("summary"), "diagnostics": report.get("diagnostics")}


def run(args: argparse.Namespace) -> dict:
    si = si_lint_command(args.si_lint)
    opts = detect_options(si)
    tmp = Path(tempfile.mkdtemp(prefix="si-lint-bench-"))
    corpus = tmp / "corpus"
    try:
        written = generate.generate(corpus, args.scenarios, args.fixtures, args.seed)
        corpus_info = {
            "scenarios": args.scenarios, "fixtures_per_scenario": args.fixtures,
            "seed": args.seed, "files": len(written),
            "bytes": sum(p.stat().st_size for p in written),
        }
        results: dict[str, dict | None] = {}
        notes: list[str] = []

        yl = shlex.split(args.yamllint) if args.yamllint else ["yamllint"]
        if args.no_peer:
            results["yamllint"] = None
            notes.append("--no-peer: yamllint not run, ratios are n/a")
        elif args.yamllint or shutil.which("yamllint"):
            results["yamllint"] = measure([*yl, "-d", "relaxed", "-f", "parsable", "."],
                                          corpus)
        else:
            results["yamllint"] = None
            notes.append("yamllint is not installed: ratios are n/a")

        base = [*si, "check"]
        if opts["format_json"]:
            base += ["--format", "json"]
        if args.jobs is not None:
            if opts["jobs"]:
                base += ["--jobs", str(args.jobs)]
            else:
                notes.append(f"si-lint check has no --jobs: --jobs {args.jobs} ignored")
        env = dict(os.environ)
        env.pop("SI_LINT_CACHE_DIR", None)

        if not opts["check"]:
            notes.append("`si-lint check --help` failed: si-lint is not runnable")
            for key in ("cold_no_cache", "cold_cache", "warm", "one_file_changed"):
                results[key] = None
        else:
            if opts["no_cache"]:
                results["cold_no_cache"] = measure([*base, "--no-cache", "."], corpus, env)
            else:
                results["cold_no_cache"] = measure([*base, "."], corpus, env)
                notes.append("si-lint check has no --no-cache: cold run may use a cache")
            if opts["no_cache"]:  # a linter with a cache offers a way to bypass it
                cache = tmp / "cache"
                cached = [*base, *(["--cache-dir", str(cache)] if opts["cache_dir"] else []),
                          "."]
                cenv = dict(env) if opts["cache_dir"] else dict(env, SI_LINT_CACHE_DIR=str(cache))
                results["cold_cache"] = measure(cached, corpus, cenv)
                results["warm"] = measure(cached, corpus, cenv)
                files = (sorted((corpus / "fixtures").rglob("*.yaml"))
                         or sorted((corpus / "scenarios").rglob("*.yaml")))
                target = files[len(files) // 2]
                with open(target, "a", encoding="utf-8", newline="\n") as fh:
                    fh.write("# edited by bench/run.py\n")
                results["one_file_changed"] = measure(cached, corpus, cenv)
                corpus_info["edited_file"] = target.relative_to(corpus).as_posix()
            else:
                notes.append("si-lint has no cache (no --no-cache option): cache runs n/a")
                for key in ("cold_cache", "warm", "one_file_changed"):
                    results[key] = None
        reference = _summary(results.get("cold_no_cache"))
        for key in ("cold_cache", "warm", "one_file_changed"):
            got = _summary(results.get(key))
            if results.get(key) is not None:
                results[key]["same_findings_as_cold"] = (
                    None if reference is None or got is None else got == reference)
        return {
            "corpus": corpus_info,
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "platform": platform.platform()},
            "si_lint": {"command": si, "options": opts, "jobs": args.jobs},
            "measurements": {k: _public(v) for k, v in results.items()},
            "goals": goals(results, corpus_info, args),
            "notes": notes,
            "kept": str(corpus) if args.keep else None,
        }
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def _public(result: dict | None) -> dict | None:
    if result is None:
        return None
    out = {k: v for k, v in result.items() if k not in ("stdout",)}
    summary = _summary(result)
    out["summary"] = summary["summary"] if summary else None
    if result.get("exit") in (0, 1) or "error" in result:
        out.pop("stderr_tail", None)
    return out


def goals(results: dict, corpus: dict, args: argparse.Namespace) -> list[dict]:
    def sec(key: str):
        r = results.get(key)
        return r.get("seconds") if r and "seconds" in r else None

    def mem(key: str):
        r = results.get(key) or {}
        vals = [v for v in (r.get("max_rss_mb"), r.get("tree_peak_rss_mb")) if v is not None]
        return max(vals) if vals else None

    out = []
    yl, cold = sec("yamllint"), sec("cold_no_cache")
    ratio = round(cold / yl, 3) if yl and cold is not None else None
    out.append({"goal": f"cold <= {GOAL_COLD_RATIO} x yamllint (4,000 files)",
                "measured": ratio, "ok": None if ratio is None else ratio <= GOAL_COLD_RATIO})
    for key, label in (("warm", "warm re-check"), ("one_file_changed", "one file changed")):
        s = sec(key)
        out.append({"goal": f"{label} <= {GOAL_WARM_S} s", "measured": s,
                    "ok": None if s is None else s <= GOAL_WARM_S})
    big = corpus["files"] >= GOAL_BIG_FILES
    note = None if big else f"needs >= {GOAL_BIG_FILES} files (--scenarios 10000)"
    jobs_ok = args.jobs == 2
    out.append({"goal": f"{GOAL_BIG_FILES:,} files cold <= {GOAL_BIG_COLD_S} s on 2 cores "
                        "(--jobs 2)",
                "measured": cold if big else None,
                "ok": (cold <= GOAL_BIG_COLD_S) if big and cold is not None and jobs_ok
                else None,
                "note": note if note else (None if jobs_ok else "run with --jobs 2")})
    peak = max((m for m in (mem(k) for k in ("cold_no_cache", "cold_cache", "warm",
                                              "one_file_changed")) if m is not None),
               default=None)
    out.append({"goal": f"peak memory <= {GOAL_MEMORY_MB:.0f} MB", "measured": peak,
                "ok": None if peak is None else peak <= GOAL_MEMORY_MB})
    return out


# ---------------------------------------------------------------------------------------
# output

LABELS = [("yamllint", "yamllint -d relaxed (peer)"),
          ("cold_no_cache", "si-lint check --no-cache (cold)"),
          ("cold_cache", "si-lint check, empty cache (cold)"),
          ("warm", "si-lint check, warm cache"),
          ("one_file_changed", "si-lint check, one file changed")]


def _fmt(v, spec: str = "") -> str:
    return "n/a" if v is None else format(v, spec)


def markdown(report: dict) -> str:
    c = report["corpus"]
    lines = [f"Corpus: {c['scenarios']} scenarios x {c['fixtures_per_scenario']} fixtures = "
             f"{c['files']} files, {c['bytes'] / 1e6:.2f} MB (seed {c['seed']}); "
             f"{report['machine']['cpus']} CPUs, Python {report['machine']['python']}"
             + (f"; si-lint --jobs {report['si_lint']['jobs']}"
                if report["si_lint"]["jobs"] is not None else ""),
             "",
             "| measurement | seconds | x yamllint | max RSS (MB) | tree peak RSS (MB) "
             "| exit | errors/warnings/infos | same findings as cold |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    m = report["measurements"]
    yl = (m.get("yamllint") or {}).get("seconds")
    for key, label in LABELS:
        r = m.get(key)
        if r is None or "seconds" not in r:
            why = (r or {}).get("error", "n/a")
            lines.append(f"| {label} | n/a | n/a | n/a | n/a | n/a | {why} | n/a |")
            continue
        ratio = round(r["seconds"] / yl, 3) if yl else None
        s = r.get("summary") or {}
        counts = (f"{s.get('errors')}/{s.get('warnings')}/{s.get('infos')}" if s
                  else ("-" if key == "yamllint" else "n/a"))
        same = r.get("same_findings_as_cold")
        same_txt = "-" if key in ("yamllint", "cold_no_cache") else \
            ("n/a" if same is None else ("yes" if same else "**NO**"))
        lines.append(f"| {label} | {r['seconds']:.3f} | {_fmt(ratio)} | "
                     f"{_fmt(r.get('max_rss_mb'))} | {_fmt(r.get('tree_peak_rss_mb'))} | "
                     f"{r['exit']} | {counts} | {same_txt} |")
    lines += ["", "| goal | measured | met |", "|---|---:|---|"]
    for g in report["goals"]:
        met = "n/a" if g["ok"] is None else ("yes" if g["ok"] else "**no**")
        if g.get("note"):
            met += f" ({g['note']})"
        lines.append(f"| {g['goal']} | {_fmt(g['measured'])} | {met} |")
    for n in report["notes"]:
        lines.append(f"\nnote: {n}")
    if report.get("kept"):
        lines.append(f"\ncorpus kept at {report['kept']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenarios", type=int, default=1000)
    ap.add_argument("--fixtures", type=int, default=3, help="fixtures per scenario")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--jobs", type=int, default=None, help="pass --jobs N to si-lint check")
    ap.add_argument("--format", choices=("md", "json"), default="md")
    ap.add_argument("--si-lint", help="command that runs si-lint (default: si-lint on PATH)")
    ap.add_argument("--yamllint", help="command that runs yamllint (default: yamllint)")
    ap.add_argument("--no-peer", action="store_true",
                    help="do not run yamllint (e.g. for the 40,000-file goal, which is absolute)")
    ap.add_argument("--keep", action="store_true", help="keep the generated corpus")
    ap.add_argument("--check-goals", action="store_true",
                    help="exit 1 when a measured goal is not met")
    args = ap.parse_args(argv)
    if args.scenarios < 1 or args.fixtures < 0:
        ap.error("--scenarios must be >= 1 and --fixtures >= 0")
    if args.jobs is not None and args.jobs < 1:
        ap.error("--jobs must be >= 1")
    report = run(args)
    try:
        if args.format == "json":
            print(json.dumps(report, indent=2, sort_keys=True))
        else:
            print(markdown(report), end="")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if args.check_goals and any(g["ok"] is False for g in report["goals"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
