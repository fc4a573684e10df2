"""The Form B and table checks tolerate any document shape: never an exception (SI000)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from si_lint.checks import all_checks
from si_lint.findings import Diag
from si_lint.profile import builtin_profile

PROFILE = builtin_profile()
CTX = SimpleNamespace(profile=PROFILE)
#: the modules of the Form B, composite and decision-table rules
MODULES = ("formb", "scoring")

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


#: every check of the scoring and table rules, with the document kinds it runs on
CHECKS = [
    check
    for check in all_checks()
    if check.func.__module__.rpartition(".")[2] in MODULES and check.scope == "file"
]


def _run_all(data):
    out = []
    for kind in ("scenario", "template"):  # each document read as either kind
        doc = SimpleNamespace(data=data, kind=kind, relpath="s.yaml")
        for check in CHECKS:
            if kind in check.kinds:
                out.extend(check.func(doc, CTX) or ())
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
