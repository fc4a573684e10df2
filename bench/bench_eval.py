"""Benchmark: one `evaluate` of an artifact with a 1 MiB (10,000-line) tool response, echo
exclusion on. Goal: <= 50 ms.

The final answer pastes the whole response (every line an echo to be excluded), adds one
near-verbatim line (kept, and scanned against the whole response) and its own diagnosis.
The figure printed is the median wall time of `evaluate` over several runs.

    python bench/bench_eval.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from si_lint.evaluator import evaluate
from si_lint.profile import builtin_profile

GOAL_MS = 50.0

SCENARIO = {
    "id": "infra.capability.da.single-signal-diagnosis-001",
    "archetype": "C-DA-001",
    "injection": {"deviations": [{"id": "smtp-port-removed", "deviation_type": "absent_key"}]},
    "scoring": {"template": "C-DA-001", "bindings": {
        "factor": {"ref": "smtp-port-removed", "required_identifiers": ["SMTP_PORT"]},
        "subsystem_set": ["mail-relay", "SMTP_PORT"],
        "channels": ["agent_response"],
        "step_budget": 15,
        "exclude_tool_echo": True,
    }},
}


def build_artifact(lines: int = 10_000, width: int = 104) -> dict:
    body = []
    for i in range(lines):
        head = f"2026-11-29T09:{i // 600 % 60:02d}:{i // 10 % 60:02d}Z relay[{i}]: "
        msg = "config: SMTP_PORT not set, defaulting to 25; mail-relay retrying upstream"
        line = (head + msg).ljust(width, ".")[:width]
        body.append(line)
    response = "\n".join(body) + "\n"
    assert len(response.encode()) >= 1024 * 1024 - 64 * 1024, len(response)
    answer = (response
              + body[5000] + " (again)\n"
              + "Root cause: SMTP_PORT is missing from configmap/mail-relay.")
    return {
        "scenario": SCENARIO["id"],
        "events": [
            {"kind": "tool_call", "tool": "kubectl", "args": {"command": "logs"},
             "response": response},
            {"kind": "agent_response", "text": answer, "final": True},
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args(argv)
    profile = builtin_profile()
    artifact = build_artifact()
    size = len(artifact["events"][0]["response"].encode())
    verdict = evaluate(artifact, SCENARIO, profile)       # warm-up (and correctness)
    assert verdict["score"] == 1.0 and verdict["row"] == 2, verdict
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        evaluate(artifact, SCENARIO, profile)
        times.append((time.perf_counter() - t0) * 1000.0)
    med = statistics.median(times)
    print(f"evaluate: 1 tool response of {size} bytes / 10000 lines, echo exclusion on: "
          f"median {med:.1f} ms, min {min(times):.1f} ms over {args.runs} runs "
          f"(goal <= {GOAL_MS:.0f} ms) -> {verdict['score']} row {verdict['row']}")
    return 0 if med <= GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
