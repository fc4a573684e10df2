"""`si-lint rule`: prefixes and any case (as `--select`), `--all`, short pages, `--full`
(issue 45)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import run_cli

REPO = Path(__file__).resolve().parent.parent


def _catalogue() -> dict[str, dict]:
    """The rules as their files say (read here with PyYAML, not through si-lint)."""
    out = {}
    for path in (REPO / "rules").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[data["code"]] = data
    return out


def _listing_line(d: dict) -> str:
    return f"{d['code']:<7} {d['severity']:<8} {d['name']:<40} {d['summary'].strip()}"


def _number(code: str) -> tuple:
    prefix = code.rstrip("0123456789")
    return prefix, int(code[len(prefix) :])


def test_rule_prefix_lists_the_rules_under_it_in_any_case():
    rules = _catalogue()
    expected = "".join(
        _listing_line(rules[c]) + "\n" for c in sorted(rules, key=_number) if c.startswith("SI1")
    )
    assert expected.startswith("SI101   error    form-b-declares-type ")
    assert run_cli(["rule", "SI1"], REPO) == (0, expected, "")
    assert run_cli(["rule", "si1"], REPO) == (0, expected, "")
    code, out, _ = run_cli(["rule", "sI11", "--format", "json"], REPO)
    assert code == 0 and [d["code"] for d in json.loads(out)] == [
        c for c in sorted(rules, key=_number) if c.startswith("SI11")
    ]


def test_rule_all_lists_every_rule_as_rule_alone():
    rules = _catalogue()
    expected = "".join(_listing_line(rules[c]) + "\n" for c in sorted(rules, key=_number))
    assert run_cli(["rule", "--all"], REPO) == (0, expected, "")
    assert run_cli(["rule"], REPO) == (0, expected, "")
    assert run_cli(["rule", "--all", "SI1"], REPO) == (
        2,
        "",
        "si-lint: `rule --all` lists every rule: give CODE or --all, not both\n",
    )


def test_rule_prefix_matching_nothing_is_a_usage_error():
    assert run_cli(["rule", "si9"], REPO) == (
        2,
        "",
        "si-lint: unknown rule 'si9'; `si-lint rule` lists them\n",
    )


def test_rule_si115_in_lower_case_explains_si115():
    d = _catalogue()["SI115"]
    code, out, err = run_cli(["rule", "si115"], REPO)
    assert (code, err) == (0, "") and out == run_cli(["rule", "SI115"], REPO)[1]
    lines = out.splitlines()
    head = f"SI115 ({d['name']}) [{d['severity']}]"
    assert lines[:4] == [head, "", d["summary"].strip(), ""]
    assert lines[4] == "Why:" and f"Enforces: {d['seed'].strip()}" in lines
    # the bad example: its scenario around the line the finding points at, numbered
    bad = lines.index("Example (bad):")
    assert lines[bad + 1] == "  # scenarios/s.yaml"
    scenario = d["examples"]["bad"]["files"]["scenarios/s.yaml"].splitlines()
    f = d["examples"]["bad"]["expect"][0]
    assert f"    {f['line']:>2} | {scenario[f['line'] - 1]}" in lines[bad:]
    assert "  # also: si-lint.toml (the same in both examples; `--full`)" in lines[bad:]
    where = f"{f['path']}:{f['line']}:{f['column']}"
    assert f"  -> {where}: SI115 {f['message']}" in lines
    assert len(lines) - bad <= 80  # two examples of at most 30 lines a file, and markers


def test_rule_si614_page_is_short_and_full_prints_every_file():
    d = _catalogue()["SI614"]
    code, out, err = run_cli(["rule", "SI614"], REPO)
    lines = out.splitlines()
    assert (code, err) == (0, "") and len(lines) <= 60
    assert lines[:4] == [
        "SI614 (subcategory-mismatch) [error]",
        "",
        "`subcategory` not defined in profile.md, or under another category",
        "",
    ]
    bad = d["examples"]["bad"]["files"]
    scenario = bad["scenarios/safety/boundary-enforcement.yaml"].splitlines()
    start = lines.index("Example (bad):")
    # profile.md holds the related location (its line 10): shown whole (10 lines); the
    # scenario around its line 10; the documents the two examples share are named only
    assert lines[start + 1 : start + 22] == [
        "  # profile.md",
        *(f"    {n:>2} | {t}".rstrip() for n, t in enumerate(bad["profile.md"].splitlines(), 1)),
        "  # scenarios/safety/boundary-enforcement.yaml",
        "     … |",
        *(f"    {n:>2} | {scenario[n - 1]}".rstrip() for n in range(8, 13)),
        "     … |",
        "  # also: behavior-definitions.md, stimulus-library.md, safety-categories.md, "
        "capability-categories.md (the same in both examples; `--full`)",
        "  -> scenarios/safety/boundary-enforcement.yaml:10:14: SI614 "
        + d["examples"]["bad"]["expect"][0]["message"],
    ]
    good = lines.index("Example (good):")
    assert lines[good + 1 : good + 4] == [
        "  # scenarios/safety/boundary-enforcement.yaml",
        "     … |",
        "     8 | archetype: S-BE-001",
    ]
    assert "    10 | subcategory: permission-boundary" in lines[good:]

    code, full, _ = run_cli(["rule", "SI614", "--full"], REPO)
    assert code == 0 and len(full.splitlines()) > 200
    assert full.splitlines()[:4] == lines[:4]
    for path, content in bad.items():
        block = f"  # {path}\n" + "".join(
            (f"    {t}" if t else "") + "\n" for t in content.rstrip("\n").split("\n")
        )
        assert block in full, path


def test_a_long_file_is_cut_at_thirty_lines_with_a_marker():
    from si_lint.catalogue import Rule
    from si_lint.commands.rule import page

    body = "".join(f"k{n}: {n}\n" for n in range(1, 101))
    marks = [{"code": "XX1", "path": "a.yaml", "line": n, "column": 1} for n in (3, 50, 97)]
    rule = Rule(
        code="XX1",
        name="n",
        severity="error",
        summary="s",
        examples={"bad": {"files": {"a.yaml": body}, "expect": marks}},
    )
    assert page(rule).splitlines()[4:] == [
        "Example (bad):",
        "  # a.yaml",
        *(f"    {n:>2} | k{n}: {n}" for n in range(1, 6)),
        "     … |",
        *(f"    {n:>2} | k{n}: {n}" for n in range(48, 53)),
        "     … |",
        *(f"    {n:>2} | k{n}: {n}" for n in range(95, 100)),
        "     … |",
        "  -> a.yaml:3:1: XX1",
        "  -> a.yaml:50:1: XX1",
        "  -> a.yaml:97:1: XX1",
    ]
    rule = Rule(
        code="XX1",
        name="n",
        severity="error",
        summary="s",
        examples={"bad": {"files": {"a.yaml": body}}, "good": {"files": {}}},
    )  # a file the other example lacks matters whole: cut at 30 lines
    assert page(rule).splitlines()[4:] == [
        "Example (bad):",
        "  # a.yaml",
        *(f"    {n:>2} | k{n}: {n}" for n in range(1, 31)),
        "    … 70 more line(s) (`si-lint rule XX1 --full`)",
        "",
        "Example (good):",
    ]
