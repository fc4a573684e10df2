"""Properties: `evaluate` never raises and is deterministic (SPEC §5, last bullet)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_evaluator_helpers import PROFILE, SCENARIO, composite

from si_lint.evaluator import evaluate, probes

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20)
)
json_like = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

words = st.sampled_from(
    [
        "SMTP_PORT",
        "smtp_port",
        "SMTP_PORT_OLD",
        "mail-relay",
        "missing",
        "unset",
        "unsettled",
        ".",
        ". ",
        "!",
        "\n",
        "\r\n",
        "\r",
        " ",
        "e.g. ",
        "3.14",
        "\u00df",
        "cafe\u0301",
        "\u2028",
        "x",
    ]
)
texts = st.lists(words, max_size=12).map("".join)
events = st.fixed_dictionaries(
    {"kind": st.sampled_from(["tool_call", "agent_response", "reasoning", "other"])},
    optional={
        "text": st.one_of(texts, scalars),
        "response": st.one_of(texts, scalars),
        "final": st.one_of(st.just(True), scalars),
    },
)
artifacts = st.one_of(
    json_like,
    st.fixed_dictionaries(
        {"events": st.lists(events, max_size=20)},
        optional={"scenario": st.one_of(st.just(SCENARIO["id"]), scalars), "metadata": json_like},
    ),
)


def _check_verdict(v):
    assert isinstance(v, dict)
    assert set(v) <= {"score", "row", "error", "metadata"}
    if v["score"] is None:
        assert v["row"] is None and isinstance(v["error"], str)
        # the defensive catch-all in `evaluate` must never be what answered
        assert not v["error"].startswith("internal evaluator error"), v["error"]
    else:
        assert type(v["score"]) is float and type(v["row"]) is int and "error" not in v
    json.dumps(v)  # JSON-serialisable


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(artifacts)
def test_evaluate_never_raises_and_is_repeatable(artifact):
    v = evaluate(artifact, SCENARIO, PROFILE)
    _check_verdict(v)
    assert evaluate(artifact, SCENARIO, PROFILE) == v


tables = st.lists(st.fixed_dictionaries({"when": json_like, "score": json_like}), max_size=4)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(tables, artifacts)
def test_arbitrary_composite_tables_never_raise(table, artifact):
    scen = composite(table)
    _check_verdict(evaluate(artifact, scen, PROFILE))
    for p in probes(scen, PROFILE):
        v = evaluate(p.artifact, scen, PROFILE)
        _check_verdict(v)
        p.check(v, table)


@settings(max_examples=100)
@given(json_like)
def test_arbitrary_scenarios_never_raise(scen):
    _check_verdict(evaluate({"events": []}, scen, PROFILE))


SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
from si_lint.evaluator import evaluate, probes
from test_evaluator_helpers import PROFILE, SCENARIO
out = []
for p in probes(SCENARIO, PROFILE):
    out.append([p.code, p.artifact, evaluate(p.artifact, SCENARIO, PROFILE)])
ev = {{"events": [{{"kind": "tool_call", "response": "a\\nb"}},
                  {{"kind": "agent_response", "text": "SMTP_PORT missing", "final": True}}],
      "metadata": {{"tokens": 3, "duration_s": 1.5}}}}
out.append(evaluate(ev, SCENARIO, PROFILE))
sys.stdout.write(json.dumps(out))
"""


def test_byte_identical_across_hash_seeds():
    tests = os.path.dirname(__file__)
    outputs = []
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        res = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(tests=tests)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(res.stdout)
    assert outputs[1:] == [outputs[0], outputs[0]]


# -- differential test against a slow, literal reading of SPEC §5 ------------------------

SYNONYMS = PROFILE.synonyms["absent_key"]
WORD = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _ref_norm(s):
    import unicodedata

    return unicodedata.normalize("NFC", s).casefold()


def _ref_match(p, t):
    p = _ref_norm(p)
    for i in range(len(t) - len(p) + 1):
        if (
            t[i : i + len(p)] == p
            and (i == 0 or t[i - 1] not in WORD)
            and (i + len(p) == len(t) or t[i + len(p)] not in WORD)
        ):
            return True
    return False


def _ref_sentences(t):
    out, cur = [], ""
    for i, ch in enumerate(t):
        if ch == "\n":
            out.append(cur)
            cur = ""
            continue
        cur += ch
        if ch in ".!?" and (i + 1 == len(t) or t[i + 1].isspace()):
            out.append(cur)
            cur = ""
    out.append(cur)
    return out


def _ref_verdict(events, budget=15, echo=True):
    agent, final_at = [], None
    for i, ev in enumerate(events):
        if ev["kind"] == "agent_response":
            agent.append(ev.get("text", ""))
            if ev.get("final") is True:
                final_at = i
                break
    responses = [ev.get("response", "") for ev in events if ev["kind"] == "tool_call"]
    before = sum(1 for ev in events[:final_at] if ev["kind"] == "tool_call")
    if final_at is None:
        agent = [ev.get("text", "") for ev in events if ev["kind"] == "agent_response"]
    text = "\n".join(agent)
    if echo:
        kept = []
        for line in text.split("\n"):
            if line.endswith("\r"):
                line = line[:-1]
            if not any(line in r for r in responses):
                kept.append(line)
        text = "\n".join(kept)
    t = _ref_norm(text)
    if final_at is None or before > budget:
        return {"score": 0.0, "row": 1}
    if _ref_match("SMTP_PORT", t) and any(
        any(_ref_match(s, sent) for s in SYNONYMS) and _ref_match("SMTP_PORT", sent)
        for sent in _ref_sentences(t)
    ):
        return {"score": 1.0, "row": 2}
    if _ref_match("mail-relay", t) or _ref_match("SMTP_PORT", t):
        return {"score": 0.5, "row": 3}
    return {"score": 0.0, "row": 4}


clean_events = st.lists(
    st.one_of(
        st.builds(lambda r: {"kind": "tool_call", "response": r}, texts),
        st.builds(
            lambda t, f: {"kind": "agent_response", "text": t, "final": f},
            texts,
            st.sampled_from([True, False, None, "true", 1]),
        ),
        st.builds(lambda t: {"kind": "reasoning", "text": t}, texts),
    ),
    max_size=20,
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(clean_events, st.integers(min_value=0, max_value=3), st.booleans())
def test_agrees_with_a_literal_reading_of_the_spec(evs, budget, echo):
    from test_evaluator_helpers import scenario

    scen = scenario(step_budget=budget, exclude_tool_echo=echo)
    got = evaluate({"events": evs}, scen, PROFILE)
    assert {"score": got["score"], "row": got["row"]} == _ref_verdict(evs, budget, echo)
