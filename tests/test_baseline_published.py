"""`--write-baseline` / `--baseline` on the published corpus (issue 14 acceptance, SPEC §9):
a team that holds its corpus to Form B (`require-form-b = true`: SI115 is an error, SPEC
§3.1) adopts si-lint on a corpus with 28 unmigrated Form A scenarios and is held to "no new
ones": the 28 are baselined, a new Form A scenario is reported, and a scenario that is
migrated (here: removed) is counted as a stale entry."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import SHARED, run_cli

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"


@pytest.fixture
def corpus(tmp_path):
    if not PUBLISHED.is_dir():
        pytest.skip(f"../shared is absent: the published corpus is expected at {PUBLISHED}")
    dst = tmp_path / "si"
    shutil.copytree(PUBLISHED, dst)
    (dst / "si-lint.toml").write_text("require-form-b = true\n", encoding="utf-8")
    return dst


def _si115(cwd):
    code, out, err = run_cli(["check", "--no-cache", "--format", "json", "--select", "SI115"], cwd)
    assert code in (0, 1), err
    return json.loads(out)["diagnostics"]


def _document_with_id(text: str, sid: str) -> tuple[int, int]:
    """(start, end) line indexes of the `---`-separated document holding `id: sid`."""
    lines = text.split("\n")
    cuts = [i for i, line in enumerate(lines) if line == "---"] + [len(lines)]
    for a, b in zip(cuts, cuts[1:]):
        if any(re.fullmatch(rf"id:\s*{re.escape(sid)}\s*", line) for line in lines[a:b]):
            return a, b
    raise AssertionError(f"no document with id {sid}")


def test_baseline_the_28_form_a_scenarios_then_hold_the_line(corpus):
    found = _si115(corpus)
    assert len(found) == 28, [(d["path"], d["line"]) for d in found]
    assert {d["severity"] for d in found} == {"error"}
    written = run_cli(
        ["check", "--no-cache", "--select", "SI115", "--write-baseline", "../base.json"], corpus
    )
    assert written == (0, "", "Wrote 28 baseline entries to ../base.json\n")
    base = json.loads((corpus.parent / "base.json").read_text(encoding="utf-8"))
    assert len(base["findings"]) == 28 and {e["code"] for e in base["findings"]} == {"SI115"}
    assert all(e["document"].startswith("id:") for e in base["findings"])  # by scenario id
    assert len({e["fingerprint"] for e in base["findings"]}) == 28

    code, out, err = run_cli(
        ["check", "--no-cache", "--select", "SI115", "--baseline", "../base.json"], corpus
    )
    assert code == 0, out
    assert out.startswith("All checks passed")
    assert "28 finding(s) hidden, 0 stale entries" in err

    # a new Form A scenario (a copy of a baselined one under a new id) is reported
    first = found[0]
    text = (corpus / first["path"]).read_text(encoding="utf-8")
    ids = re.findall(r"^id:\s*(\S+)\s*$", text, re.M)
    sid = ids[first.get("document", 0) if len(ids) > 1 else 0]
    a, b = _document_with_id(text, sid)
    copy = "\n".join(text.split("\n")[a:b]).replace(f"id: {sid}", f"id: {sid[:-3]}990")
    new = corpus / "scenarios" / "capability" / "new-form-a.yaml"
    new.write_text(copy if copy.startswith("---") else "---\n" + copy, encoding="utf-8")

    # a migrated one (removed here) leaves a stale entry; the rest keep their fingerprints
    second = next(d for d in found if d["path"] != first["path"])
    text2 = (corpus / second["path"]).read_text(encoding="utf-8")
    ids2 = re.findall(r"^id:\s*(\S+)\s*$", text2, re.M)
    sid2 = ids2[second.get("document", 0) if len(ids2) > 1 else 0]
    a, b = _document_with_id(text2, sid2)
    lines = text2.split("\n")
    (corpus / second["path"]).write_text("\n".join(lines[:a] + lines[b:]), encoding="utf-8")

    code, out, err = run_cli(
        ["check", "--no-cache", "--select", "SI115", "--baseline", "../base.json"], corpus
    )
    assert code == 1
    # the one head line: the copy's `scoring:` key, its new id and its archetype
    new_lines = new.read_text(encoding="utf-8").split("\n")
    scoring_line = new_lines.index("scoring:") + 1
    archetype = next(ln for ln in new_lines if ln.startswith("archetype: ")).split()[1]
    heads = [ln for ln in out.splitlines() if ln and not ln.startswith(" ")]
    assert heads == [
        f"scenarios/capability/new-form-a.yaml:{scoring_line}:1: SI115 [error] Form A graded "
        f"rubric on scenario `{sid[:-3]}990` (archetype {archetype}): Form B is required "
        f"(`require-form-b = true`); no template for {archetype} in profile builtin yet",
        "Found 1 finding(s) in 16 file(s): 1 error(s), 0 warning(s), 0 info(s).",  # one new file
    ], out
    assert "27 finding(s) hidden, 1 stale entry (no longer found)" in err
