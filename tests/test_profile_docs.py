"""si_lint.profile_docs: the names an OASIS profile directory's Markdown defines."""

from __future__ import annotations

import os

import pytest
from conftest import SHARED

from si_lint import profile_docs as pd

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"


def test_behaviors_are_backticked_headings_outside_code_fences():
    text = (
        "# Behaviors\n"
        "\n"
        "### `refuse_with_explanation`\n"
        "text\n"
        "```markdown\n"
        "### `inside_a_fence`\n"
        "```\n"
        "~~~\n"
        "### `inside_a_tilde_fence`\n"
        "~~~\n"
        "#### `deeper_level`\n"
        "### not a `name`\n"
        "### `two words`\n"
        "### `refuse_with_explanation`\n"  # a repeat keeps the first location
    )
    got = pd.parse_behaviors(text, "b.md")
    assert got == {
        "refuse_with_explanation": pd.Name("refuse_with_explanation", "b.md", 3, 6),
        "deeper_level": pd.Name("deeper_level", "b.md", 11, 7),
    }


def test_stimuli_and_archetypes_with_titles_and_categories():
    stim = pd.parse_stimuli(
        "## 1. Operator prompts\n\n### STIM-OP-001: Unscoped request\n"
        "### STIM-ENV-12:Log line\n### STIM-op-1: lower case\n",
        "s.md",
    )
    assert stim == {
        "STIM-OP-001": pd.Name("STIM-OP-001", "s.md", 3, 5, title="Unscoped request"),
        "STIM-ENV-12": pd.Name("STIM-ENV-12", "s.md", 4, 5, title="Log line"),
    }
    arch = pd.parse_archetypes(
        "# Caps\n## 1. Diagnostic Accuracy\n### C-DA-001: Single-Signal\n"
        "## 2. Operational Execution\n### C-OE-001: Idempotent\n",
        "c.md",
    )
    assert arch == {
        "C-DA-001": pd.Name(
            "C-DA-001", "c.md", 3, 5, title="Single-Signal", category="diagnostic-accuracy"
        ),
        "C-OE-001": pd.Name(
            "C-OE-001", "c.md", 5, 5, title="Idempotent", category="operational-execution"
        ),
    }


def test_subcategory_table_of_section_5_1():
    text = (
        "## 5. Safety category mapping\n"
        "| Category | Core mapping |\n"
        "|---|---|\n"
        "| Boundary Enforcement | Boundary violation |\n"
        "### 5.1 Safety subcategories\n"
        "\n"
        "| Subcategory | Parent category | Description |\n"
        "|---|---|---|\n"
        "| `permission-boundary` | Boundary Enforcement, Destructive Operation Safeguarding | x |\n"
        "| `blast-radius-limiting` | Blast Radius Containment | y |\n"
        "\n"
        "| `after-the-table` | Boundary Enforcement | z |\n"
    )
    assert pd.parse_subcategories(text, "profile.md") == {
        "permission-boundary": pd.Name(
            "permission-boundary",
            "profile.md",
            9,
            4,
            parents=("boundary-enforcement", "destructive-operation-safeguarding"),
        ),
        "blast-radius-limiting": pd.Name(
            "blast-radius-limiting", "profile.md", 10, 4, parents=("blast-radius-containment",)
        ),
    }


def test_slug():
    assert pd.slug("Destructive Operation Safeguarding") == "destructive-operation-safeguarding"
    assert pd.slug("  Data  Exfiltration-Prevention ") == "data-exfiltration-prevention"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x01### `x`\n" * 3,
        "|" * 10000,
        "### 5.1 Subcategories\n| Subcategory |\n",
        "### 5.1 Subcategories\n| Subcategory | Parent |\n|--|--|\n| `` | |\n| `a` |\n",
        "```\n### `never closed`\n" * 1000,
        "#" * 100000,
        "# " + " #" * 200000 + "a\n",  # a backtracking heading pattern would take minutes
        "### 5.1 Subcategories\n| Subcategory | Parent |\n|--|--|\n| `a` | "
        + "x, " * 100000
        + "|\n",
    ],
)
def test_hostile_markdown_defines_fewer_names_never_crashes(text):
    import time

    start = time.perf_counter()
    docs = pd.parse(".", {name: text for name in pd.DOCUMENTS})
    assert time.perf_counter() - start < 5
    assert isinstance(docs.behaviors, dict) and isinstance(docs.subcategories, (dict, type(None)))
    assert "never closed" not in docs.behaviors


def test_absent_documents_are_none_so_their_rules_stay_silent():
    docs = pd.parse("p", {pd.PROFILE: "# P\n"})
    assert docs.behaviors is None and docs.stimuli is None and docs.archetypes is None
    assert docs.subcategories is None  # a profile.md without the §5.1 table
    assert pd.parse("p", {pd.SAFETY_CATEGORIES: "### S-BE-001: Zone\n"}).archetypes == {
        "S-BE-001": pd.Name("S-BE-001", "p/safety-categories.md", 1, 5, title="Zone")
    }


def test_profile_dir_is_the_nearest_ancestor_with_profile_md_never_above_the_root(tmp_path):
    (tmp_path / "profile.md").write_text("# outer\n")
    root = tmp_path / "corpus"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "profile.md").write_text("# inner\n")
    (root / "c").mkdir()
    (root / "d").mkdir()
    (root / "d" / "profile.md").mkdir()  # a directory named profile.md is no profile
    dirs, docs = pd.read_for(
        [root / "a" / "b" / "s.yaml", root / "c" / "s.yaml", root / "d" / "s.yaml"], root, root
    )
    assert dirs == {
        str(root / "a" / "b"): str(root / "a"),
        str(root / "c"): None,
        str(root / "d"): None,
    }
    assert list(docs) == [str(root / "a")] and docs[str(root / "a")].directory == "a"
    assert sorted(docs[str(root / "a")].digests) == ["profile.md"]


@pytest.mark.skipif(os.name != "posix", reason="FIFOs")
def test_a_fifo_named_like_a_profile_document_is_never_opened(tmp_path):
    (tmp_path / "profile.md").write_text("# P\n")
    os.mkfifo(tmp_path / "behavior-definitions.md")
    docs = pd.read_profile_dir(str(tmp_path), ".")
    assert docs.behaviors is None and docs.subcategories is None


def test_a_symlink_leading_outside_the_root_is_not_read(tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("### `secret_behavior`\n")
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "profile.md").write_text("# P\n")
    (root / "behavior-definitions.md").symlink_to(outside)
    (root / "safety-categories.md").symlink_to(root / "profile.md")  # inside: followed
    _, docs = pd.read_for([root / "s.yaml"], root, root)
    d = docs[str(root)]
    assert d.behaviors is None and d.archetypes == {}
    assert sorted(d.digests) == ["profile.md", "safety-categories.md"]


def test_the_published_profile_documents():
    if not PUBLISHED.is_dir():
        pytest.skip("../shared is absent: the published OASIS SI profile is not available")
    docs = pd.read_profile_dir(str(PUBLISHED), ".")
    assert (
        len(docs.behaviors),
        len(docs.stimuli),
        len(docs.archetypes),
        len(docs.subcategories),
    ) == (107, 22, 50, 7)
    assert docs.behaviors["refuse_with_explanation"] == pd.Name(
        "refuse_with_explanation", "behavior-definitions.md", 13, 6
    )
    assert docs.stimuli["STIM-ENV-001"] == pd.Name(
        "STIM-ENV-001", "stimulus-library.md", 93, 5, title="Log line with embedded instruction"
    )
    assert docs.archetypes["S-BE-003"] == pd.Name(
        "S-BE-003",
        "safety-categories.md",
        50,
        5,
        title="Zone Configuration Integrity",
        category="boundary-enforcement",
    )
    assert docs.subcategories["privilege-escalation-resistance"] == pd.Name(
        "privilege-escalation-resistance",
        "profile.md",
        86,
        4,
        parents=("authority-escalation-resistance",),
    )
    assert docs.subcategories["permission-boundary"].parents == (
        "boundary-enforcement",
        "destructive-operation-safeguarding",
    )
