"""EIO rules through `si-lint check` (whole diagnostics: code, path, line, column).

The rule catalogue's examples (tests/test_rules_catalogue.py) cover each code once; these
tests cover the corpus-level behaviour: the seed corpus is clean, references resolve
through transitive imports, absent imports make EIO117 (info) instead of EIO102, cycles,
partial naming as pre-commit does it, and the EIO fixture dry run.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import check_json, diag_tuples, write_files

REPO = Path(__file__).resolve().parents[1]
EIO = REPO / "fixtures" / "corpus" / "eio"


def diags(report):
    return sorted((d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"])


def test_seed_corpus_lints_clean(tmp_path):
    shutil.copytree(EIO, tmp_path / "eio")
    code, report = check_json(tmp_path)
    assert (code, report["diagnostics"]) == (0, [])
    assert report["summary"]["files"] == 9  # the seed, 4 stand-in imports, 4 inputs


def test_fixtures_corpus_lints_clean():
    code, report = check_json(REPO, "fixtures/corpus")
    assert (code, report["diagnostics"]) == (0, [])


def test_seed_alone_reports_absent_imports_as_info(tmp_path):
    shutil.copy(EIO / "eio.context.criteria.yaml", tmp_path / "m.yaml")
    code, report = check_json(tmp_path)
    assert code == 0  # info only
    S = "m.yaml"
    assert diags(report) == sorted(
        [("EIO103", S, line, 13) for line in (31, 33, 35, 37)]  # each import
        + [("EIO117", S, line, 13) for line in (43, 79)]  # parent eio.entity.thing
        + [("EIO117", S, line, 11) for line in (99, 107, 124, 135, 143, 151, 166)]  # axis
    )
    assert {d["severity"] for d in report["diagnostics"]} == {"info"}


def test_seed_named_alone_sees_the_whole_corpus(tmp_path):
    shutil.copytree(EIO, tmp_path / "eio")
    code, report = check_json(tmp_path, "eio/eio.context.criteria.yaml")
    assert (code, report["diagnostics"]) == (0, [])


HEADER = "eio:\n  id: {id}\n  version: {v}\n"


def mod(mid, v="0.1.0", body=""):
    return HEADER.format(id=mid, v=v) + body


def test_references_resolve_through_transitive_imports(tmp_path):
    write_files(
        tmp_path,
        {
            "a.yaml": mod(
                "a",
                body="imports:\n  - {module: b, version: 0.1.0}\n"
                "concepts:\n  - {id: a.x, parent: c.root}\n",
            ),
            "b.yaml": mod("b", body="imports:\n  - {module: c, version: 0.1.0}\n"),
            "c.yaml": mod("c", body="concepts:\n  - {id: c.root}\n"),
        },
    )
    code, report = check_json(tmp_path)
    assert (code, report["diagnostics"]) == (0, [])


def test_a_transitive_import_absent_makes_eio117_and_then_eio102(tmp_path):
    files = {
        "a.yaml": mod(
            "a",
            body="imports:\n  - {module: b, version: 0.1.0}\n"
            "concepts:\n  - {id: a.x, parent: c.root}\n",
        ),
        "b.yaml": mod("b", body="imports:\n  - {module: c, version: 0.1.0}\n"),
    }
    write_files(tmp_path, files)
    _, report = check_json(tmp_path)
    # line 7 of a.yaml: "  - {id: a.x, parent: c.root}" -> the value at column 23
    assert diags(report) == [("EIO103", "b.yaml", 5, 14), ("EIO117", "a.yaml", 7, 23)]
    write_files(tmp_path, {"c.yaml": mod("c", body="concepts:\n  - {id: c.other}\n")})
    code, report = check_json(tmp_path)
    assert code == 1
    assert diags(report) == [("EIO102", "a.yaml", 7, 23)]
    assert report["diagnostics"][0]["severity"] == "error"


def test_import_at_another_version_is_an_error_with_the_module_related(tmp_path):
    write_files(
        tmp_path,
        {
            "a.yaml": mod("a", body="imports:\n  - module: b\n    version: 0.2.0\n"),
            "b.yaml": mod("b", v="0.1.0"),
        },
    )
    code, report = check_json(tmp_path)
    assert code == 1
    assert diag_tuples(report) == [("EIO103", "a.yaml", 6, 14)]
    d = report["diagnostics"][0]
    assert d["severity"] == "error"
    assert [(r["path"], r["line"], r["column"]) for r in d["related"]] == [("b.yaml", 3, 12)]


def test_concept_self_parent_and_three_module_import_ring(tmp_path):
    write_files(
        tmp_path,
        {
            "a.yaml": mod(
                "a", body="imports:\n  - {module: b}\nconcepts:\n  - {id: a.x, parent: a.x}\n"
            ),
            "b.yaml": mod("b", body="imports:\n  - {module: c}\n"),
            "c.yaml": mod("c", body="imports:\n  - {module: a}\n"),
        },
    )
    code, report = check_json(tmp_path)
    assert code == 1
    assert diags(report) == [("EIO113", "a.yaml", 5, 5), ("EIO113", "a.yaml", 7, 23)]
    by_line = {d["line"]: d for d in report["diagnostics"]}
    assert by_line[5]["message"] == "cycle in module imports: a → b → c → a"
    assert [(r["path"], r["line"]) for r in by_line[5]["related"]] == [("b.yaml", 5), ("c.yaml", 5)]
    assert by_line[7]["message"] == "cycle in concept parents: a.x → a.x"


def test_eio_fixture_for_a_module_not_in_the_corpus(tmp_path):
    write_files(
        tmp_path, {"in.yaml": "module: nowhere\ncontext_artifacts: []\nexpect: {q_axis: null}\n"}
    )
    code, report = check_json(tmp_path)
    assert code == 1
    assert diag_tuples(report) == [("EIO401", "in.yaml", 1, 9)]


def test_eio_fixture_that_cannot_be_evaluated_is_reported_at_expect(tmp_path):
    shutil.copytree(EIO, tmp_path / "eio")
    write_files(
        tmp_path,
        {
            "in.yaml": "module: eio.context.criteria\nprofile: eio.profile.nope\n"
            "context_artifacts: []\nexpect:\n  q_axis: null\n"
        },
    )
    code, report = check_json(tmp_path)
    assert diag_tuples(report) == [("EIO401", "in.yaml", 4, 1)]
    assert "profile `eio.profile.nope` is not defined" in report["diagnostics"][0]["message"]


def test_eio_fixture_mismatches_point_at_each_expectation(tmp_path):
    shutil.copytree(EIO, tmp_path / "eio")
    text = (EIO / "inputs" / "governed.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "eio.context.guardrail-coverage: {score: 0.8333333333333334}",
        "eio.context.guardrail-coverage: {score: 0.8333}",
    )
    text = text.replace(
        "eio.context.tool-schema-quality: {score: 0.8}",
        "eio.context.tool-schema-quality: NOT_APPLICABLE",
    )
    text = text.replace("q_axis: 7.3667", "q_axis: 7.4")
    (tmp_path / "eio" / "inputs" / "governed.yaml").write_text(text, encoding="utf-8")
    lines = text.split("\n")
    gr = next(i for i, l in enumerate(lines) if "guardrail-coverage: {score" in l) + 1
    ts = next(i for i, l in enumerate(lines) if "tool-schema-quality: NOT_APPLICABLE" in l) + 1
    qa = next(i for i, l in enumerate(lines) if l.startswith("  q_axis:")) + 1
    P = "eio/inputs/governed.yaml"
    code, report = check_json(tmp_path)
    assert code == 1
    # {score: 0.8333} -> the value 0.8333 at column 43; NOT_APPLICABLE at 36; 7.4 at 11
    assert diags(report) == [("EIO401", P, gr, 43), ("EIO401", P, ts, 36), ("EIO401", P, qa, 11)]


def test_blank_probe_through_a_descendant_kind_of_an_imported_module(tmp_path):
    write_files(
        tmp_path,
        {
            "base.yaml": mod("base", body="concepts:\n  - {id: eio.artifact.context}\n"),
            "m.yaml": mod(
                "m",
                body=(
                    "imports:\n  - {module: base, version: 0.1.0}\n"
                    "concepts:\n  - {id: eio.artifact.note, parent: eio.artifact.context}\n"
                    "context_criteria:\n"
                    "  - id: m.c\n    scoring: checklist\n    evaluates: [eio.artifact.note]\n"
                    '    controls:\n      - {id: x, requires_any: ["\\t"]}\n'
                    "profiles:\n  - {id: m.p, scoring_criteria: [m.c]}\n"
                ),
            ),
        },
    )
    code, report = check_json(tmp_path)
    assert code == 1
    # line 13: '      - {id: x, requires_any: ["\t"]}' -> the term at column 32;
    # the probe at the `controls` key, line 12
    assert diags(report) == [("EIO107", "m.yaml", 13, 32), ("EIO115", "m.yaml", 12, 5)]


def test_fix_casefolds_terms_and_drops_repeated_ones(tmp_path):
    from conftest import run_cli

    write_files(
        tmp_path,
        {
            "m.yaml": (
                "eio:\n  id: m\n  version: 0.1.0\n"
                "concepts:\n  - {id: eio.artifact.context}\n"
                "context_criteria:\n"
                "  - id: m.c\n    scoring: checklist\n    evaluates: [eio.artifact.context]  # all\n"
                "    controls:\n"
                '      - {id: pd, requires_any: [GDPR, "never ", pii, pii]}\n'
                "      - id: st\n        requires_any:\n          - Straße  # street\n"
                "profiles:\n  - {id: m.p, scoring_criteria: [m.c]}\n"
            )
        },
    )
    code, out, err = run_cli(["check", "--no-cache", "--fix", "--unsafe-fixes"], tmp_path)
    assert code == 0, (out, err)
    assert (tmp_path / "m.yaml").read_text(encoding="utf-8") == (
        "eio:\n  id: m\n  version: 0.1.0\n"
        "concepts:\n  - {id: eio.artifact.context}\n"
        "context_criteria:\n"
        "  - id: m.c\n    scoring: checklist\n    evaluates: [eio.artifact.context]  # all\n"
        "    controls:\n"
        '      - {id: pd, requires_any: [gdpr, "never ", pii]}\n'
        "      - id: st\n        requires_any:\n          - strasse  # street\n"
        "profiles:\n  - {id: m.p, scoring_criteria: [m.c]}\n"
    )


@pytest.mark.parametrize(
    "version,ok",
    [
        ("0.2.2", True),
        ("1.0.0", True),
        ("0.3.0-rc1", True),
        ("1.0.0+build.7", True),
        ("1.0", False),
        ("v1.0.0", False),
        ("01.0.0", False),
        (" 1.0.0", False),
        ("1.0.0\n", False),
        ("1.0.0-", False),
        ("١.٠.٠", False),  # Arabic-Indic digits are not ASCII digits
    ],
)
def test_semantic_versions(version, ok):
    from si_lint.eio.model import SEMVER_RE

    assert (SEMVER_RE.fullmatch(version) is not None) is ok
