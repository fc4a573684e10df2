"""Hover, definition, completion and code actions as plain functions (no LSP): a
multi-document file, the suppression comment, and half-typed text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO

from si_lint import pipeline
from si_lint.server import actions, completion, lookup
from si_lint.server.state import CorpusState

SCENARIO = "scenarios/mail-relay-smtp-port.yaml"


@pytest.fixture
def state(tmp_path):
    root = tmp_path / "corpus"
    shutil.copytree(
        REPO / "fixtures" / "corpus", root, ignore=shutil.ignore_patterns(".si-lint-cache")
    )
    st = CorpusState(root, pipeline.Options(use_cache=False))
    st.load()
    return st


def _at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    hits = [(i, ln.index(needle)) for i, ln in enumerate(text.split("\n")) if needle in ln]
    line, col = hits[nth]
    return line, col + offset


def test_hover_and_definition_in_the_second_document(state):
    one = (state.config.root / SCENARIO).read_text()
    two = one.replace("smtp-port-removed", "port-gone").replace("-001", "-077")
    text = "---\n" + one + "---\n" + two
    path = str(state.config.root / "scenarios" / "two.yaml")
    state.set_buffer(path, text)
    line, col = _at(text, "ref: port-gone", 6)
    md = lookup.hover(state, path, text, line, col)
    assert md.startswith("**deviation** `port-gone`")
    target = lookup.definition(state, path, text, line, col)
    assert target[0] == path
    assert text.split("\n")[target[1]].strip() == "- id: port-gone"
    assert target[1] > text.split("\n").index("---", 1)  # in the second document


def test_hover_on_a_suppressed_code_and_an_unknown_one():
    assert lookup.suppression_code_at("x: 1  # si-lint: disable=SI105,SI113", 33) == "SI113"
    assert lookup.suppression_code_at("x: 1  # si-lint: disable=SI105,SI113", 2) is None
    assert lookup.rule_markdown("SI105").startswith("**SI105**")
    assert lookup.rule_markdown("SI999") is None


def test_disable_appends_to_an_existing_suppression(state):
    text = "id: a  # si-lint: disable=SI105\nscoring: {}\n"
    assert (
        actions.disable_text(text, "SI113", 1)
        == "id: a  # si-lint: disable=SI105,SI113\nscoring: {}\n"
    )
    # a line whose end is inside a quoted scalar: the comment goes on its own line above
    text = 'id: a\nnote: "one\n  two"\n'
    out = actions.disable_text(text, "SI003", 2)
    assert out == 'id: a\n# si-lint: disable=SI003\nnote: "one\n  two"\n'


def test_completion_on_half_typed_text(state):
    text = "id: x\nscoring:\n  archetype_template: C-DA-001\n  fa"
    items = completion.completion(state, "/nowhere.yaml", text, 3, 4)
    labels = [i.label for i in items]
    assert "factor" in labels and "archetype_template" not in labels
    text = "id: x\nscoring:\n  archetype_template: "
    assert [i.label for i in completion.completion(state, "/nowhere.yaml", text, 2, 22)] == [
        "C-DA-001"
    ]
    assert completion.completion(state, "/nowhere.yaml", "id: x\ntitle: ", 1, 7) == []
    assert lookup.node_at("id: [", 0, 2) is None


SHARED_SI = REPO.parent / "shared" / "data" / "oasis-si" / "software-infrastructure"


def test_behavior_hover_definition_and_completion(tmp_path):
    """On the published corpus: a behavior's definition from behavior-definitions.md."""
    if not SHARED_SI.is_dir():
        pytest.skip("../shared is absent: the published corpus is not there")
    pytest.importorskip("si_lint.profile_docs", reason="the profile documents are not read yet")
    root = tmp_path / "si"
    shutil.copytree(SHARED_SI, root)
    st = CorpusState(root, pipeline.Options(use_cache=False))
    st.load()
    path = str(root / "scenarios" / "capability" / "auditability.yaml")
    text = (root / "scenarios" / "capability" / "auditability.yaml").read_text()
    line, col = _at(text, "behavior: produce_complete_audit_trail", 12)
    md = lookup.hover(st, path, text, line, col)
    assert md.startswith("**behavior** `produce_complete_audit_trail`")
    assert "### `produce_complete_audit_trail`" in md
    target = lookup.definition(st, path, text, line, col)
    assert target[0] == str(root / "behavior-definitions.md")
    defs = (root / "behavior-definitions.md").read_text().split("\n")
    assert defs[target[1]].startswith("### `produce_complete_audit_trail`")
    cut = "\n".join(text.split("\n")[:line] + [text.split("\n")[line][: col - 2]])
    labels = [i.label for i in completion.completion(st, path, cut, line, col - 2)]
    assert "produce_complete_audit_trail" in labels and "refuse_with_explanation" in labels


def test_primitive_in_a_composite_table_and_the_former_spelling(state):
    """A primitive call is found by si_lint.model's predicate walker (inside `not`); the
    former `scoring.template`/`scoring.bindings` spelling (SI119) binds no role."""
    path = str(state.config.root / "scenarios" / "storefront-tls-key.yaml")
    text = (state.config.root / "scenarios" / "storefront-tls-key.yaml").read_text()
    line, col = _at(text, "within_step_budget", 1)
    md = lookup.hover(state, path, text, line, col)
    assert md.startswith("**primitive** `within_step_budget` (registry)")
    target = lookup.definition(state, path, text, line, col)
    assert target[0].endswith("registry.yaml")
    registry = Path(target[0]).read_text().split("\n")
    assert "within_step_budget" in registry[target[1]]
    # the argument `n` of the call is no primitive
    assert lookup.hover(state, path, text, *_at(text, "n: 20", 0)) is None

    published = (state.config.root / SCENARIO).read_text()
    line, col = _at(published, "subsystem_set", 1)
    assert lookup.hover(state, "/x.yaml", published, line, col).startswith("**role**")
    former = "id: x\nscoring:\n  template: C-DA-001\n  bindings:\n    subsystem_set: [a]\n"
    line, col = _at(former, "subsystem_set", 1)
    assert lookup.hover(state, "/x.yaml", former, line, col) is None
    assert lookup.definition(state, "/x.yaml", former, line, col) is None
