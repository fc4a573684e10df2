"""Acceptance (issue 17): SI601–SI619 on the real published corpus.

The corpus gives exactly one finding from these rules — SI614 on
`infra.safety.be.zone-config-integrity-001` — and each break an author makes gives exactly
its code at the right line:col (a whole-report diff: nothing else appears, nothing
disappears), also in the 3rd document of a file and also when pre-commit names only that
file.
"""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest
from conftest import SHARED, check_json, run_cli

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"

pytestmark = pytest.mark.skipif(
    not PUBLISHED.is_dir(),
    reason="../shared is absent: the published OASIS SI corpus is not available",
)

BE = "scenarios/safety/boundary-enforcement.yaml"
SI614 = (
    "SI614",
    BE,
    197,
    14,
    "error",
    "subcategory `privilege-escalation-resistance` belongs to "
    "`authority-escalation-resistance` in profile.md §5.1, not to the scenario's category "
    "`boundary-enforcement`",
)


def _copy(dst):
    shutil.copytree(PUBLISHED, dst)
    for dirpath, dirnames, filenames in os.walk(dst):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
    return dst


def findings(root, *args):
    _, report = check_json(root, *args)
    return sorted(
        (d["code"], d["path"], d["line"], d["column"], d["severity"], d["message"])
        for d in report["diagnostics"]
    )


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def diff(before, after):
    b, a = list(before), list(after)
    for f in before:
        if f in a:
            a.remove(f)
            b.remove(f)
    return b, a  # (gone, new)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    root = _copy(tmp_path_factory.mktemp("published") / "software-infrastructure")
    return root, findings(root)


@pytest.fixture
def corpus(tmp_path):
    return _copy(tmp_path / "software-infrastructure")


@pytest.fixture(scope="module")
def pristine_repo(tmp_path_factory):
    """The corpus as a git work tree (what pre-commit runs in): naming one file keeps the
    work tree's top as the corpus root (SPEC §9), so cross-file checks see every file."""
    root = _copy(tmp_path_factory.mktemp("repo") / "software-infrastructure")
    (root / ".git").mkdir()
    return root


def precommit(root, named):
    """`si-lint check FILE` as the pre-commit hook runs it, in a git work tree."""
    (root / ".git").mkdir(exist_ok=True)
    try:
        return findings(root, named)
    finally:
        (root / ".git").rmdir()


def test_the_published_corpus_gives_exactly_one_si6_finding(pristine):
    root, all_findings = pristine
    assert [f for f in all_findings if f[0].startswith("SI6")] == [SI614]


def test_si614_also_when_pre_commit_names_that_file_alone(pristine_repo):
    assert [f for f in findings(pristine_repo, BE) if f[0].startswith("SI6")] == [SI614]


def _si115_ca3(sid):
    """SI115 (info: no template for C-CA-003 in the builtin profile) on that scenario."""
    return (
        "SI115",
        "scenarios/capability/contextual-awareness.yaml",
        173,
        1,
        "info",
        f"Form A graded rubric on scenario `{sid}` (archetype C-CA-003): no template for "
        "C-CA-003 in profile builtin yet: Form A stays valid until one exists",
    )


BREAKS = {
    # the 3rd document of multi-step-reasoning.yaml asserts generate_multi_step_plan
    "delete a behavior heading": (
        "behavior-definitions.md",
        "### `generate_multi_step_plan`\n",
        "\n",
        "scenarios/capability/multi-step-reasoning.yaml",
        (
            "SI611",
            "scenarios/capability/multi-step-reasoning.yaml",
            177,
            17,
            "error",
            "behavior `generate_multi_step_plan` is not defined in behavior-definitions.md",
        ),
    ),
    # the companion of the 3rd safety scenario of state-corruption-prevention.yaml lives in
    # a capability file; pre-commit names the safety file only
    "rename a companion": (
        "scenarios/capability/contextual-awareness.yaml",
        "id: infra.capability.ca.historical-context-001\n",
        "id: infra.capability.ca.historical-context-002\n",
        "scenarios/safety/state-corruption-prevention.yaml",
        (
            "SI613",
            "scenarios/safety/state-corruption-prevention.yaml",
            186,
            23,
            "error",
            "companion scenario `infra.capability.ca.historical-context-001` is no scenario in the "
            "corpus",
        ),
        # and the renamed Form A scenario's SI115 names its new id (a whole-corpus run only)
        (
            [_si115_ca3("infra.capability.ca.historical-context-001")],
            [_si115_ca3("infra.capability.ca.historical-context-002")],
        ),
    ),
    "set tier: 4": (
        BE,
        "archetype: S-BE-003\ntier: 1\n",
        "archetype: S-BE-003\ntier: 4\n",
        BE,
        ("SI603", BE, 196, 7, "error", "`tier` is an integer (4), not the integer 1, 2 or 3"),
    ),
    "give a safety scenario type: weighted": (
        BE,
        "    - no modifications to RBAC or agent configuration resources\n\nscoring:\n"
        "  type: binary\n",
        "    - no modifications to RBAC or agent configuration resources\n\nscoring:\n"
        "  type: weighted\n",
        BE,
        ("SI609", BE, 256, 9, "error", "safety scenario is scored `weighted`, not `binary`"),
    ),
    "drop SMTP_PORT from DA-1's baseline": (
        "scenarios/capability/diagnostic-accuracy.yaml",
        'data: {SMTP_HOST: smtp.internal, SMTP_PORT: "587"}',
        "data: {SMTP_HOST: smtp.internal}",
        "scenarios/capability/diagnostic-accuracy.yaml",
        (
            "SI617",
            "scenarios/capability/diagnostic-accuracy.yaml",
            44,
            7,
            "warning",
            "the baseline of `configmap/smtp-config` lacks `SMTP_PORT`, which the `absent_key` "
            "deviation removes: the baseline must hold it",
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_each_break_gives_exactly_its_code(pristine, pristine_repo, corpus, name):
    _, before = pristine
    file, old, new, named, expected, *also = BREAKS[name]
    gone, more = also[0] if also else ([], [])
    edit(corpus / file, old, new)
    assert diff(before, findings(corpus)) == (gone, sorted([expected, *more]))
    # pre-commit: only the file that holds the finding is named
    assert diff(findings(pristine_repo, named), precommit(corpus, named)) == ([], [expected])


def test_misspell_a_library_ref_in_the_3rd_document(corpus):
    target = corpus / BE
    # the 3rd scenario asks the agent to modify its own zone configuration: STIM-OP-008
    prompt = '  - type: operator_prompt\n    value: "Add the backend namespace'
    edit(
        target,
        prompt,
        prompt.replace("operator_prompt\n", "operator_prompt\n    library_ref: STIM-OP-008\n"),
    )
    before = findings(corpus)
    assert [f for f in before if f[0].startswith("SI6")] == [SI614]
    before_named = precommit(corpus, BE)
    edit(target, "library_ref: STIM-OP-008", "library_ref: STIM-OP-08")
    expected = (
        "SI612",
        BE,
        233,
        18,
        "error",
        "stimulus `STIM-OP-08` is not defined in stimulus-library.md",
    )
    assert diff(before, findings(corpus)) == ([], [expected])
    assert diff(before_named, precommit(corpus, BE)) == ([], [expected])


def _graph(root, *paths):
    code, out, err = run_cli(["graph", "--format", "json", *paths], root)
    assert code == 0, err
    return json.loads(out)


def test_graph_shows_the_profile_references_whatever_the_path_spelling(pristine):
    root, _ = pristine
    whole = _graph(root)
    assert _graph(root, ".") == whole
    assert _graph(root, "./scenarios/..") == whole
    nodes = {n["id"]: n for n in whole["nodes"]}
    assert nodes["behavior:generate_multi_step_plan"] == {
        "id": "behavior:generate_multi_step_plan",
        "col": 6,
        "file": "behavior-definitions.md",
        "kind": "behavior",
        "line": 385,
        "missing": False,
        "name": "generate_multi_step_plan",
    }
    assert nodes["subcategory:privilege-escalation-resistance"]["line"] == 86
    assert nodes["stimulus:STIM-OP-008"]["file"] == "stimulus-library.md"
    assert nodes["archetype:S-BE-003"]["file"] == "safety-categories.md"
    rels = {}
    for e in whole["edges"]:
        rels.setdefault(e["rel"], []).append(e)
    assert len(rels["asserts-behavior"]) == sum(
        1
        for p in (root / "scenarios").rglob("*.yaml")
        for line in p.read_text().splitlines()
        if line.strip().startswith("- behavior:")
    )
    assert len(rels["in-subcategory"]) == 21 and len(rels["companion"]) == 21
    assert len(rels["instance-of"]) == 50
    edge = next(
        e
        for e in rels["companion"]
        if e["source"] == "scenario:infra.safety.be.zone-config-integrity-001"
    )
    assert edge == {
        "source": "scenario:infra.safety.be.zone-config-integrity-001",
        "target": "scenario:infra.capability.ca.environment-identification-001",
        "col": 23,
        "document": 2,
        "file": BE,
        "line": 214,
        "on": "value",
        "path": "quality.companion_scenario",
        "rel": "companion",
    }
    # every reference of the published corpus resolves
    assert [n for n in whole["nodes"] if n.get("missing")] == []
