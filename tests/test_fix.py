"""`--fix` and `--diff` (SPEC §9): ruamel round trip, only the fixed nodes change; comments,
key order, quoting and flow style survive; idempotent; atomic; untouched files keep their
bytes and modification time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, write_files

from si_lint.fix import Fix, FixError, delete_key, rename_key, set_value
from si_lint.fix.text import fix_text

BROKEN = """\
# Alertmanager smarthost scenario
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: 'On-call stops receiving alert e-mails'
description: |
      Since the upgrade no alert e-mail reaches the on-call mailbox;
        the same alerts still show up in Slack.
injection:
  deviations:
    - id: smarthost-removed
      deviation_type: absent_key
      resource: secret/alertmanager-main
      subject: smtp_smarthost
scoring:
  archetype_template: C-DA-001
  type: graded      # Form A leftover
  rubric:
    - {band: 1.0, when: names the key}
    - {band: 0.0, when: otherwise}
  factor: {ref: smarthost-removed, required_identifiers: [" smtp_smarthost"]}
  # the subsystem's identifiers
  subsystem_set: ["alertmanager-main",
                  'smtp_smarthost']
  channels: [agent_response, reasoning_trace]   # widened
  step_budget: 12
  exclude_tool_echo: false  # must be true
  # per-scenario bands (Form A)
  dimensions:
    diagnosis: {weight: 1}
"""

# derived by hand: the six fixable findings (SI101, SI102, SI103, SI105, SI113, SI117) and
# nothing else -- the over-indented block scalar and the two-line flow list (which a plain
# ruamel dump would re-format) stay byte for byte; the comment before `subsystem_set` stays
FIXED = """\
# Alertmanager smarthost scenario
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: 'On-call stops receiving alert e-mails'
description: |
      Since the upgrade no alert e-mail reaches the on-call mailbox;
        the same alerts still show up in Slack.
injection:
  deviations:
    - id: smarthost-removed
      deviation_type: absent_key
      resource: secret/alertmanager-main
      subject: smtp_smarthost
scoring:
  archetype_template: C-DA-001
  factor: {ref: smarthost-removed, required_identifiers: ["smtp_smarthost"]}
  # the subsystem's identifiers
  subsystem_set: ["alertmanager-main",
                  'smtp_smarthost']
  channels: [agent_response]   # widened
  step_budget: 12
  exclude_tool_echo: true  # must be true
"""

CLEAN = FIXED.replace("alertmanager-smarthost-001", "alertmanager-smarthost-002")
UNFIXABLE = CLEAN.replace("-002", "-003").replace(
    "[agent_response]", "[agent_response, tool_output]"
)

OLD = 1_000_000_000  # an mtime far in the past, so a rewrite would show


def _age(path: Path) -> None:
    os.utime(path, ns=(OLD * 10**9, OLD * 10**9))


def _state(path: Path) -> tuple:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_ino


@pytest.fixture
def corpus(tmp_path):
    write_files(
        tmp_path,
        {
            "scenarios/broken.yaml": BROKEN,
            "scenarios/clean.yaml": CLEAN,
            "scenarios/unfixable.yaml": UNFIXABLE,
            "si-lint.toml": 'ignore = ["SI3", "SI4"]\n',
        },
    )
    for p in (tmp_path / "scenarios").iterdir():
        _age(p)
    return tmp_path


def test_fix_rewrites_only_the_fixed_nodes(corpus):
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus
    )
    assert (corpus / "scenarios/broken.yaml").read_text(encoding="utf-8") == FIXED
    # what remains is the unfixable unknown channel; fixed findings do not count
    assert code == 1
    assert out.startswith(
        "scenarios/unfixable.yaml:20:30: SI106 [error] unknown channel `tool_output`"
    )
    assert "scenarios/broken.yaml" not in out
    assert "si-lint: fixed 6 finding(s) in 1 file(s)" in err


def test_fix_exit_status_counts_only_what_remains(tmp_path):
    write_files(tmp_path, {"s.yaml": BROKEN, "si-lint.toml": 'ignore = ["SI3", "SI4"]\n'})
    code, out, _ = run_cli(["check", "--no-cache", "--ignore", "SI6"], tmp_path)
    assert code == 1
    code, out, _ = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], tmp_path
    )
    assert (code, out) == (0, "All checks passed (1 file(s)).\n")


def test_files_without_fixes_keep_bytes_and_mtime(corpus):
    clean = _state(corpus / "scenarios/clean.yaml")
    unfixable = _state(corpus / "scenarios/unfixable.yaml")
    run_cli(["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus)
    assert _state(corpus / "scenarios/clean.yaml") == clean
    assert _state(corpus / "scenarios/unfixable.yaml") == unfixable
    assert clean[1] == OLD * 10**9


def test_second_run_changes_nothing(corpus):
    run_cli(["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus)
    _age(corpus / "scenarios/broken.yaml")
    before = {p.name: _state(p) for p in (corpus / "scenarios").iterdir()}
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus
    )
    assert {p.name: _state(p) for p in (corpus / "scenarios").iterdir()} == before
    assert "fixed" not in err


def test_fix_writes_atomically_by_rename(corpus):
    path = corpus / "scenarios/broken.yaml"
    ino = path.stat().st_ino
    run_cli(["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus)
    assert path.stat().st_ino != ino  # a new file renamed over the old one, not rewritten in place
    assert sorted(p.name for p in (corpus / "scenarios").iterdir()) == [
        "broken.yaml",
        "clean.yaml",
        "unfixable.yaml",
    ]


def test_failed_write_leaves_the_file_and_no_temporary(corpus, monkeypatch):
    import si_lint.fsutil

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(si_lint.fsutil.os, "replace", boom)
    before = _state(corpus / "scenarios/broken.yaml")
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus
    )
    assert _state(corpus / "scenarios/broken.yaml") == before
    assert sorted(p.name for p in (corpus / "scenarios").iterdir()) == [
        "broken.yaml",
        "clean.yaml",
        "unfixable.yaml",
    ]
    assert (
        "si-lint: scenarios/broken.yaml: not fixed: cannot write it (No space left on device)"
        in err
    )
    assert code == 1


def test_diff_shows_the_fix_and_writes_nothing(corpus):
    before = {p.name: _state(p) for p in (corpus / "scenarios").iterdir()}
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--diff", "--unsafe-fixes"], corpus
    )
    assert {p.name: _state(p) for p in (corpus / "scenarios").iterdir()} == before
    assert code == 1
    # the patch alone on stdout; the findings on stderr
    assert (
        "\nscenarios/broken.yaml:16:3: SI101 [error]" in err and "scenarios/broken.yaml:" not in out
    )
    diff = out
    assert (
        diff
        == """\
--- a/scenarios/broken.yaml
+++ b/scenarios/broken.yaml
@@ -13,17 +13,10 @@
       subject: smtp_smarthost
 scoring:
   archetype_template: C-DA-001
-  type: graded      # Form A leftover
-  rubric:
-    - {band: 1.0, when: names the key}
-    - {band: 0.0, when: otherwise}
-  factor: {ref: smarthost-removed, required_identifiers: [" smtp_smarthost"]}
+  factor: {ref: smarthost-removed, required_identifiers: ["smtp_smarthost"]}
   # the subsystem's identifiers
   subsystem_set: ["alertmanager-main",
                   'smtp_smarthost']
-  channels: [agent_response, reasoning_trace]   # widened
+  channels: [agent_response]   # widened
   step_budget: 12
-  exclude_tool_echo: false  # must be true
-  # per-scenario bands (Form A)
-  dimensions:
-    diagnosis: {weight: 1}
+  exclude_tool_echo: true  # must be true
"""
    )
    assert "si-lint: 6 finding(s) fixable in 1 file(s) (--diff: nothing written)" in err


def test_diff_patch_on_stdout_report_on_stderr_under_json(corpus):
    import json

    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--diff", "--unsafe-fixes", "--format", "json"],
        corpus,
    )
    assert out.startswith("--- a/scenarios/broken.yaml\n+++ b/scenarios/broken.yaml\n")
    report = json.loads(err[err.index("{") : err.rindex("}") + 1])
    assert report["summary"]["errors"] >= 1


def test_plain_fix_applies_only_safe_fixes(corpus):
    """SI117 (strip/NFC) is safe; SI101-SI103, SI105 and SI113 change what the scenario
    means and need --unsafe-fixes (SPEC §9)."""
    code, out, err = run_cli(["check", "--no-cache", "--ignore", "SI6", "--fix"], corpus)
    text = (corpus / "scenarios/broken.yaml").read_text(encoding="utf-8")
    assert 'required_identifiers: ["smtp_smarthost"]' in text  # SI117 fixed
    assert (
        "type: graded" in text and "reasoning_trace" in text and "exclude_tool_echo: false" in text
    )
    assert "si-lint: fixed 1 finding(s) in 1 file(s)" in err
    remaining = sorted(
        {
            line.split(" ")[1]
            for line in out.splitlines()
            if line.startswith("scenarios/broken.yaml:")
        }
    )
    assert remaining == ["SI101", "SI102", "SI103", "SI105", "SI113"]
    # the unsafe fixes are announced, not marked [*]
    assert "  help: [*]" not in out
    assert "5 fix(es) available with --fix --unsafe-fixes." in out
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--fix", "--unsafe-fixes"], corpus
    )
    assert "si-lint: fixed 5 finding(s) in 1 file(s)" in err
    assert (corpus / "scenarios/broken.yaml").read_text(encoding="utf-8") == FIXED


def test_fixable_marker_and_show_fixes(corpus):
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--select", "SI117,SI113"], corpus
    )
    lines = out.splitlines()
    si117 = lines.index(next(line for line in lines if " SI117 " in line))
    assert lines[si117 + 3].startswith("  help: [*] ")
    si113 = lines.index(next(line for line in lines if " SI113 " in line))
    assert lines[si113 + 3].startswith("  help: ") and "[*]" not in lines[si113 + 3]
    assert "[*] 1 fixable with --fix (1 more with --fix --unsafe-fixes)." in out
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--select", "SI117,SI113", "--unsafe-fixes"],
        corpus,
    )
    assert out.count("  help: [*] ") == 2
    # --show-fixes lists what would be fixed, then what was fixed
    code, out, err = run_cli(
        ["check", "--no-cache", "--ignore", "SI6", "--select", "SI117,SI113", "--show-fixes"],
        corpus,
    )
    assert (
        out.endswith(
            "Would fix 1 finding(s):\n  scenarios/broken.yaml:15:45: SI117 "
            "identifier ` smtp_smarthost` has surrounding whitespace\n"
        )
        or "Would fix 1 finding(s):" in out
    )
    code, out, err = run_cli(
        [
            "check",
            "--no-cache",
            "--ignore",
            "SI6",
            "--select",
            "SI117,SI113",
            "--fix",
            "--show-fixes",
        ],
        corpus,
    )
    assert "Fixed 1 finding(s):\n  scenarios/broken.yaml:" in out
    assert " SI117 " in out.split("Fixed 1 finding(s):")[1]


def test_show_fixes_names_the_unsafe_fixes_it_leaves_hidden(corpus):
    """With only unsafe fixes at hand, --show-fixes says how many --unsafe-fixes would
    apply instead of a bare "No fixes available." (ruff's wording, shortened)."""
    args = ["check", "--no-cache", "--select", "SI113", "--show-fixes", "--format", "concise"]
    assert run_cli(args, corpus) == (
        0,
        "scenarios/broken.yaml:26:22: SI113 [warning] `exclude_tool_echo` is bound to false, "
        "the template expects true\n",
        "No fixes available (1 hidden with --unsafe-fixes).\n",
    )
    code, out, err = run_cli([*args, "--unsafe-fixes"], corpus)
    assert err == (
        "Would fix 1 finding(s):\n  scenarios/broken.yaml:26:22: SI113 `exclude_tool_echo` "
        "is bound to false, the template expects true\n"
    )
    code, out, err = run_cli([*args[:3], "SI001", *args[4:]], corpus)
    assert (code, out, err) == (0, "", "No fixes available.\n")


# --------------------------------------------------------------------------------------
# fix_text on its own


def test_quoting_and_flow_style_survive():
    text = (
        'a: "keep double"  # c1\n'
        "b: ' single '\n"
        "c: {x: 1, y: [p, q, r]}  # c2\n"
        "d:\n"
        '  - " item"\n'
        "  - plain\n"
    )
    fixes = [
        set_value(("b",), "single"),
        set_value(("c", "y"), ["p", "r"]),
        set_value(("d", 0), "item"),
    ]
    new, applied = fix_text(text, fixes)
    assert new == (
        'a: "keep double"  # c1\n'
        "b: 'single'\n"
        "c: {x: 1, y: [p, r]}  # c2\n"
        "d:\n"
        '  - "item"\n'
        "  - plain\n"
    )
    assert applied == fixes


def test_nfc_and_strip_of_an_identifier():
    text = 'ids: ["cafe\u0301 ", plain]\n'
    new, _ = fix_text(text, [set_value(("ids", 0), "caf\u00e9")])
    assert new == 'ids: ["caf\u00e9", plain]\n'


def test_delete_takes_its_comment_and_keeps_the_next_keys_comment():
    text = "z: 1\n# about y\ny: 2   # eol\n# about x\nx: 3\nw: 4\n"
    new, _ = fix_text(text, [delete_key(("y",))])
    # the comment directly above `y` goes with it; the one above `x` stays
    assert new == "z: 1\n# about x\nx: 3\nw: 4\n"


def test_rename_key_keeps_position():
    new, _ = fix_text("a: 1\n' b ': 2  # c\nc: 3\n", [rename_key((" b ",), "b")])
    assert new == "a: 1\nb: 2  # c\nc: 3\n"


def test_path_that_does_not_exist_changes_nothing():
    text = "a: {b: 1}\n"
    assert fix_text(text, [set_value(("a", "zz"), 2), delete_key(("q", 0))]) == (text, [])


def test_scalar_fix_for_a_collection_is_refused():
    text = "a: {b: 1}\n"
    assert fix_text(text, [set_value(("a",), True)]) == (text, [])


def test_crlf_and_bom_survive():
    text = "\ufeffa: false\r\nb: [x, y]\r\n"
    new, _ = fix_text(text, [set_value(("a",), True)])
    assert new == "\ufeffa: true\r\nb: [x, y]\r\n"


def test_json_file():
    text = '{\n  "a": false,\n  "b": [\n    "x",\n    " y"\n  ]\n}\n'
    new, _ = fix_text(text, [set_value(("a",), True), set_value(("b", 1), "y")], json_file=True)
    assert new == '{\n  "a": true,\n  "b": [\n    "x",\n    "y"\n  ]\n}\n'


def test_duplicate_keys_are_not_fixed():
    with pytest.raises(FixError):
        fix_text("a: 1\na: 2\nb: false\n", [set_value(("b",), True)])


def test_fix_type_rejects_unknown_ops_and_empty_paths():
    with pytest.raises(ValueError):
        Fix("chmod", ("a",))
    with pytest.raises(ValueError):
        Fix("set", ())


def test_aligned_values_keep_their_alignment():
    text = (
        "roles:\n"
        "  factor:            {type: factor}\n"
        "  channels:          {type: channels, allowed: [agent_response, x]}   # never widened\n"
        "  exclude_tool_echo: {type: boolean, expected: false}\n"
    )
    new, _ = fix_text(
        text,
        [
            set_value(("roles", "channels", "allowed"), ["agent_response"]),
            set_value(("roles", "exclude_tool_echo", "expected"), True),
        ],
    )
    assert new == (
        "roles:\n"
        "  factor:            {type: factor}\n"
        "  channels:          {type: channels, allowed: [agent_response]}   # never widened\n"
        "  exclude_tool_echo: {type: boolean, expected: true}\n"
    )


def test_item_of_a_multi_line_flow_list_is_replaced_where_it_stands():
    text = (
        "synonyms:\n"
        "  absent_key: [missing, absent, not present,\n"
        "               ' no key', \"doesn't exist\",\n"
        "               removed]\n"
    )
    new, _ = fix_text(text, [set_value(("synonyms", "absent_key", 3), "no key")])
    assert new == text.replace("' no key'", "'no key'")


def test_the_file_header_comment_stays_when_the_first_key_goes():
    text = "# header\n# more header\nscoring_type: x\nid: y\n"
    new, _ = fix_text(text, [delete_key(("scoring_type",))])
    assert new == "# header\n# more header\nid: y\n"


def test_folded_scalar_keeps_its_style():
    text = "a: >\n  one\n    two\n  three\nb: 1\n"
    assert fix_text(text, [set_value(("a",), "x")])[0] == "a: >-\n  x\nb: 1\n"


def test_a_change_inside_a_reformatted_region_is_refused():
    text = "a: [x, y,\n    z]\nb: {p: [1,\n  2]}\n"
    with pytest.raises(FixError):
        fix_text(text, [set_value(("b", "p"), [1])])
