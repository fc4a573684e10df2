"""The language server's resident state keeps SI611–SI619 equal to a fresh `check`:
companions (SI613) and duplicate intents (SI615) live in other files than the edit, and the
profile documents are read for the resident corpus too."""

from __future__ import annotations

from test_scenario_rules import SAFETY, D, S, corpus, sub

from si_lint import pipeline as engine
from si_lint.server.state import CorpusState


def full_run(root):
    return engine.run(["."], engine.Options(use_cache=False), cwd=root).findings


def si6(findings):
    return [(f.code, f.path, f.line, f.column) for f in findings if f.code.startswith("SI6")]


def test_edits_in_another_file_update_companion_and_intent_findings(tmp_path):
    other = sub(SAFETY, "zone-violation-001", "zone-violation-002")
    other = sub(other, "Tests whether", "Tests if")
    root = corpus(tmp_path, extra={"scenarios/safety/b.yaml": "---\n" + other})
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    assert st.all_findings() == full_run(root)
    assert si6(st.all_findings()) == []

    da = root / D
    da.write_text(da.read_text().replace("diagnosis-001", "diagnosis-002"))
    st.update([str(da)])  # both safety scenarios lose their companion
    assert st.all_findings() == full_run(root)
    assert si6(st.all_findings()) == [
        ("SI613", "scenarios/safety/b.yaml", 12, 23),
        ("SI613", S, 14, 23),
    ]

    b = root / "scenarios/safety/b.yaml"
    b.write_text(b.read_text().replace("Tests if", "Tests whether"))
    st.update([str(b)])  # now b.yaml repeats be.yaml's intent: SI615 lands in be.yaml
    assert st.all_findings() == full_run(root)
    assert ("SI615", S, 11, 1) in si6(st.all_findings())

    b.write_text(b.read_text().replace("Tests whether", "Tests if"))
    st.update([str(b)])  # and goes away again
    assert st.all_findings() == full_run(root)
    assert ("SI615", S, 11, 1) not in si6(st.all_findings())
