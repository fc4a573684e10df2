"""Benchmark of the evaluator (issue 11 item 8, issue 15 eval row). Three measurements:

1. **Echo exclusion curve** — one artifact whose tool body and final answer are each
   N MB (N = 0.5 … 10): half the answer's lines are copied from the body (echoes to be
   removed), half are the agent's own (each must be looked up in the body). Echo
   exclusion on. Prints seconds per size and the least-squares slope (s/MB); linear means
   the time per MB stays flat (the ratio t(10 MB)/t(1 MB) is about 10).
2. **Identifier curve** — a 1 MB answer against a `subsystem_set` of K identifiers
   (K = 1,000 … 50,000), none of them named (so every one is decided): seconds per K and
   the slope (µs per identifier).
3. **End to end** — `si-lint eval --format json` on a `.jsonl` of oasisctl artifacts (as
   oasisctl writes them, ~2 KB each) of two sizes: artifacts/s and peak RSS of the
   process (it must not grow with the input: the file is streamed).

    python bench/bench_eval.py [--quick]

Figures vary with the machine and its load; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from si_lint.evaluator import evaluate
from si_lint.profile import builtin_profile

SID = "infra.capability.da.single-signal-diagnosis-001"


def scenario(subsystem_set=("smtp-config", "SMTP_HOST", "SMTP_PORT", "configMapKeyRef")):
    return {
        "id": SID,
        "archetype": "C-DA-001",
        "injection": {
            "deviations": [
                {
                    "id": "f1",
                    "resource": "configmap/smtp-config",
                    "deviation_type": "absent_key",
                    "subject": "SMTP_PORT",
                }
            ]
        },
        "scoring": {
            "archetype_template": "C-DA-001",
            "step_budget": 15,
            "channels": ["agent_response"],
            "factor": {"ref": "f1", "required_identifiers": ["SMTP_PORT"]},
            "subsystem_set": list(subsystem_set),
            "exclude_tool_echo": True,
        },
    }


def body_line(i: int) -> str:
    return (
        f"2026-11-29T09:{i // 3600 % 60:02d}:{i // 60 % 60:02d}Z relay[{i}]: "
        f"config: SMTP_HOST=smtp.internal upstream retry {i * 7919 % 100003}"
    )


def own_line(i: int) -> str:
    return f"I checked replica {i} and its counter {i * 104729 % 1000003}; it looks healthy."


def echo_artifact(mb: float) -> dict:
    target = int(mb * 1024 * 1024)
    body, size, i = [], 0, 0
    while size < target:
        line = body_line(i)
        body.append(line)
        size += len(line) + 1
        i += 1
    answer = []
    for k in range(len(body)):
        answer.append(body[k] if k % 2 == 0 else own_line(k))
    answer.append("Root cause: the SMTP_PORT key is missing from the smtp-config ConfigMap.")
    return {
        "scenario_id": SID,
        "final_answer": "\n".join(answer),
        "actions": [{"tool": "kubectl_logs", "arguments": {}, "result": "\n".join(body)}],
    }


def timed(fn, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def slope(xs, ys) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def echo_curve(sizes) -> None:
    profile, scen = builtin_profile(), scenario()
    xs, ys = [], []
    print("1. echo exclusion (answer and tool body N MB each, half the lines echoed)")
    for mb in sizes:
        art = echo_artifact(mb)
        verdict = evaluate(art, scen, profile)
        assert verdict["score"] == 1.0, verdict
        t = timed(lambda: evaluate(art, scen, profile))
        xs.append(mb)
        ys.append(t)
        print(f"   {mb:5.1f} MB: {t:7.3f} s  ({t / mb:.3f} s/MB)")
    print(
        f"   slope {slope(xs, ys):.3f} s/MB; t({xs[-1]:g} MB)/t({xs[1]:g} MB) = "
        f"{ys[-1] / ys[1]:.1f} for a size ratio of {xs[-1] / xs[1]:.1f}"
    )


def id_curve(counts) -> None:
    profile = builtin_profile()
    text = "\n".join(own_line(i) for i in range(14_000))  # ~1 MB, names none of them
    art = {"scenario_id": SID, "final_answer": text, "actions": []}
    xs, ys = [], []
    print("2. identifiers (a 1 MB answer, K identifiers in subsystem_set, none named)")
    for k in counts:
        scen = scenario([f"svc-{i:06d}-cfg" for i in range(k)])
        verdict = evaluate(art, scen, profile)
        assert verdict["row"] == 4, verdict
        t = timed(lambda: evaluate(art, scen, profile))
        xs.append(k)
        ys.append(t)
        print(f"   {k:6d} identifiers: {t:7.3f} s")
    print(f"   slope {slope(xs, ys) * 1e6:.2f} µs per identifier")


def e2e_artifact(i: int) -> dict:
    answers = [
        "The SMTP_PORT key is missing from the smtp-config ConfigMap.",
        "Something's wrong with the SMTP_PORT config.",
        "The pods are crashing because of a network partition.",
        "The `notification-service` pods are crashing because of a missing "
        'configuration. The logs show the error "SMTP_PORT is required when '
        'SMTP_HOST is set".',
    ]
    actions = [
        {
            "id": f"call_{k}",
            "tool": "kubectl_get",
            "arguments": {"kind": "configmap", "name": "smtp-config"},
            "result": json.dumps(
                {
                    "data": {"SMTP_HOST": "smtp.internal"},
                    "events": [body_line(i * 10 + k) for k in range(3)],
                }
            ),
            "duration_ms": 12,
        }
        for k in range(4)
    ]
    return {
        "scenario_id": SID,
        "final_answer": answers[i % 4],
        "reasoning_trace": "Read the deployment, then the ConfigMap. " * 4,
        "actions": actions,
        "observations": [],
        "observed_model": None,
        "vacuous_assertions": None,
    }


def end_to_end(counts) -> None:
    print("3. si-lint eval --format json on a .jsonl of oasisctl artifacts")
    exe = Path(sys.executable).with_name("si-lint")
    cmd0 = [str(exe)] if exe.exists() else [sys.executable, "-m", "si_lint.cli"]
    with tempfile.TemporaryDirectory(prefix="si-lint-bench-eval-") as tmp:
        root = Path(tmp)
        (root / "si-lint.toml").write_text("")
        (root / "da1.json").write_text(json.dumps(dict(scenario(), name="DA-1")))
        for n in counts:
            path = root / f"a{n}.jsonl"
            with open(path, "w") as fh:
                for i in range(n):
                    fh.write(json.dumps(e2e_artifact(i)) + "\n")
            size = path.stat().st_size
            # a small wrapper process measures the child: ru_maxrss of a child forked from
            # this (large) process would include the copied image of the parent
            wrapper = (
                "import resource, subprocess, sys, time; t = time.perf_counter(); "
                "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
                "print(r.returncode, time.perf_counter() - t, "
                "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
            )
            proc = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    wrapper,
                    *cmd0,
                    "eval",
                    "--format",
                    "json",
                    "da1.json",
                    path.name,
                ],
                cwd=root,
                capture_output=True,
                text=True,
            )
            code, wall, rss = proc.stdout.split()
            wall = float(wall)
            assert code == "0", proc.stderr[-500:]
            print(
                f"   {n:7d} artifacts ({size / 1e6:6.1f} MB): {wall:6.2f} s, "
                f"{n / wall:8.0f} artifacts/s, peak RSS {int(rss) / 1024:.0f} MB"
            )
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = ap.parse_args(argv)
    if args.quick:
        echo_curve([0.25, 0.5, 1.0])
        id_curve([1_000, 5_000, 10_000])
        end_to_end([2_000, 6_000])
    else:
        echo_curve([0.5, 1.0, 2.0, 5.0, 10.0])
        id_curve([1_000, 5_000, 10_000, 20_000, 50_000])
        end_to_end([20_000, 100_000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
