"""SPEC §9 "Cross-file scope" (issue 42): a finding is reported exactly when its primary
or a related location is in a named file; a dangling reference (SI303) relates to the
scenario with the nearest id, so renaming an id reports the references it left behind
and naming an unrelated file does not; after a failed read, references to ids the file
could define are held back (SI303, SI613)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_cli

SID = "infra.capability.da.alertmanager-smarthost-001"
RENAMED = "infra.capability.da.alertmanager-smarthost-002"
SCEN = "scenarios/alertmanager-smarthost.yaml"
FIXTURES = [
    "fixtures/alertmanager-smarthost/correct-lacks.yaml",
    "fixtures/alertmanager-smarthost/no-final-answer.yaml",
    "fixtures/alertmanager-smarthost/partial-prose-smarthost.yaml",
    "fixtures/alertmanager-smarthost/wrong-blames-spam-filter.yaml",
]


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", root, ignore=shutil.ignore_patterns(".si-lint-*"))
    return root


def _diags(root: Path, *args: str) -> list[dict]:
    code, out, err = run_cli(["check", "--no-cache", "--format", "json", *args], root)
    assert code in (0, 1), (code, out, err)
    keep = ("code", "severity", "path", "line", "column", "message", "help", "related")
    return [{k: d.get(k) for k in keep} for d in json.loads(out)["diagnostics"]]


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _si303(fixture: str, related: bool = True) -> dict:
    return {
        "code": "SI303",
        "severity": "error",
        "path": fixture,
        "line": 1,
        "column": 11,
        "message": f"fixture names an unknown scenario `{SID}`",
        "help": f"did you mean `{RENAMED}`?",
        "related": [{"path": SCEN, "line": 1, "column": 5, "message": "the nearest scenario id"}]
        if related
        else None,
    }


def test_a_renamed_id_reports_the_references_it_left_and_nothing_else(corpus):
    _edit(corpus, SCEN, f"id: {SID}", f"id: {RENAMED}")
    # the renamed scenario's file: the fixtures it left dangling relate to its new id
    assert _diags(corpus, "--select", "SI303", SCEN) == [_si303(f) for f in FIXTURES]
    # an unrelated file: nothing (it used to report every dangling fixture of the corpus)
    assert _diags(corpus, "scenarios/backup-s3-bucket.yaml") == []
    # a fixture itself: its own finding
    assert _diags(corpus, "--select", "SI303", FIXTURES[1]) == [_si303(FIXTURES[1])]


def test_a_dangling_reference_with_no_near_id_stays_with_its_file(corpus):
    _edit(corpus, FIXTURES[0], f"scenario: {SID}", "scenario: something.else.entirely")
    want = {
        "code": "SI303",
        "severity": "error",
        "path": FIXTURES[0],
        "line": 1,
        "column": 11,
        "message": "fixture names an unknown scenario `something.else.entirely`",
        "help": "name the `id` of a scenario in the corpus",
        "related": None,
    }
    assert _diags(corpus, "--select", "SI303") == [want]
    assert _diags(corpus, "--select", "SI303", SCEN) == []
    assert _diags(corpus, "--select", "SI303", FIXTURES[0]) == [want]


def test_a_duplicate_intent_is_reported_from_either_file(corpus):
    """SI615 sits on one scenario and names the other as related: naming either file
    reports it, naming a third does not."""
    src = corpus / "scenarios" / "platform-oncall.yaml"
    docs = src.read_text(encoding="utf-8").split("\n---\n")
    safety = docs[-1].replace(
        "id: infra.safety.ds.ingest-db-drop-001", "id: infra.safety.ds.copy-001"
    )
    (corpus / "scenarios" / "zz-copy.yaml").write_text(safety, encoding="utf-8")
    whole = [d for d in _diags(corpus, "--select", "SI615")]
    assert [(d["code"], d["path"]) for d in whole] == [("SI615", "scenarios/zz-copy.yaml")]
    assert [r["path"] for r in whole[0]["related"]] == ["scenarios/platform-oncall.yaml"]
    assert _diags(corpus, "--select", "SI615", "scenarios/platform-oncall.yaml") == whole
    assert _diags(corpus, "--select", "SI615", "scenarios/zz-copy.yaml") == whole
    assert _diags(corpus, "--select", "SI615", SCEN) == []


def test_knock_on_findings_after_a_failed_read_are_held_back(corpus):
    """A typo that breaks a scenario file: its SI001 is the finding, not SI303 on each of
    its fixtures nor SI613 on a companion that names one of its scenarios."""
    src = corpus / "scenarios" / "platform-oncall.yaml"
    docs = src.read_text(encoding="utf-8").split("\n---\n")
    safety = docs[-1].replace(
        "id: infra.safety.ds.ingest-db-drop-001", "id: infra.safety.ds.copy-001"
    )
    (corpus / "scenarios" / "zz-copy.yaml").write_text(safety, encoding="utf-8")
    _edit(corpus, "scenarios/platform-oncall.yaml", "name: ", "name: [unclosed ")
    _edit(corpus, SCEN, "name: ", "name: [unclosed ")
    got = _diags(corpus, "--select", "SI001,SI303,SI613")
    assert [(d["code"], d["path"], d["line"]) for d in got] == [
        ("SI001", SCEN, 3),
        ("SI001", "scenarios/platform-oncall.yaml", 12),
    ]
    # an id no failed file holds is still reported
    _edit(corpus, FIXTURES[0], f"scenario: {SID}", "scenario: something.else.entirely")
    got = _diags(corpus, "--select", "SI303", FIXTURES[0])
    assert [(d["code"], d["path"], d["message"]) for d in got] == [
        ("SI303", FIXTURES[0], "fixture names an unknown scenario `something.else.entirely`")
    ]


def test_a_renamed_companion_is_reported_from_the_renamed_file(tmp_path):
    """SI613 relates to the scenario with the nearest id: renaming DA-1 in a copy of the
    published corpus reports the safety scenario whose companion it was, when the renamed
    file is named, and not when an unrelated one is."""
    from conftest import SHARED

    published = SHARED / "data" / "oasis-si" / "software-infrastructure"
    if not published.is_dir():
        pytest.skip(f"the published corpus is not here ({published})")
    root = tmp_path / "si"
    shutil.copytree(published, root)
    da = "scenarios/capability/diagnostic-accuracy.yaml"
    old, new = (
        "infra.capability.da.single-signal-diagnosis-001",
        "infra.capability.da.single-signal-diagnosis-002",
    )
    _edit(root, da, f"id: {old}", f"id: {new}")
    want = {
        "code": "SI613",
        "severity": "error",
        "path": "scenarios/safety/data-exfiltration-prevention.yaml",
        "line": 95,
        "column": 23,
        "message": f"companion scenario `{old}` is no scenario in the corpus",
        "help": f"did you mean `{new}`?",
        "related": [{"path": da, "line": 4, "column": 5, "message": "the nearest scenario id"}],
    }
    assert _diags(root, "--select", "SI613", da) == [want]
    assert _diags(root, "--select", "SI613") == [want]
    assert _diags(root, "--select", "SI613", "scenarios/capability/auditability.yaml") == []
