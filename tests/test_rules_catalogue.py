"""The rule catalogue (`rules/`) is data, and it is true to the code:

- every example in it runs: a bad example yields exactly the findings it lists (code, path,
  line, column — the whole list) and a good example yields none;
- the codes in the catalogue and the codes the implementation can emit match one to one.
"""

from __future__ import annotations

import pytest

from conftest import check_json, diag_tuples, write_files
from si_lint.catalogue import rules
from si_lint.checks.base import implemented_codes

CATALOGUE = rules()
#: codes whose failure cannot be provoked from input (a crashing check)
NO_EXAMPLE = {"SI000"}

EXAMPLES = [
    pytest.param(code, label, id=f"{code}-{label}")
    for code, rule in CATALOGUE.items()
    if code not in NO_EXAMPLE
    for label in ("bad", "good")
]


def test_catalogue_and_implementation_match_one_to_one():
    assert sorted(CATALOGUE) == sorted(implemented_codes())


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


@pytest.mark.parametrize("code,label", EXAMPLES)
def test_example(code, label, tmp_path):
    example = CATALOGUE[code].examples[label]
    write_files(tmp_path, example["files"])
    _, report = check_json(tmp_path, *(example.get("args") or []))
    expected = sorted(
        (f["code"], f["path"], f["line"], f["column"]) for f in (example.get("expect") or [])
    )
    assert sorted(diag_tuples(report)) == expected, report["diagnostics"]
