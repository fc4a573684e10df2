"""Why a verdict is what it is, for ``eval`` and ``review``: the row that fired and the
clause that failed in each row before it. Matching is on the normalised text (SPEC §5),
but a quote shows the sentence as the artifact wrote it, and an identifier as the scenario
spelt it. It re-reads the :class:`~si_lint.evaluator.text.Reading` the verdict was computed
from, so it never disagrees with the score.
"""

from __future__ import annotations

from typing import Any

from .primitives import channels_of, factor_check, flag_of, patterns_of
from .tables import CompiledTable
from .text import Reading, nonblank_spans, normalize

_MAX_QUOTE = 100


def _quote(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > _MAX_QUOTE:
        text = text[: _MAX_QUOTE - 1] + "…"
    return f'"{text}"'


def _sentence(reading: Reading, channel: str, echo: bool, k: int) -> str:
    """The ``k``-th non-blank sentence of the channel as the artifact wrote it, when the raw
    text's sentences normalise to the matched ones (else the normalised sentence)."""
    spans = reading.spans(channel, echo)
    a, b = spans[k]
    shown = reading.scope(channel, echo)[a:b]
    raw = reading.raw_scope(channel, echo)
    raw_spans = nonblank_spans(raw)
    if len(raw_spans) == len(spans):
        x, y = raw_spans[k]
        if normalize(raw[x:y]) == shown:
            return raw[x:y]
    return shown


def _spelt(values: Any) -> dict[str, str]:
    """normalised identifier -> its first spelling in ``values``."""
    values = values if isinstance(values, (list, tuple)) else ()
    return {normalize(v): v for v in reversed(values) if isinstance(v, str)}


def _budget(reading: Reading, args: dict) -> tuple[bool, str]:
    n: Any = args.get("n")  # an integer: the table's arguments were checked
    steps = reading.evidence.steps
    if not reading.evidence.has_final:
        return False, "no final answer"
    if steps > n:
        return False, f"over budget ({steps} steps > {n})"
    return True, f"within budget ({steps} of {n} steps)"


def _named(reading: Reading, args: dict) -> tuple[bool, str]:
    ids = patterns_of(args.get("identifier_set"), "identifier_set")
    chans = channels_of(args.get("channels"))
    echo = flag_of(args.get("exclude_tool_echo", False))
    spelt = _spelt(args.get("identifier_set"))
    for ch in chans:
        for p in ids:
            if reading.occurs(p, ch, echo):
                return True, f"names `{spelt.get(p, p)}` in {ch}"
    if echo and any(reading.occurs(p, ch, False) for ch in chans for p in ids):
        return False, "the identifier set is named only in echoed lines"
    return False, "no member of the identifier set is named"


def _factor(reading: Reading, args: dict) -> tuple[bool, str]:
    factor, chans = args.get("factor"), args.get("channels")
    echo = flag_of(args.get("exclude_tool_echo", False))
    ok, info = factor_check(reading, factor, chans, echo)
    radius = reading.constants.cooccurrence_radius
    spelt = _spelt(factor.get("required_identifiers") if isinstance(factor, dict) else None)
    if ok:
        ch, i, j, ident, syn = info
        text = f"{ch}: {_quote(_sentence(reading, ch, echo, i))} names `{spelt.get(ident, ident)}`"
        if i == j:
            return True, text + f" with the synonym `{syn}`"
        return True, text + (
            f"; the synonym `{syn}` is {abs(i - j)} sentence(s) away: "
            f"{_quote(_sentence(reading, ch, echo, j))}"
        )
    what, detail = info
    dtype = factor.get("deviation_type") if isinstance(factor, dict) else None
    if what == "unnamed":
        shown = spelt.get(detail, detail)
        if echo and any(reading.occurs(detail, ch, False) for ch in channels_of(chans)):
            return False, f"`{shown}` is named only in echoed lines"
        return False, f"`{shown}` is not named"
    if what == "no-synonyms":
        return False, f"deviation type `{detail}` has no synonym list"
    if what == "no-identifiers":
        return False, "the factor has no required identifiers"
    window = (
        "the identifier's sentence"
        if radius == 0
        else f"{radius} sentence(s) either side of the identifier's"
    )
    return False, f"no synonym of `{dtype}` in the window ({window})"


_EXPLAIN = {"within_step_budget": _budget, "named_in_output": _named, "factor_identified": _factor}


def _node(node: tuple, reading: Reading, depth: int = 0) -> tuple[bool | None, str]:
    tag = node[0]
    if tag == "else":
        return True, "else"
    if depth > 50:
        return None, "…"
    if tag == "not":
        value, text = _node(node[1], reading, depth + 1)
        return (None if value is None else not value), text
    if tag in ("all", "any"):
        # what decides: for `all` the clauses that fail, for `any` those that hold
        parts = [_node(n, reading, depth + 1) for n in node[1]]
        deciding = [t for v, t in parts if v is (tag == "any")]
        known = all(v is not None for v, _ in parts)
        value = (bool(deciding) if tag == "any" else not deciding) if known else None
        return value, "; ".join(deciding or [t for _, t in parts])
    explain = _EXPLAIN.get(node[1])
    if explain is None:
        return None, f"`{node[1]}`"
    return explain(reading, node[2])


def explain(compiled: CompiledTable, row: int, reading: Reading) -> dict[str, Any]:
    """``{"row", "fired", "failed": [{"row", "reason"}], "text"}``: the clause of the row
    that fired (None for ``else``), each earlier row's failed clause (but a budget gate's),
    and ``text``, all of it in one line."""
    failed = [
        {"row": i, "reason": _node(node, reading)[1]}
        for i, (node, _score) in enumerate(compiled.rows[: row - 1], start=1)
        if not (node[0] == "not" and node[1][0] == "prim" and node[1][1] == "within_step_budget")
    ]
    node, value = compiled.rows[row - 1]
    fired = None if node[0] == "else" else _node(node, reading)[1]
    head = f"row {row} fired ({value!r})" + ("" if fired is None else f": {fired}")
    line = "; ".join([head] + [f"row {f['row']} failed: {f['reason']}" for f in failed])
    return {"row": row, "fired": fired, "failed": failed, "text": line}
