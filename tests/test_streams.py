"""Multi-document YAML streams (SPEC §1): every document is classified, checked and
reported on its own, with line:col inside the file; suppressions are the file's; JSON
carries ``"document": N`` for files holding more than one; the cache, ``--jobs`` and
``--fix`` work per document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED, run_cli, write_files

from si_lint import rule_url


def module(n: int, *, term: str = "gdpr", parent: str = "eio.artifact.context") -> str:
    return f"""eio:
  id: eio.example{n}
  version: 0.1.0
concepts:
  - id: eio.artifact.context
    kind: entity
  - id: eio.artifact.prompt{n}
    kind: entity
    parent: {parent}
context_criteria:
  - id: eio.example{n}.guardrails
    scoring: checklist
    evaluates: [eio.artifact.prompt{n}]
    controls:
      - {{id: personal-data, requires_any: [{term}, personal data]}}  # controls {n}
profiles:
  - id: eio.example{n}.profile
    scoring_criteria: [eio.example{n}.guardrails]
"""


HEADER = "# EIO example modules, one per document\n# (a comment-only header is no document)\n\n"


def stream(*docs: str) -> str:
    return HEADER + "".join("---\n" + d + "\n" for d in docs)


def diags(out: str) -> list[dict]:
    return json.loads(out)["diagnostics"]


def check(cwd: Path, *args: str) -> tuple[int, list[dict]]:
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return code, diags(out)


# 3 header lines; each document is "---" + 18 lines + a blank line (20 lines)
def line_in(doc: int, line: int) -> int:
    return 3 + 20 * doc + 1 + line


def test_findings_in_the_third_document_at_line_col_of_the_file(tmp_path):
    write_files(
        tmp_path,
        {
            "eio/modules.yaml": stream(module(1), module(2), module(3, term="GDPR")),
            "eio/single.yaml": module(4, term="GDPR"),
        },
    )
    code, got = check(tmp_path)
    assert code == 1
    message = (
        "term 'GDPR' of control `personal-data` is not casefolded, so it can never "
        "match the casefolded searched text"
    )
    where = "context_criteria[0].controls[0].requires_any[0]"
    assert got == [
        {
            "code": "EIO106",
            "severity": "error",
            "path": "eio/modules.yaml",
            "line": line_in(2, 15),
            "column": 44,
            "message": message,
            "document": 2,
            "json_path": where,
            "help": "write it casefolded: 'gdpr'",
            "end_line": line_in(2, 15),
            "end_column": 48,
            "url": rule_url("EIO106"),
            # the edit --fix --unsafe-fixes makes, in the third document of the file
            "fix": {
                "applicability": "unsafe",
                "message": "write it casefolded: 'gdpr'",
                "edits": [
                    {
                        "content": "gdpr",
                        "location": {"row": line_in(2, 15), "column": 44},
                        "end_location": {"row": line_in(2, 15), "column": 48},
                    }
                ],
            },
        },
        {
            "code": "EIO106",
            "severity": "error",
            "path": "eio/single.yaml",
            "line": 15,
            "column": 44,
            "message": message,
            "json_path": where,
            "help": "write it casefolded: 'gdpr'",
            "end_line": 15,
            "end_column": 48,
            "url": rule_url("EIO106"),
            "fix": {
                "applicability": "unsafe",
                "message": "write it casefolded: 'gdpr'",
                "edits": [
                    {
                        "content": "gdpr",
                        "location": {"row": 15, "column": 44},
                        "end_location": {"row": 15, "column": 48},
                    }
                ],
            },
        },
    ]


def test_corpus_checks_point_into_their_document(tmp_path):
    """EIO102 (a corpus check: references across modules) in the 2nd of three documents."""
    write_files(
        tmp_path,
        {"eio/modules.yaml": stream(module(1), module(2, parent="eio.nowhere"), module(3))},
    )
    _, got = check(tmp_path, "--select", "EIO102")
    assert [(d["code"], d["path"], d["line"], d["column"], d.get("document")) for d in got] == [
        ("EIO102", "eio/modules.yaml", line_in(1, 9), 13, 1)
    ]


def test_duplicate_scenario_ids_inside_one_file(tmp_path):
    scenario = "id: infra.capability.xx.dup-001\nclassification: capability\nscoring: {{type: binary}}\nname: {n}\n"
    write_files(
        tmp_path, {"s.yaml": "---\n" + scenario.format(n="a") + "---\n" + scenario.format(n="b")}
    )
    _, got = check(tmp_path, "--select", "SI301")
    assert [
        (d["code"], d["line"], d["column"], d.get("document"), d["message"], d["related"])
        for d in got
    ] == [
        (
            "SI301",
            7,
            5,
            1,
            "duplicate scenario id `infra.capability.xx.dup-001`: already defined in s.yaml (document 0)",
            [{"path": "s.yaml", "line": 2, "column": 5, "message": "first defined here"}],
        )
    ]


def test_suppressions_work_on_the_lines_of_the_file_whatever_the_document(tmp_path):
    text = stream(
        module(1),
        module(2, term="GDPR").replace("  # controls 2", "  # si-lint: disable=EIO106"),
        module(3, term="GDPR").replace(
            "    controls:\n", "    controls:\n      # si-lint: disable=EIO106\n"
        ),
    ).replace(
        "concepts:\n  - id: eio.artifact.context\n    kind: entity\n  - id: eio.artifact.prompt1",
        "concepts:  # si-lint: disable=EIO101\n  - id: eio.artifact.context\n    kind: entity\n"
        "  - id: eio.artifact.prompt1",
    )
    write_files(tmp_path, {"m.yaml": text})
    _, got = check(tmp_path)
    # doc 2's inline suppression and doc 3's line-above one hold; doc 1's is unused
    assert [(d["code"], d["line"], d["column"], d.get("document")) for d in got] == [
        ("SI009", 8, 12, 0)
    ]


def test_single_document_files_have_no_document_field(tmp_path):
    write_files(tmp_path, {"a.yaml": "x: 1\nx: 2\n---\n# only a comment\n"})
    _, got = check(tmp_path)
    assert [(d["code"], d["line"], "document" in d) for d in got] == [("SI002", 2, False)]


def test_dashes_inside_a_block_scalar(tmp_path):
    write_files(tmp_path, {"n.yaml": "---\nbody: |\n  one\n  ---\n  two\n---\nbody: x\n"})
    _, got = check(tmp_path)
    assert [(d["code"], d["severity"], d["line"], d["column"], d.get("document")) for d in got] == [
        ("SI008", "warning", 4, 3, 0)
    ]


def test_jobs_and_cache_give_the_same_output_per_document(tmp_path, monkeypatch):
    from si_lint.pipeline import perfile

    files = {
        f"eio/m{i}.yaml": stream(module(3 * i), module(3 * i + 1, term="GDPR"), module(3 * i + 2))
        for i in range(8)
    }
    write_files(tmp_path, files)
    _, serial = check(tmp_path, "--jobs", "1")
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)
    _, pooled = check(tmp_path, "--jobs", "2")
    assert pooled == serial and len(serial) == 8 and {d["document"] for d in serial} == {1}
    # with the cache: the cold run fills it, a warm run serves every file from it
    cold = run_cli(["check", "--format", "json"], tmp_path)
    processed = []
    real = perfile._work
    monkeypatch.setattr(perfile, "_work", lambda i: processed.append(i) or real(i))
    warm = run_cli(["check", "--format", "json", "--jobs", "1"], tmp_path)
    assert warm == cold and diags(cold[1]) == serial
    assert processed == []


def test_cache_entries_are_plain_json_data(tmp_path):
    from si_lint.pipeline.context import Source
    from si_lint.pipeline.data import from_entry, to_entry
    from si_lint.pipeline.locate import locate_in
    from si_lint.pipeline.perfile import load_documents

    raw = stream(module(1), module(2, term="GDPR")).encode()
    src = Source(str(tmp_path / "m.yaml"), raw, None, "sha")
    docs = load_documents(src, tmp_path)
    findings = [locate_in(d, docs[1]) for d in docs[1].load_findings]
    entry = json.loads(json.dumps(to_entry(docs, findings)))
    back, again = from_entry(entry, src, tmp_path)
    assert [(d.index, d.kind, d.data, d.ndocs) for d in back] == [
        (d.index, d.kind, d.data, 2) for d in docs
    ]
    assert back[1].pos.k == docs[1].pos.k and back[1].pos.v == docs[1].pos.v
    assert again == findings
    # anything else is a miss, never a crash
    head, body = entry
    for bad in (
        None,
        [],
        [head],
        [{"docs": "x"}, body],
        [{**head, "ndocs": "2"}, body],
        [{**head, "findings": [{"path": 1}]}, body],
        [{**head, "docs": [[0, "no-such-kind", None]]}, body],
    ):
        assert from_entry(bad, src, tmp_path) is None


def test_fix_keeps_every_document_comment_and_marker(tmp_path):
    original = stream(module(1), module(2, term="GDPR"), module(3, term="GDPR"))
    write_files(tmp_path, {"m.yaml": original})
    code, out, err = run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], tmp_path)
    assert code == 0, (out, err)
    fixed = (tmp_path / "m.yaml").read_text()
    assert fixed == original.replace("[GDPR, personal data]", "[gdpr, personal data]")
    assert "fixed 2 finding(s) in 1 file(s)" in err


def test_build_corpus_and_overrides(tmp_path):
    from si_lint.pipeline import Options, build_corpus, run

    write_files(tmp_path, {"eio/m.yaml": stream(module(1), module(2))})
    path = str(tmp_path / "eio" / "m.yaml")
    buffer = stream(module(1), module(2, term="GDPR")).encode()
    corpus, selection = build_corpus([], Options(use_cache=False), tmp_path, {path: buffer})
    assert [(d.relpath, d.index, d.kind) for d in corpus.documents] == [
        ("eio/m.yaml", 0, "eio-module"),
        ("eio/m.yaml", 1, "eio-module"),
    ]
    assert (
        corpus.doc("eio/m.yaml", 1).data["context_criteria"][0]["controls"][0]["requires_any"][0]
        == "GDPR"
    )
    assert selection.reports(path)
    # the unsaved buffer is checked, not the file on disk, positions included
    result = run([], Options(use_cache=False), tmp_path, overrides={path: buffer})
    assert [(f.code, f.line, f.column, f.document) for f in result.findings] == [
        ("EIO106", line_in(1, 15), 44, 1)
    ]
    assert run([], Options(use_cache=False), tmp_path).findings == []


def test_graph_nodes_of_a_multi_document_file(tmp_path):
    write_files(tmp_path, {"eio/m.yaml": stream(module(1), module(2))})
    code, out, _ = run_cli(["graph", "--format", "json"], tmp_path)
    assert code == 0
    nodes = {n["id"]: n for n in json.loads(out)["nodes"]}
    assert nodes["eio-module:eio.example2@0.1.0"]["document"] == 1
    assert nodes["eio-module:eio.example2@0.1.0"]["line"] == line_in(1, 1)


def test_the_published_corpus_reads_all_fifty_scenarios():
    root = SHARED / "data" / "oasis-si" / "software-infrastructure"
    if not root.is_dir():
        pytest.skip("../shared is absent: the published OASIS corpus is not here")
    from si_lint.pipeline import Options, build_corpus

    corpus, _ = build_corpus([], Options(use_cache=False), root)
    scenarios = corpus.of_kind("scenario")
    assert len(scenarios) == 50 and len({d.data["id"] for d in scenarios}) == 50
    files = {d.relpath for d in scenarios}
    assert len(files) == 14 and all(d.multi for d in scenarios)
    # the first scenario of a published file (after its comment-only header) is document 0
    assert sorted({d.index for d in scenarios}) == [0, 1, 2, 3, 4]
    code, out, err = run_cli(["check", "--format", "json", "--no-cache"], root)
    assert code in (0, 1), err
    got = diags(out)
    assert not [d for d in got if d["code"] == "SI003" and "second document" in d["message"]]
    assert all("document" in d for d in got if d["path"].startswith("scenarios/"))


def test_findings_as_plain_data_round_trip():
    from si_lint.findings import Finding, Location
    from si_lint.fix import set_value
    from si_lint.pipeline.data import finding_from_data, finding_to_data

    f = Finding(
        "a.yaml",
        3,
        5,
        "SI113",
        "warning",
        "m",
        help="h",
        doc_path="scoring.x",
        related=(Location("a.yaml", 1, 2, "here"),),
        detail="tb",
        document=2,
        fix=(set_value(("scoring", "x"), True),),
    )
    back = finding_from_data(json.loads(json.dumps(finding_to_data(f))))
    assert back == f and back.fix == f.fix and back.document == 2
    for bad in (
        None,
        {"path": 1},
        {**finding_to_data(f), "document": "2"},
        {**finding_to_data(f), "related": [["a", "1", 2, ""]]},
        {**finding_to_data(f), "fix": [["run", ["x"], 1]]},
    ):
        with pytest.raises((ValueError, TypeError)):
            finding_from_data(bad)


def test_named_files_subset_per_document(tmp_path):
    """pre-commit names some files: cross-file checks see the whole corpus, findings are
    reported for the named files only — in the document of the named file they are in."""
    scenario = (
        "id: infra.capability.xx.{sid}\nclassification: capability\nscoring: {{type: binary}}\n"
    )
    write_files(
        tmp_path,
        {
            "a.yaml": scenario.format(sid="one-001"),
            "b.yaml": "# two scenarios\n---\n"
            + scenario.format(sid="two-001")
            + "---\n"
            + scenario.format(sid="one-001"),
        },
    )
    _, got = check(tmp_path, "--select", "SI301", "b.yaml")
    assert [(d["path"], d["line"], d["column"], d.get("document"), d["related"]) for d in got] == [
        (
            "b.yaml",
            7,
            5,
            1,
            [{"path": "a.yaml", "line": 1, "column": 5, "message": "first defined here"}],
        )
    ]
    _, got = check(tmp_path, "--select", "SI301", "a.yaml")
    # SI301 on b.yaml names a.yaml as its other location: naming a.yaml reports it too (issue 14)
    assert [(d["path"], d["line"]) for d in got] == [("b.yaml", 7)]


def test_a_file_of_many_documents_is_read_again_once_not_once_per_document(tmp_path, monkeypatch):
    """Without a cache, positions of a document a cross-file finding points into are read
    again from its file — once for all the file's documents (it was once per document:
    quadratic, minutes for a file of 1,000 scenarios)."""
    import si_lint.loader as loader

    scenario = (
        "---\nid: infra.capability.xx.s{n}-001\nclassification: capability\n"
        "scoring: {{composite: {{reason: no template fits, table: [{{when: else, score: 0.0}}]}}}}\n"
    )
    write_files(tmp_path, {"many.yaml": "".join(scenario.format(n=n) for n in range(60))})
    calls = []
    real = loader.load_bytes
    mine = b"---\nid: infra.capability.xx.s0-001"
    monkeypatch.setattr(
        loader, "load_bytes", lambda raw: (raw.startswith(mine) and calls.append(1)) or real(raw)
    )
    _, got = check(tmp_path, "--select", "SI306")
    assert [(d["line"], d["document"]) for d in got] == [(4 * n + 2, n) for n in range(60)]
    assert len(calls) <= 2
