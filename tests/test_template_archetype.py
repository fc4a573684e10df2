"""SI121 (rules/SI121.yaml): a Form B scenario bound to the template of another archetype.
Whole diagnostics; the help follows what the profile holds. The scenario is the rule's own
bad example (its `archetype_template` value is line 31, column 23)."""

from __future__ import annotations

import yaml
from conftest import REPO, check_json, write_files
from test_form_a import profile_with_template

EXAMPLE = yaml.safe_load((REPO / "rules" / "SI121.yaml").read_text(encoding="utf-8"))
FILES = EXAMPLE["examples"]["bad"]["files"]
S = "scenarios/s.yaml"


def _whole(report: dict) -> list[dict]:
    keys = ("code", "severity", "path", "line", "column", "message", "help")
    return [{k: d[k] for k in keys} for d in report["diagnostics"]]


def _si121(help_: str, profile: str = "builtin") -> dict:
    return {
        "code": "SI121",
        "severity": "warning",
        "path": S,
        "line": 31,
        "column": 23,
        "message": "scenario of archetype C-DA-002 is bound to template C-DA-001 "
        "(Single-Signal Diagnosis): its table scores another archetype",
        "help": help_,
    }


def test_without_a_template_for_the_archetype_the_help_says_to_correct_it_or_wait(tmp_path):
    write_files(tmp_path, FILES)
    code, report = check_json(tmp_path, "--select", "SI1")
    assert report["summary"] == {"files": 1, "errors": 0, "warnings": 1, "infos": 0}
    assert (code, _whole(report)) == (
        0,
        [
            _si121(
                "correct `archetype` if the scenario is a C-DA-001 one; else profile builtin "
                "has no template for C-DA-002 yet: keep Form A (or a composite) until it has"
            )
        ],
    )


def test_with_a_template_for_the_archetype_the_help_says_to_bind_it(tmp_path):
    write_files(tmp_path, FILES)
    profile_with_template(tmp_path)
    (tmp_path / "si-lint.toml").write_text(
        'profile = "profiles/team"\nignore = ["SI306", "SI403"]\n', encoding="utf-8"
    )
    code, report = check_json(tmp_path, "--select", "SI1")
    assert (code, _whole(report)) == (
        0,
        [
            _si121(
                "bind `archetype_template: C-DA-002`, the template of the scenario's archetype, "
                "or correct `archetype` if the scenario is a C-DA-001 one"
            )
        ],
    )


def test_a_template_found_by_its_id_under_another_key_agrees(tmp_path):
    """Templates are found by key, else by `template.id`: a scenario of archetype C-DA-002
    bound by the key of a file whose template id is C-DA-002 is not SI121."""
    write_files(tmp_path, FILES)
    pdir = profile_with_template(tmp_path)
    (pdir / "templates" / "C-DA-002.yaml").rename(pdir / "templates" / "multi.yaml")
    (tmp_path / "si-lint.toml").write_text(
        'profile = "profiles/team"\nignore = ["SI306", "SI403"]\n', encoding="utf-8"
    )
    scen = (tmp_path / S).read_text(encoding="utf-8")
    (tmp_path / S).write_text(
        scen.replace("archetype_template: C-DA-001", "archetype_template: C-DA-002"),
        encoding="utf-8",
    )
    code, report = check_json(tmp_path, "--select", "SI1")
    assert (code, _whole(report)) == (0, [])
