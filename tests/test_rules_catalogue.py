"""The rule catalogue (`rules/`) is data, and it is true to the code (the rule contract,
ARCHITECTURE.md):

- every rule file matches rules/rule.schema.json and names its check (`check: module:function`);
- the codes in the catalogue and the codes the implementation can emit match one to one;
  each registered check is named by the rules of exactly the codes it declares, and every
  code has exactly one check;
- every example runs: a bad example yields exactly the findings it lists -- the WHOLE
  diagnostic: code, path, line, column, severity, message, help, related -- and a good
  example none;
- a check that emits a code it does not declare is reported as SI000, never under that code;
- docs/rules.md and docs/rules/CODE.md are generated from rules/ and up to date.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest
from conftest import REPO, check_json, write_files

from si_lint import loader
from si_lint.catalogue import rules
from si_lint.checks import all_checks
from si_lint.registry import PIPELINE_CODES

CATALOGUE = rules()
#: codes whose failure cannot be provoked from input (a crashing check)
NO_EXAMPLE = {"SI000"}
WHOLE = ("code", "path", "line", "column", "severity", "message", "help", "related")

EXAMPLES = [
    pytest.param(code, label, id=f"{code}-{label}")
    for code, rule in CATALOGUE.items()
    if code not in NO_EXAMPLE
    for label in ("bad", "good")
]


def _ref(check) -> str:
    return f"{check.func.__module__}:{check.func.__qualname__}"


def _resolve(ref: str):
    module, _, name = ref.partition(":")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_catalogue_and_implementation_match_one_to_one():
    emitted = {code for check in all_checks() for code in check.codes}
    assert sorted(CATALOGUE) == sorted(emitted | set(PIPELINE_CODES) | set(loader.CODES))


def test_rule_files_match_their_schema():
    import jsonschema

    from si_lint.loader import load_bytes

    schema = json.loads((REPO / "rules" / "rule.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    problems = {}
    for path in sorted((REPO / "rules").glob("*.yaml")):
        errors = list(validator.iter_errors(load_bytes(path.read_bytes()).data))
        if errors:
            problems[path.name] = [
                f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:3]
            ]
    assert not problems, problems


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_entry_is_complete(code):
    rule = CATALOGUE[code]
    assert rule.code == code and rule.source.endswith(f"{code}.yaml")
    assert rule.severity in ("error", "warning", "info")
    assert rule.name and rule.name == rule.name.lower() and " " not in rule.name
    assert rule.summary and rule.rationale and rule.seed
    if code not in NO_EXAMPLE:
        assert set(rule.examples) >= {"bad", "good"}, "a bad and a good example"
        assert rule.examples["bad"].get("expect"), "the bad example must expect findings"
        assert any(f["code"] == code for f in rule.examples["bad"]["expect"])


def test_each_rule_names_the_check_that_emits_it():
    from si_lint import loader

    by_code: dict[str, set[str]] = {}
    for check in all_checks():
        for code in check.codes:
            by_code.setdefault(code, set()).add(_ref(check))
    for code, rule in CATALOGUE.items():
        assert rule.check, f"{code}: rules/{code}.yaml has no `check: module:function`"
        assert callable(_resolve(rule.check)), f"{code}: {rule.check} is not a function"
        registered = by_code.get(code, set())
        if registered:
            assert {rule.check} == registered, (
                f"{code}: rules/{code}.yaml names {rule.check}, the checks that declare it are {sorted(registered)}"
            )
        else:  # emitted by the loader or the pipeline itself
            module = rule.check.partition(":")[0]
            assert code in loader.CODES or module.startswith("si_lint.pipeline"), code


def test_every_code_has_exactly_one_check():
    by_code: dict[str, list[str]] = {}
    for check in all_checks():
        for code in check.codes:
            by_code.setdefault(code, []).append(_ref(check))
    shared = {code: refs for code, refs in by_code.items() if len(refs) > 1}
    assert not shared, f"codes declared by several checks (give each one check): {shared}"


def test_a_severity_reads_its_rule_file_alone(monkeypatch):
    """A finding's severity needs one rule: ``severity_of`` reads ``rules/CODE.yaml`` alone
    (every ``--jobs`` worker locates findings), and gives what the whole catalogue gives."""
    from si_lint import catalogue

    read = []
    real = catalogue._read_rule
    monkeypatch.setattr(catalogue, "_read_rule", lambda path: read.append(path.name) or real(path))
    catalogue.rules.cache_clear()
    catalogue.rule.cache_clear()
    try:
        assert catalogue.severity_of("SI303") == CATALOGUE["SI303"].severity == "error"
        assert catalogue.severity_of("SI403") == CATALOGUE["SI403"].severity == "info"
        assert catalogue.rule("SI303") == CATALOGUE["SI303"]
        assert catalogue.rule("SI9999") is None and catalogue.severity_of("SI9999") == "error"
        assert read == ["SI303.yaml", "SI403.yaml"]
        assert catalogue.rules() == CATALOGUE  # read whole: then it answers
        read.clear()
        assert catalogue.rule("SI115") is catalogue.rules()["SI115"]
        assert read == []
    finally:
        catalogue.rules.cache_clear()
        catalogue.rule.cache_clear()
    assert {code: catalogue.rule(code) for code in CATALOGUE} == CATALOGUE


def test_a_check_emitting_an_undeclared_code_becomes_si000(tmp_path, monkeypatch):
    import si_lint.checks as checks_pkg
    from si_lint.findings import Diag
    from si_lint.registry import Check

    def rogue(doc, ctx):
        yield Diag("SI105", ("id",), "not mine to report")
        yield Diag("SI101", ("id",), "mine")

    fake = (Check(rogue, ("SI101",), "file", ("scenario",)),)
    monkeypatch.setattr(checks_pkg, "all_checks", lambda: fake)
    write_files(tmp_path, {"s.yaml": "id: x\nscoring: {}\n"})
    _, report = check_json(tmp_path, "--select", "SI000,SI101,SI105")
    got = [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]]
    assert got == [("SI000", 1, 1), ("SI101", 1, 1)], report
    assert "emitted SI105, which it does not declare" in report["diagnostics"][0]["message"]


def _whole(d: dict) -> tuple:
    """The whole diagnostic, comparable: related locations as canonical JSON text."""
    return tuple(
        json.dumps(d.get(k) or None, sort_keys=True) if k == "related" else d.get(k) for k in WHOLE
    )


@pytest.mark.parametrize("code,label", EXAMPLES)
def test_example(code, label, tmp_path):
    example = CATALOGUE[code].examples[label]
    write_files(tmp_path, example["files"])
    _, report = check_json(tmp_path, *(example.get("args") or []))
    got = sorted(_whole(d) for d in report["diagnostics"])
    expected = sorted(_whole(f) for f in (example.get("expect") or []))
    assert got == expected, report["diagnostics"]


def test_rule_docs_are_generated_and_up_to_date():
    proc = subprocess.run(
        [sys.executable, str(REPO / "tools" / "rules.py"), "docs", "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.stem for p in (REPO / "docs" / "rules").glob("*.md")) == sorted(CATALOGUE)
