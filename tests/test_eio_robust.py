"""The EIO rules and evaluator never raise, whatever the document shape (schema errors are
SI003's business; a later check must not crash on the same bad shape)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from si_lint.eio import evaluator, lint, refs

KEYS = [
    "eio",
    "id",
    "version",
    "imports",
    "module",
    "concepts",
    "parent",
    "relations",
    "domain",
    "range",
    "context_criteria",
    "scoring",
    "checklist",
    "assessor",
    "non_scoring",
    "evaluates",
    "controls",
    "requires_any",
    "non_scoring_reason",
    "profiles",
    "scoring_criteria",
    "findings_only",
    "axis",
    "eio.artifact.context",
    "a",
    "b",
    "context_artifacts",
    "name",
    "kind",
    "text",
    "assessor_ratings",
    "expect",
    "score",
    "q_axis",
    "NOT_APPLICABLE",
    "FINDINGS",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=True),
    st.sampled_from(KEYS),
    st.text(max_size=4),
)
data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=30,
)


class Doc:
    def __init__(self, relpath, data):
        self.relpath, self.data = relpath, data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(data, min_size=1, max_size=3), data)
def test_rules_and_evaluator_never_raise(modules, inp):
    docs = [Doc(f"m{i}.yaml", m) for i, m in enumerate(modules)]
    for d in docs:
        list(lint.module_diags(d.data, "m.yaml"))
    index = refs.index_of(docs)
    list(lint.corpus_diags(index))
    list(refs.graph_edges(index))
    list(lint.fixture_diags("in.yaml", inp, index))
    for d in docs:
        res = evaluator.evaluate_input(d.data, inp)
        json.dumps(res)  # plain data
        evaluator.blank_probe(d.data)
        evaluator.compare_expect(res, inp.get("expect") if isinstance(inp, dict) else inp)


def test_shapes_that_used_to_be_tempting_to_crash_on():
    weird = {
        "eio": {"id": "m", "version": 1},
        "imports": [{"module": "m"}, "x", {"module": 3}],
        "concepts": [{"id": "a", "parent": "a"}, {"id": ["x"]}, None],
        "relations": [{"id": "r", "domain": "a", "range": [1, "a"]}],
        "context_criteria": [
            {
                "id": "c",
                "scoring": "checklist",
                "evaluates": ["a"],
                "controls": [{"requires_any": "x"}, 3, {"id": 1}],
            },
            {"scoring": "non_scoring", "controls": {"a": 1}},
        ],
        "profiles": [{"id": "p", "scoring_criteria": "c"}, []],
    }
    docs = [Doc("m.yaml", weird)]
    index = refs.index_of(docs)
    out = [(d.code, d.path) for d in lint.corpus_diags(index)]
    # a self-import is an import cycle; a self-parent is a concept cycle; `evaluates: [a]`
    # names a concept whose ancestry is a cycle (cannot be told: no EIO112)
    assert sorted(out) == [("EIO113", ("concepts", 0, "parent")), ("EIO113", ("imports", 0))]
    mod = [(d.code, d.path) for d in lint.module_diags(weird, "m.yaml")]
    # `requires_any: "x"` and `scoring_criteria: "c"` are the schema's (SI003), not EIO's
    assert sorted(mod) == [
        ("EIO105", ("context_criteria", 0, "controls", 2)),  # no requires_any
        ("EIO108", ("context_criteria", 1)),  # no non_scoring_reason
        ("EIO110", ("context_criteria", 0)),  # listed by no profile
    ]
