"""SI406's wording for the case at hand: which identifier set of the partial band lacks
which of the factor's identifiers, named as the author edits it (``subsystem_set`` of a
Form B scenario, the ``identifier_set`` of a composite's row)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..mapping import MAPPING

PARTIAL_CREDIT = "(an answer that names the right key without characterising it is partial credit)"


def _score(row: Any) -> float | None:
    s = row.get("score") if isinstance(row, MAPPING) else None
    return float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) else None


def _identifier_sets(node: Any) -> Iterator[Any]:
    """The ``identifier_set`` arguments of every ``named_in_output`` call in ``node``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, MAPPING):
            call = n.get("named_in_output")
            if isinstance(call, MAPPING) and "identifier_set" in call:
                yield call["identifier_set"]
            stack.extend(v for k, v in n.items() if k != "named_in_output")
        elif isinstance(n, list):
            stack.extend(reversed(n))


def _answer_ids(artifact: Any) -> list[str]:
    """The identifiers the SI406 probe's final answer names (one a line)."""
    events = artifact.get("events") if isinstance(artifact, MAPPING) else None
    last = events[-1] if isinstance(events, list) and events else None
    text = last.get("text") if isinstance(last, MAPPING) else None
    return [s for s in text.split("\n") if s] if isinstance(text, str) else []


def partial_band(table: Any, scenario: Any, probe: Any) -> tuple[str, str | None]:
    """(a tail for SI406's message, its help) naming the partial band's identifier set
    and the factor identifiers it lacks; ``("", None)`` when that is not the reason (or
    ``probe`` is no SI406 probe)."""
    if probe.code != "SI406":
        return "", None
    rows = table if isinstance(table, list) else []
    scores = [s for s in map(_score, rows) if s is not None]
    top = max(scores, default=0.0)
    wanted = _answer_ids(probe.artifact)
    scoring = scenario.get("scoring") if isinstance(scenario, MAPPING) else None
    for i, row in enumerate(rows, start=1):
        score = _score(row)
        if score is None or not 0.0 < score < top:
            continue
        for arg in _identifier_sets(row.get("when")):
            if isinstance(arg, str) and arg.startswith("$") and isinstance(scoring, MAPPING):
                key, members = f"`{arg[1:]}`", scoring.get(arg[1:])
            elif isinstance(arg, list):
                key, members = f"the `identifier_set` of row {i}", arg
            else:
                continue
            missing = [w for w in wanted if not (isinstance(members, list) and w in members)]
            if missing:
                names = ", ".join(missing)
                return f"; {key} does not hold {names}", f"add {names} to {key} {PARTIAL_CREDIT}"
    return "", None
