"""The Form B and table checks tolerate any document shape: never an exception (SI000)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from si_lint.checks import formb, tables
from si_lint.findings import Diag
from si_lint.profile import builtin_profile

PROFILE = builtin_profile()
CTX = SimpleNamespace(profile=PROFILE)

KEYS = st.sampled_from(
    [
        "id",
        "scoring",
        "template",
        "bindings",
        "composite",
        "table",
        "when",
        "score",
        "reason",
        "not",
        "all",
        "any",
        "named_in_output",
        "factor_identified",
        "within_step_budget",
        "ops_precede",
        "factor",
        "ref",
        "required_identifiers",
        "channels",
        "identifier_set",
        "exclude_tool_echo",
        "n",
        "synonyms",
        "injection",
        "deviations",
        "deviation_type",
        "type",
        "rubric",
        "dimensions",
        "code",
        "roles",
        "allowed",
        "subsystem_set",
        "step_budget",
        "x",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=True),
    st.sampled_from(
        [
            "else",
            "$factor",
            "$nope",
            "C-DA-001",
            "agent_response",
            "stdout",
            "",
            " a",
            "smtp-port-removed",
            "absent_key",
        ]
    ),
)
DATA = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=30,
)


def _run_all(data):
    doc = SimpleNamespace(data=data, kind="scenario", relpath="s.yaml")
    out = []
    for check in (
        formb.scenario_synonyms,
        formb.deviation_synonyms,
        formb.scoring_form,
        formb.template_binding,
        formb.composite_table,
        tables.template_table,
    ):
        out.extend(check(doc, CTX) or ())
    return out


@settings(max_examples=400, deadline=None)
@given(DATA)
def test_any_shape(data):
    for d in _run_all(data):
        assert isinstance(d, Diag) and d.code.startswith("SI")


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, DATA, max_size=6))
def test_any_scenario_shape(scoring):
    data = {
        "id": "infra.capability.da.single-signal-diagnosis-001",
        "scoring": scoring,
        "injection": {"deviations": [{"id": "smtp-port-removed", "deviation_type": "absent_key"}]},
    }
    for d in _run_all(data):
        assert isinstance(d, Diag)
    for d in _run_all(
        {"template": {"id": "T"}, "roles": scoring.get("roles"), "table": scoring.get("table")}
    ):
        assert isinstance(d, Diag)
