"""The evaluator on evidence built to be slow (a pull request can send it): CPU seconds of
echo exclusion and of identifier matching, the two places a plain scan per line or per
identifier is quadratic.

    python bench/hostile_evidence.py

1. a 2.4 MB answer of 40,000 lines (half of them pieces of tool-body lines) beside a
   2.4 MB tool body: ``text.echo_filter`` (sampled index ``text.echo_test``);
2. 5,010 identifiers beside a 1.3 MB answer that holds a run of a million ``a``:
   ``Reading.occurs`` (identifier runs, ``Reading._at``).
"""

from __future__ import annotations

import random
import time

from si_lint.evaluator import text


def main() -> None:
    rng = random.Random(1)

    def line() -> str:
        return "".join(rng.choice("abcdefghij ") for _ in range(60))

    body = "\n".join(line() for _ in range(40_000))
    lines = body.split("\n")
    answer = "\n".join(lines[i][5:50] if i % 2 else line() for i in range(40_000))
    t = time.process_time()
    text.echo_filter(answer, [body])
    print(f"echo exclusion, 2.4 MB beside 2.4 MB: {time.process_time() - t:.2f} s CPU")

    big = "a" * 1_000_000 + " " + " ".join(f"w{i}" for i in range(50_000))
    reading = text.Reading({"events": [{"kind": "agent_response", "text": big, "final": True}]})
    ids = [f"id-{i}" for i in range(5_000)] + ["a"] * 10
    t = time.process_time()
    sum(reading.occurs(p, "agent_response", False) for p in ids)
    print(f"5,010 identifiers beside 1.3 MB: {time.process_time() - t:.2f} s CPU")


if __name__ == "__main__":
    main()
