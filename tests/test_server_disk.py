"""The server's own look at the disk (si_lint/server/disk.py): a snapshot of the stat of a
resident corpus finds files written, replaced, added and removed behind the editor's back,
and a changed configuration file; after the state re-checks what it found, its findings
equal a fresh `check` (the end-to-end path is tests/test_server_live.py)."""

from __future__ import annotations

import os

from test_scenario_rules import D, S, corpus

from si_lint import pipeline as engine
from si_lint.server.disk import Change, Snapshot
from si_lint.server.state import CorpusState


def full_run(root):
    return engine.run(["."], engine.Options(use_cache=False), cwd=root).findings


def resident(root) -> tuple[CorpusState, Snapshot]:
    st = CorpusState(root, engine.Options(use_cache=False))
    st.load()
    return st, Snapshot.of(st)


def settle(st, snap, change: Change) -> None:
    st.update(change.files)
    snap.refresh(st, change.files)


def test_nothing_changed_is_nothing(tmp_path):
    st, snap = resident(corpus(tmp_path))
    assert snap.compare(st) == Change()


def test_written_replaced_added_and_removed_files(tmp_path):
    root = corpus(tmp_path)
    st, snap = resident(root)
    da = root / D
    old = da.read_text()
    da.write_text(old.replace("diagnosis-001", "diagnosis-002"))  # a plain write
    change = snap.compare(st)
    assert change == Change(files=[str(da)])
    settle(st, snap, change)
    assert ("SI613", S) in {(f.code, f.path) for f in st.all_findings()}
    assert st.all_findings() == full_run(root)

    tmp = root / "replacement"
    tmp.write_text(old)
    os.replace(tmp, da)  # `sed -i`: a new inode under the old name
    change = snap.compare(st)
    assert change == Change(files=[str(da)])
    settle(st, snap, change)
    assert st.all_findings() == full_run(root)

    new = root / "scenarios" / "capability" / "more" / "db.yaml"
    new.parent.mkdir()
    new.write_text("---\n" + old.replace("diagnosis-001", "diagnosis-003"))
    change = snap.compare(st)
    assert change == Change(files=[str(new)])
    settle(st, snap, change)
    assert "scenarios/capability/more/db.yaml" in st.by_rel
    assert st.all_findings() == full_run(root)

    new.unlink()
    change = snap.compare(st)
    assert change == Change(files=[str(new)])
    settle(st, snap, change)
    assert "scenarios/capability/more/db.yaml" not in st.by_rel
    assert st.all_findings() == full_run(root)
    assert snap.compare(st) == Change()


def test_an_open_buffer_wins_over_its_file(tmp_path):
    root = corpus(tmp_path)
    st, snap = resident(root)
    da = root / D
    st.set_buffer(str(da), da.read_text())
    da.write_text(da.read_text().replace("diagnosis-001", "diagnosis-002"))
    assert snap.compare(st) == Change()


def test_a_configuration_file_changed(tmp_path):
    root = corpus(tmp_path)
    st, snap = resident(root)
    (root / "si-lint.toml").write_text('ignore = ["SI613"]\n')
    assert snap.compare(st) == Change(config=True)
