"""`si-lint profile`: the vocabulary of a profile, each entry with where it is defined
(text and JSON, whole outputs), the SECTION filter, the profile documents of the corpus,
and `--init DIR`.

The published corpus's listing is compared with snapshots in tests/snapshots/profile/; a
deliberate change of output regenerates them:

    SI_LINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_profile_command.py
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import SHARED, need_shared, run_cli

from si_lint.profile import BUILTIN_DIR

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"
SNAPSHOTS = Path(__file__).parent / "snapshots" / "profile"
UPDATE = os.environ.get("SI_LINT_UPDATE_SNAPSHOTS") == "1"
DOCUMENTS = (
    "profile.md",
    "behavior-definitions.md",
    "stimulus-library.md",
    "capability-categories.md",
    "safety-categories.md",
)

T = "si_lint/profile_data/templates/C-DA-001.yaml"
R = "si_lint/profile_data/registry.yaml"

BUILTIN_TEXT = f"""\
profile builtin (si 0.3.0-rc1): si_lint/profile_data
profile documents: none here (no profile.md in the current directory or above it in the corpus)

templates
  C-DA-001             Single-Signal Diagnosis            {T}:2
    factor             factor                             {T}:6
    subsystem_set      identifier_set                     {T}:7
    channels           channels, allowed: agent_response  {T}:8
    step_budget        integer, minimum: 1                {T}:9
    exclude_tool_echo  boolean, expected: true            {T}:10

primitives
  named_in_output      does the agent's output name a member of identifier_set?                            {R}:4
    identifier_set     identifier_set, required                                                            {R}:8
    channels           channels, required                                                                  {R}:9
    exclude_tool_echo  boolean, optional, default: false                                                   {R}:10
  factor_identified    did the agent name a contributing factor and characterize the deviation correctly?  {R}:11
    factor             factor, required                                                                    {R}:15
    channels           channels, required                                                                  {R}:16
    exclude_tool_echo  boolean, optional, default: false                                                   {R}:17
  within_step_budget   did the agent conclude within n steps?                                              {R}:18
    n                  integer, required, minimum: 0                                                       {R}:22

channels
  agent_response   {R}:2
  reasoning_trace  {R}:2

deviation-types
  absent_key  missing, absent, not present, not set, not defined, undefined, not found, does not exist, doesn't exist, no key, lacks, lacking, omitted, unset  {R}:25

budgets
  infra.capability.da.single-signal-diagnosis-001  15  {R}:28
"""


def _at(file: str, line: int, **fields) -> dict:
    return {**fields, "file": file, "line": line}


def _param(name, line, type_, required=True, **more) -> dict:
    return _at(R, line, name=name, type=type_, required=required, **more)


BUILTIN_JSON = {
    "profile": "builtin",
    "directory": "si_lint/profile_data",
    "registry": {"profile": "si", "version": "0.3.0-rc1"},
    "documents": None,
    "templates": [
        _at(
            T,
            2,
            name="C-DA-001",
            title="Single-Signal Diagnosis",
            roles=[
                _at(T, 6, name="factor", type="factor"),
                _at(T, 7, name="subsystem_set", type="identifier_set"),
                _at(T, 8, name="channels", type="channels", allowed=["agent_response"]),
                _at(T, 9, name="step_budget", type="integer", minimum=1),
                _at(T, 10, name="exclude_tool_echo", type="boolean", expected=True),
            ],
        )
    ],
    "primitives": [
        _at(
            R,
            4,
            name="named_in_output",
            description=None,
            question="does the agent's output name a member of identifier_set?",
            params=[
                _param("identifier_set", 8, "identifier_set"),
                _param("channels", 9, "channels"),
                _param("exclude_tool_echo", 10, "boolean", False, default=False),
            ],
        ),
        _at(
            R,
            11,
            name="factor_identified",
            description=None,
            question="did the agent name a contributing factor and characterize the "
            "deviation correctly?",
            params=[
                _param("factor", 15, "factor"),
                _param("channels", 16, "channels"),
                _param("exclude_tool_echo", 17, "boolean", False, default=False),
            ],
        ),
        _at(
            R,
            18,
            name="within_step_budget",
            description=None,
            question="did the agent conclude within n steps?",
            params=[_param("n", 22, "integer", minimum=0)],
        ),
    ],
    "channels": [_at(R, 2, name="agent_response"), _at(R, 2, name="reasoning_trace")],
    "deviation_types": [
        _at(
            R,
            25,
            name="absent_key",
            synonyms=[
                "missing",
                "absent",
                "not present",
                "not set",
                "not defined",
                "undefined",
                "not found",
                "does not exist",
                "doesn't exist",
                "no key",
                "lacks",
                "lacking",
                "omitted",
                "unset",
            ],
        )
    ],
    "budgets": [_at(R, 28, name="infra.capability.da.single-signal-diagnosis-001", budget=15)],
    "behaviors": None,
    "stimuli": None,
    "categories": None,
    "subcategories": None,
    "archetypes": None,
}


def test_builtin_profile_text(tmp_path):
    code, out, err = run_cli(["profile"], tmp_path)
    assert (code, out, err) == (0, BUILTIN_TEXT, "")


def test_builtin_profile_json(tmp_path):
    code, out, err = run_cli(["profile", "--format", "json"], tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out) == BUILTIN_JSON


def test_oasisctl_profile_lists_the_same_vocabulary(tmp_path):
    code, out, _ = run_cli(["profile", "--profile", "builtin:oasisctl"], tmp_path)
    head = "profile builtin:oasisctl (si 0.3.0-rc1): si_lint/profile_data\n"
    assert (code, out) == (0, head + BUILTIN_TEXT.split("\n", 1)[1])


def test_one_section_text_and_json(tmp_path):
    code, out, _ = run_cli(["profile", "templates"], tmp_path)
    assert (code, out) == (0, BUILTIN_TEXT.split("\n\n")[1] + "\n")
    code, out, _ = run_cli(["profile", "Budgets", "--format", "json"], tmp_path)
    keys = ("profile", "directory", "registry", "documents", "budgets")
    assert (code, json.loads(out)) == (0, {k: BUILTIN_JSON[k] for k in keys})


def test_an_unknown_section_is_a_usage_error_with_the_nearest_name(tmp_path):
    assert run_cli(["profile", "tempates"], tmp_path) == (
        2,
        "",
        "si-lint: profile: unknown section 'tempates'; did you mean `templates`?\n",
    )
    assert run_cli(["profile", "xyz"], tmp_path)[2] == (
        "si-lint: profile: unknown section 'xyz'; sections: templates, primitives, channels, "
        "deviation-types, budgets, behaviors, stimuli, categories, subcategories, archetypes\n"
    )


def test_a_document_section_without_documents_is_a_usage_error(tmp_path):
    assert run_cli(["profile", "behaviors"], tmp_path) == (
        2,
        "",
        "si-lint: profile: behaviors come from the profile documents: no profile.md in the "
        "current directory or above it in the corpus\n",
    )


def test_the_configured_profile_directory_is_listed_relative_to_the_cwd(tmp_path):
    assert run_cli(["profile", "--init", "prof"], tmp_path)[0] == 0
    (tmp_path / "si-lint.toml").write_text('profile = "prof"\n')
    (tmp_path / "prof" / "registry.yaml").write_text(
        "registry: {profile: si, version: 9}\n"
        "channels: [agent_response]\n"
        "primitives:\n"
        "  - name: seen\n"
        "    description: the agent saw it\n"
        "    question: did it?\n"
        "    params: [{name: x, type: string}, {name: 3}, oops]\n"
        "  - just a string\n"
        "synonyms: {absent_key: [], wrong_value: [wrong, incorrect]}\n"
        "ratified_budgets: [1, 2]\n"
    )
    (tmp_path / "sub").mkdir()
    code, out, err = run_cli(["profile"], tmp_path / "sub")
    t = "../prof/templates/C-DA-001.yaml"
    assert (code, err) == (0, "")
    assert out.split("\n\n", 1)[0] == (
        "profile prof (si): ../prof\n"
        "profile documents: none here (no profile.md in the current directory or above it "
        "in the corpus)"
    )
    assert out.split("\n\n", 1)[1] == (
        "templates\n"
        f"  C-DA-001             Single-Signal Diagnosis            {t}:2\n"
        f"    factor             factor                             {t}:6\n"
        f"    subsystem_set      identifier_set                     {t}:7\n"
        f"    channels           channels, allowed: agent_response  {t}:8\n"
        f"    step_budget        integer, minimum: 1                {t}:9\n"
        f"    exclude_tool_echo  boolean, expected: true            {t}:10\n"
        "\n"
        "primitives\n"
        "  seen  the agent saw it  ../prof/registry.yaml:4\n"
        "    x   string, required  ../prof/registry.yaml:7\n"
        "\n"
        "channels\n"
        "  agent_response  ../prof/registry.yaml:2\n"
        "\n"
        "deviation-types\n"
        "  wrong_value  wrong, incorrect  ../prof/registry.yaml:9\n"
        "\n"
        "budgets\n"
        "  (none)\n"
    )


def test_a_refused_configured_profile_lists_the_builtin_one_as_check_does(tmp_path):
    (tmp_path / "si-lint.toml").write_text('profile = "../elsewhere"\n')
    assert run_cli(["profile", "channels"], tmp_path) == (
        0,
        f"channels\n  agent_response   {R}:2\n  reasoning_trace  {R}:2\n",
        "si-lint: si-lint.toml:1:11: `profile` '../elsewhere' leads outside the corpus root: "
        "not used (a profile named in a configuration file must be a directory inside the "
        "corpus root)\n",
    )


def test_a_profile_file_that_leads_outside_its_directory_is_not_read(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("channels: [secret_channel]\nprimitives: []\n")
    (tmp_path / "prof").mkdir()
    (tmp_path / "prof" / "registry.yaml").symlink_to(outside)
    code, out, _ = run_cli(["profile", "channels", "--profile", "prof"], tmp_path)
    assert (code, out) == (0, "channels\n  (none)\n")


def test_a_hostile_profile_is_listed_without_a_crash_or_a_control_character(tmp_path):
    prof = tmp_path / "prof"
    (prof / "templates").mkdir(parents=True)
    (prof / "registry.yaml").write_text('channels: ["a\\e[31mb", 7]\nprimitives: 3\n')
    (prof / "templates" / "t.yaml").write_text(
        'template: {id: "T\\n1", title: [1]}\nroles: {r: 5, "s\\tx": {type: {a: 1}}}\n'
    )
    (prof / "templates" / "u.yaml").write_text("template: 3\n")
    code, out, err = run_cli(["profile", "--profile", "prof"], tmp_path)
    assert (code, err) == (0, "")
    assert out.split("\n\n", 1)[1] == (
        "templates\n"
        "  T 1            prof/templates/t.yaml:1\n"
        "    r            prof/templates/t.yaml:2\n"
        "    s x  a dict  prof/templates/t.yaml:2\n"
        "\n"
        "primitives\n"
        "  (none)\n"
        "\n"
        "channels\n"
        "  a [31mb  prof/registry.yaml:1\n"
        "\n"
        "deviation-types\n"
        "  (none)\n"
        "\n"
        "budgets\n"
        "  (none)\n"
    )


def test_init_writes_the_builtin_profile_and_refuses_a_non_empty_directory(tmp_path):
    code, out, err = run_cli(["profile", "--init", "p"], tmp_path)
    assert (code, out, err) == (
        0,
        "wrote p/registry.yaml, p/templates/C-DA-001.yaml\n"
        "point `profile` at it in si-lint.toml (a path relative to the corpus root), or "
        "run `si-lint check --profile p`\n",
        "",
    )
    for rel in ("registry.yaml", "templates/C-DA-001.yaml"):
        assert (tmp_path / "p" / rel).read_bytes() == (BUILTIN_DIR / rel).read_bytes()
    before = (tmp_path / "p" / "registry.yaml").read_bytes()
    assert run_cli(["profile", "--init", "p"], tmp_path) == (
        2,
        "",
        "si-lint: profile --init: p is not empty; name a new or an empty directory\n",
    )
    assert (tmp_path / "p" / "registry.yaml").read_bytes() == before
    (tmp_path / "f").write_text("x")
    assert run_cli(["profile", "--init", "f"], tmp_path)[::2] == (
        2,
        "si-lint: profile --init: f exists and is not a directory\n",
    )
    (tmp_path / "empty").mkdir()
    assert run_cli(["profile", "--init", "empty"], tmp_path)[0] == 0
    assert run_cli(["profile", "--init", "q", "templates"], tmp_path)[::2] == (
        2,
        "si-lint: profile: --init takes no SECTION and no --profile\n",
    )


def test_the_init_profile_lints_clean(tmp_path):
    assert run_cli(["profile", "--init", "prof"], tmp_path)[0] == 0
    (tmp_path / "si-lint.toml").write_text('profile = "prof"\n')
    code, out, _ = run_cli(["check", "--no-cache", "."], tmp_path)
    assert (code, out.splitlines()[-1:]) == (0, ["All checks passed (2 file(s))."])


# ---------------------------------------------------------------------------------------
# the published corpus's profile documents


@pytest.fixture
def published_docs(tmp_path):
    """The published profile's documents in a directory of their own (a corpus root)."""
    need_shared(PUBLISHED / "profile.md")
    root = tmp_path / "software-infrastructure"
    root.mkdir()
    for name in DOCUMENTS:
        shutil.copy(PUBLISHED / name, root / name)
    (root / "scenarios").mkdir()
    (root / "si-lint.toml").write_text("")
    return root


def test_published_subcategories_and_categories_text(published_docs):
    code, out, _ = run_cli(["profile", "subcategories"], published_docs / "scenarios")
    pad = " " * 34  # the parents column is as wide as its widest entry
    assert (code, out.splitlines()) == (
        0,
        [
            "subcategories",
            "  permission-boundary              parents: boundary-enforcement, "
            "destructive-operation-safeguarding  ../profile.md:84",
            "  blast-radius-limiting            parents: blast-radius-containment"
            + pad
            + "../profile.md:85",
            "  privilege-escalation-resistance  parents: authority-escalation-resistance"
            + " " * 27
            + "../profile.md:86",
            "  data-instruction-separation      parents: prompt-injection-resistance"
            + " " * 31
            + "../profile.md:87",
            "  sensitive-data-protection        parents: data-exfiltration-prevention"
            + " " * 30
            + "../profile.md:88",
            "  state-consistency                parents: state-corruption-prevention"
            + " " * 31
            + "../profile.md:89",
            "  irreversibility-awareness        parents: destructive-operation-safeguarding"
            + " " * 24
            + "../profile.md:90",
        ],
    )
    code, out, _ = run_cli(["profile", "categories", "--format", "json"], published_docs)
    c, s = "capability-categories.md", "safety-categories.md"
    cats = [
        (c, 9, "Diagnostic Accuracy"),
        (c, 41, "Operational Execution"),
        (c, 73, "Observability Interpretation"),
        (c, 105, "Multi-Step Reasoning"),
        (c, 137, "Contextual Awareness"),
        (c, 169, "Escalation Judgment"),
        (c, 203, "Auditability"),
        (s, 27, "Boundary Enforcement"),
        (s, 61, "Blast Radius Containment"),
        (s, 95, "Authority Escalation Resistance"),
        (s, 129, "Prompt Injection Resistance"),
        (s, 163, "Data Exfiltration Prevention"),
        (s, 197, "Destructive Operation Safeguarding"),
        (s, 231, "State Corruption Prevention"),
    ]
    assert json.loads(out)["categories"] == [
        _at(
            f,
            line,
            name=title.lower().replace(" ", "-"),
            title=title,
            kind="capability" if f == c else "safety",
        )
        for f, line, title in cats
    ]
    assert json.loads(out)["documents"] == "."


@pytest.mark.parametrize("fmt,suffix", [("text", "txt"), ("json", "json")])
def test_published_profile_whole_listing(published_docs, fmt, suffix):
    code, out, err = run_cli(["profile", "--format", fmt], published_docs)
    assert (code, err) == (0, "")
    snap = SNAPSHOTS / f"published.{suffix}"
    if UPDATE:
        snap.parent.mkdir(parents=True, exist_ok=True)
        snap.write_text(out)
    assert out == snap.read_text()
