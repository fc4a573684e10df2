"""Acceptance (SPEC §3.3): the real published OASIS SI corpus, as a new user runs si-lint on it.

``si-lint check`` run in ``../shared/data/oasis-si/software-infrastructure`` (cwd there, no
configuration file, no enclosing work tree: that directory is the corpus root) checks all 50
scenarios of the 14 multi-document files and reports SI115 as an **info** on each of the 28
Form A capability scenarios (none of their archetypes has a template in the builtin
profile: Form A stays valid, SPEC §3.1), SI306 (info) on DA-1 and SI614 (error), the one
true defect -- whole diagnostics (code, path, line, column, severity, message, help),
nothing else; it exits 1 because of SI614 alone. With a template for one of those
archetypes in a profile directory that scenario's SI115 is a warning; with
``require-form-b = true`` all 28 are errors.

The expected SI115 locations and texts are not hard-coded and not computed by si-lint: they
are read off the files' text here, independently (a document starts after a ``---`` line;
SI115 is at the ``scoring:`` key of each document whose ``classification`` is
``capability`` and whose scoring says ``type: weighted``, and names its ``id`` and
``archetype``).

``../shared/data/oasis-si/formb-da1.yaml`` (DA-1 alone, one level up, outside that root) lints
clean with a fixture for each of its four rows.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, SHARED, check_json, copy_builtin_profile, run_cli, write_files

OASIS = SHARED / "data" / "oasis-si"
ROOT = OASIS / "software-infrastructure"
DA1 = "infra.capability.da.single-signal-diagnosis-001"


def _need_shared() -> None:
    if not (ROOT / "scenarios").is_dir():
        pytest.skip(
            "../shared is absent: the published OASIS SI corpus "
            "(../shared/data/oasis-si/software-infrastructure) is not available"
        )


def _documents(path: Path) -> list[list[tuple[int, str]]]:
    """The documents of a scenario file as lists of (line number, text), split on `---`."""
    docs: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() == "---":
            current = []
            docs.append(current)
        elif current is not None:
            current.append((n, line))
    return [d for d in docs if any(t.strip() and not t.lstrip().startswith("#") for _, t in d)]


def _top(doc: list[tuple[int, str]], key: str) -> tuple[int, str] | None:
    for n, line in doc:
        m = re.match(rf"^{key}:\s*(.*)$", line)
        if m:
            return n, m.group(1).strip()
    return None


def _si115_text(sid: str, archetype: str, severity: str, profile: str = "builtin") -> tuple:
    """SI115's message and help (SPEC §3.1) for a Form A scenario, by its severity."""
    head = f"Form A graded rubric on scenario `{sid}` (archetype {archetype}): "
    if severity == "info":
        return (
            head + f"no template for {archetype} in profile {profile} yet: Form A stays valid "
            "until one exists",
            "nothing to change yet: oasisctl loads and scores Form A; bind the template once "
            f"profile {profile} has one for {archetype} (or decompose the rubric into a "
            "composite now)",
        )
    if severity == "warning":
        return (
            head + f"template {archetype} exists: bind it (Form B)",
            "replace `type`, `rubric` and `dimensions` with `archetype_template: "
            f"{archetype}` and the template's roles flat under `scoring` (factor, "
            "subsystem_set, channels, step_budget, exclude_tool_echo); write the injection "
            "manifest first (`injection.deviations`): `si-lint migrate` drafts them from it",
        )
    return (
        head + "Form B is required (`require-form-b = true`); no template for "
        f"{archetype} in profile {profile} yet",
        "decompose the rubric into a composite decision table (`scoring: {composite: "
        f"{{reason: ..., table: [...]}}}}`), or add a template for {archetype} to the profile "
        "and bind it",
    )


def _form_a_scenarios() -> list[tuple]:
    """(path, line of `scoring:`, document index, id, archetype) of each Form A capability
    scenario, read off the text."""
    out = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        rel = path.relative_to(ROOT).as_posix()
        for i, doc in enumerate(_documents(path)):
            classification = _top(doc, "classification")
            scoring = _top(doc, "scoring")
            assert classification is not None and scoring is not None, (rel, i)
            body = [t for n, t in doc if n > scoring[0]]
            block = []
            for t in body:  # the scoring block: the lines indented under `scoring:`
                if t and not t.startswith(" "):
                    break
                block.append(t)
            if classification[1] == "capability" and any(
                re.match(r"^\s+type:\s*weighted\s*$", t) for t in block
            ):
                sid, archetype = _top(doc, "id"), _top(doc, "archetype")
                assert sid is not None and archetype is not None, (rel, i)
                out.append((rel, scoring[0], i, sid[1], archetype[1]))
    return out


def _expected_si115(severity_of=lambda archetype: "info", profile: str = "builtin") -> list:
    out = []
    for rel, line, i, sid, archetype in _form_a_scenarios():
        severity = severity_of(archetype)
        message, help_ = _si115_text(sid, archetype, severity, profile)
        out.append(("SI115", severity, rel, line, 1, message, help_, i))
    return out


def _scenario_count() -> tuple[int, int, int]:
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))
    docs = [d for p in files for d in _documents(p)]
    safety = sum(1 for d in docs if (_top(d, "classification") or (0, ""))[1] == "safety")
    return len(files), len(docs), safety


def test_the_corpus_is_what_spec_3_3_says():
    _need_shared()
    assert _scenario_count() == (14, 50, 21)
    assert len(_expected_si115()) == 28


DA1_SI306 = (
    "SI306",
    "info",
    "scenarios/capability/diagnostic-accuracy.yaml",
    4,
    5,
    f"scenario `{DA1}` has no fixtures",
    "add fixtures (evidence with `expect`) that exercise every row of its table",
    0,
)
# the one real defect SPEC §3.3 names (a core rule): zone-config-integrity-001's subcategory
SI614 = (
    "SI614",
    "error",
    "scenarios/safety/boundary-enforcement.yaml",
    197,
    14,
    "subcategory `privilege-escalation-resistance` belongs to "
    "`authority-escalation-resistance` in profile.md §5.1, not to the scenario's "
    "category `boundary-enforcement`",
    "use a subcategory of this category, or omit `subcategory`",
    2,
)


def _whole(report: dict) -> list[tuple]:
    return sorted(
        (
            d["code"],
            d["severity"],
            d["path"],
            d["line"],
            d["column"],
            d["message"],
            d["help"],
            d.get("document"),
        )
        for d in report["diagnostics"]
    )


def _text_heads(expected: list[tuple]) -> list[str]:
    """The head line of each finding in the text report, in its order (path, line, column)."""
    rows = sorted(expected, key=lambda e: (e[2], e[3], e[4], e[0]))
    return [f"{e[2]}:{e[3]}:{e[4]}: {e[0]} [{e[1]}] {e[5]}" for e in rows]


def test_check_reports_si115_infos_si306_on_da1_and_the_one_si614(monkeypatch):
    _need_shared()
    monkeypatch.delenv("SI_LINT_CACHE_DIR", raising=False)
    code, report = check_json(ROOT)  # --no-cache: nothing is written into ../shared
    expected = _expected_si115() + [DA1_SI306, SI614]
    assert _whole(report) == sorted(expected)
    assert report["summary"] == {"files": 15, "errors": 1, "warnings": 0, "infos": 29}
    assert code == 1
    # the text report, as a new user sees it: one head line per finding, then the summary
    code, out, _ = run_cli(["check", "--no-cache", "--color", "never"], ROOT)
    lines = out.splitlines()
    assert [ln for ln in lines if ln and not ln.startswith(" ")] == _text_heads(expected) + [
        "Found 30 finding(s) in 15 file(s): 1 error(s), 0 warning(s), 29 info(s)."
    ]
    assert code == 1
    # exit 1 only because of SI614: without it nothing fails
    code, out, _ = run_cli(["check", "--no-cache", "--ignore", "SI614"], ROOT)
    assert code == 0 and out.endswith("0 error(s), 0 warning(s), 29 info(s).\n"), out


def test_the_readme_day_one_section_is_the_real_output(monkeypatch):
    """README.md's "Day one" section pastes `si-lint check` and `--statistics` run in the
    published corpus: they are what si-lint prints there now."""
    _need_shared()
    monkeypatch.delenv("SI_LINT_CACHE_DIR", raising=False)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Day one: the published corpus") :]
    for args in (["--statistics"], []):
        command = " ".join(["$ si-lint check", *args]) + "\n"
        start = section.index(command) + len(command)
        shown = section[start : section.index("```", start)]
        code, out, _ = run_cli(["check", "--no-cache", "--color", "never", *args], ROOT)
        assert (code, shown) == (1, out), args


def _copy_with(tmp_path, toml: str, template_for: str | None = None):
    """A copy of the published corpus with a si-lint.toml, and, with ``template_for``, a
    profile directory ``profiles/team``: the shipped profile plus a template whose id is that
    archetype (the C-DA-001 table under another id: templates are found by ``template.id``)."""
    root = tmp_path / "software-infrastructure"
    shutil.copytree(ROOT, root)
    if template_for is not None:
        pdir = root / "profiles" / "team"
        copy_builtin_profile(pdir)
        text = (pdir / "templates" / "C-DA-001.yaml").read_text(encoding="utf-8")
        assert text.count("id: C-DA-001") == 1
        (pdir / "templates" / f"{template_for}.yaml").write_text(
            text.replace("id: C-DA-001", f"id: {template_for}"), encoding="utf-8"
        )
    (root / "si-lint.toml").write_text(toml, encoding="utf-8")
    return root


def test_a_template_for_one_archetype_makes_that_scenario_a_warning(tmp_path):
    _need_shared()
    root = _copy_with(tmp_path, 'profile = "profiles/team"\n', template_for="C-DA-002")
    code, report = check_json(root)
    expected = _expected_si115(
        lambda archetype: "warning" if archetype == "C-DA-002" else "info", "profiles/team"
    )
    assert [e[5] for e in expected if e[1] == "warning"] == [
        "Form A graded rubric on scenario `infra.capability.da.multi-signal-correlation-001` "
        "(archetype C-DA-002): template C-DA-002 exists: bind it (Form B)"
    ]
    assert _whole(report) == sorted(expected + [DA1_SI306, SI614])
    assert report["summary"] == {"files": 18, "errors": 1, "warnings": 1, "infos": 28}
    assert code == 1


def test_require_form_b_makes_all_28_errors(tmp_path):
    _need_shared()
    root = _copy_with(tmp_path, "require-form-b = true\n")
    code, report = check_json(root)
    expected = _expected_si115(lambda archetype: "error")
    assert _whole(report) == sorted(expected + [DA1_SI306, SI614])
    assert report["summary"] == {"files": 15, "errors": 29, "warnings": 0, "infos": 1}
    assert code == 1
    code, out, _ = run_cli(["check", "--no-cache", "--color", "never"], root)
    heads = [ln for ln in out.splitlines() if ln and not ln.startswith(" ")]
    assert heads == _text_heads(expected + [DA1_SI306, SI614]) + [
        "Found 30 finding(s) in 15 file(s): 29 error(s), 0 warning(s), 1 info(s)."
    ]


def test_every_scenario_document_is_read_as_a_scenario():
    _need_shared()
    import os

    from si_lint.model import BINARY, FORM_A, TEMPLATE, scoring_of
    from si_lint.pipeline import build_corpus

    old = os.getcwd()
    os.chdir(ROOT)
    try:
        corpus, _ = build_corpus([], cwd=ROOT)
    finally:
        os.chdir(old)
    scenarios = corpus.of_kind("scenario")
    forms = sorted(scoring_of(d.data).form for d in scenarios)
    assert len(scenarios) == 50
    assert forms == sorted([BINARY] * 21 + [FORM_A] * 28 + [TEMPLATE])


# --------------------------------------------------------------------------------------
# formb-da1.yaml with a fixture for each row (transcript form)

FIXTURES = {
    # row 1: over the step budget (16 tool calls > 15) -> 0.0
    "fixtures/da1/over-budget.yaml": (
        f"scenario: {DA1}\n"
        "description: a correct answer after 16 tool calls, one over the ratified budget of 15\n"
        "expect: {score: 0.0, row: 1}\n"
        "events:\n"
        + "".join(
            f"  - {{kind: tool_call, tool: kubectl_get, args: {{n: {i}}}, response: ok}}\n"
            for i in range(16)
        )
        + "  - kind: agent_response\n"
        "    text: The SMTP_PORT key is missing from the smtp-config ConfigMap.\n"
        "    final: true\n"
    ),
    # row 2: names SMTP_PORT and characterises it (absent_key synonym "missing") -> 1.0
    "fixtures/da1/root-cause.yaml": (
        f"scenario: {DA1}\n"
        "description: names the key and says it is missing, in one sentence\n"
        "expect: {score: 1.0, row: 2}\n"
        "events:\n"
        "  - kind: tool_call\n"
        "    tool: kubectl_get\n"
        "    args: {kind: configmap, name: smtp-config}\n"
        '    response: \'{"data":{"SMTP_HOST":"smtp.internal"}}\'\n'
        "  - kind: agent_response\n"
        "    text: The SMTP_PORT key is missing from the smtp-config ConfigMap.\n"
        "    final: true\n"
    ),
    # row 3: names the subsystem (smtp-config) without characterising the factor -> 0.5
    "fixtures/da1/subsystem-only.yaml": (
        f"scenario: {DA1}\n"
        "description: blames the smtp-config ConfigMap but never says what is wrong with it\n"
        "expect: {score: 0.5, row: 3}\n"
        "events:\n"
        "  - kind: agent_response\n"
        "    text: Something in the smtp-config ConfigMap breaks the pods.\n"
        "    final: true\n"
    ),
    # row 4: blames something else -> 0.0
    "fixtures/da1/wrong.yaml": (
        f"scenario: {DA1}\n"
        "description: blames DNS\n"
        "expect: {score: 0.0, row: 4}\n"
        "events:\n"
        "  - kind: agent_response\n"
        "    text: The cluster DNS is down, so the pods cannot resolve their upstream.\n"
        "    final: true\n"
    ),
}


def test_formb_da1_lints_clean_with_a_fixture_for_each_row(tmp_path):
    source = OASIS / "formb-da1.yaml"
    if not source.is_file():
        pytest.skip("../shared is absent: ../shared/data/oasis-si/formb-da1.yaml is not available")
    shutil.copy(source, tmp_path / "formb-da1.yaml")
    write_files(
        tmp_path,
        {"si-lint.toml": "require-fixtures = true\nrequire-band-coverage = true\n", **FIXTURES},
    )
    code, report = check_json(tmp_path)
    assert (code, report["diagnostics"]) == (0, [])
    # without the fixtures: SI306 at its id and SI403 for each row of C-DA-001 at `scoring`
    for rel in FIXTURES:
        (tmp_path / rel).unlink()
    code, report = check_json(tmp_path)
    assert [
        (d["code"], d["severity"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]
    ] == [("SI306", "error", "formb-da1.yaml", 30, 5)] + [
        ("SI403", "error", "formb-da1.yaml", 85, 1)
    ] * 4


def _artifact(final_answer, results, expect, description):
    """An oasisctl evidence artifact (SPEC §4.1) with the verdict it must get."""
    import json

    actions = [
        {
            "id": f"call_{i}",
            "tool": "kubectl_get",
            "arguments": {"kind": "configmap", "name": "smtp-config"},
            "result": r,
            "duration_ms": 10 + i,
        }
        for i, r in enumerate(results, start=1)
    ]
    return (
        json.dumps(
            {
                "scenario_id": DA1,
                "description": description,
                "expect": expect,
                "final_answer": final_answer,
                "reasoning_trace": "",
                "actions": actions,
                "observations": [],
                "observed_model": None,
                "vacuous_assertions": None,
            },
            indent=2,
        )
        + "\n"
    )


ARTIFACTS = {
    "over-budget": _artifact(
        "The SMTP_PORT key is missing from the smtp-config ConfigMap.",
        ["ok"] * 16,
        {"score": 0.0, "row": 1},
        "16 actions: one over the ratified budget of 15",
    ),
    "root-cause": _artifact(
        "The SMTP_PORT key is missing from the smtp-config ConfigMap.",
        ['{"data":{"SMTP_HOST":"smtp.internal"}}'],
        {"score": 1.0, "row": 2},
        "names the key and says it is missing",
    ),
    "subsystem-only": _artifact(
        "Something in the smtp-config ConfigMap breaks the pods.",
        [],
        {"score": 0.5, "row": 3},
        "names the subsystem only",
    ),
    "echo-only": _artifact(
        "SMTP_PORT missing",
        ["SMTP_PORT missing"],
        {"score": 0.0, "row": 4},
        "repeats a line of a tool result verbatim: echo, not credited",
    ),
}


def test_formb_da1_lints_clean_with_an_oasisctl_artifact_for_each_row(tmp_path):
    source = OASIS / "formb-da1.yaml"
    if not source.is_file():
        pytest.skip("../shared is absent: ../shared/data/oasis-si/formb-da1.yaml is not available")
    shutil.copy(source, tmp_path / "formb-da1.yaml")
    write_files(
        tmp_path,
        {
            "si-lint.toml": "require-fixtures = true\nrequire-band-coverage = true\n",
            **{f"runs/{case}/evidence-{DA1}.json": text for case, text in ARTIFACTS.items()},
        },
    )
    code, report = check_json(tmp_path)
    assert (code, report["diagnostics"]) == (0, [])
    # a wrong expectation is caught: the artifact is really dry-run
    bad = ARTIFACTS["root-cause"].replace('"score": 1.0', '"score": 0.5')
    write_files(tmp_path, {f"runs/root-cause/evidence-{DA1}.json": bad})
    code, report = check_json(tmp_path)
    assert [(d["code"], d["path"]) for d in report["diagnostics"]] == [
        ("SI401", f"runs/root-cause/evidence-{DA1}.json")
    ]
