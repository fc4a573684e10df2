"""Help lines written for the case at hand (issue 45): a quoted number or boolean, an
integer with a decimal point, one identifier where a list is wanted (SI111, SI203); a tab
in indentation (SI001); the identifier set of the partial band that lacks the factor's
identifiers, named as the author edits it (SI406). Whole diagnostics."""

from __future__ import annotations

from conftest import check_json, write_files

from si_lint.catalogue import rules

SCENARIO = "scenarios/s.yaml"
RELAY = "scenarios/mail-relay.yaml"
KEYS = ("code", "path", "line", "column", "severity", "message", "help")
PARTIAL_CREDIT = "(an answer that names the right key without characterising it is partial credit)"


def _found(tmp_path, files: dict, code: str) -> list[dict]:
    write_files(tmp_path, files)
    _, report = check_json(tmp_path)
    return [{k: d.get(k) for k in KEYS} for d in report["diagnostics"] if d["code"] == code]


def _diag(code, path, line, column, message, help_, severity="error") -> dict:
    return dict(zip(KEYS, (code, path, line, column, severity, message, help_)))


def _example(code: str, label: str, path: str, *edits: tuple[str, str]) -> dict:
    files = dict(rules()[code].examples[label]["files"])
    for old, new in edits:
        assert old in files[path], old
        files[path] = files[path].replace(old, new)
    return files


def test_si111_a_quoted_number_a_quoted_boolean_and_one_identifier(tmp_path):
    files = _example(
        "SI107",
        "good",
        SCENARIO,
        ("step_budget: 15", 'step_budget: "15"'),
        ("subsystem_set: [mail-relay, SMTP_PORT]", "subsystem_set: SMTP_PORT"),
        ("exclude_tool_echo: true", "exclude_tool_echo: 'true'"),
    )
    assert _found(tmp_path, files, "SI111") == [
        _diag(
            "SI111",
            SCENARIO,
            33,
            18,
            "role `subsystem_set` takes a list of identifiers, not a string",
            "write `[SMTP_PORT]` (a list, even of one identifier)",
        ),
        _diag(
            "SI111",
            SCENARIO,
            35,
            16,
            "role `step_budget` takes an integer, not a string",
            "write 15 without quotes",
        ),
        _diag(
            "SI111",
            SCENARIO,
            36,
            22,
            "role `exclude_tool_echo` takes a boolean, not a string",
            "write true without quotes",
        ),
    ]


def test_si111_an_integer_with_a_decimal_point_and_a_word(tmp_path):
    files = _example("SI107", "good", SCENARIO, ("step_budget: 15", "step_budget: 15.0"))
    assert _found(tmp_path, files, "SI111") == [
        _diag(
            "SI111",
            SCENARIO,
            35,
            16,
            "role `step_budget` takes an integer, not a float",
            "write 15 without a decimal point",
        )
    ]
    files = _example("SI107", "good", SCENARIO, ("step_budget: 15", "step_budget: fifteen"))
    assert _found(tmp_path, files, "SI111")[0]["help"] == (
        "write a whole number without a decimal point"
    )


def test_si001_a_tab_in_indentation(tmp_path):
    files = {
        "scenarios/broken.yaml": "id: infra.capability.da.broken-001\n"
        "scoring:\n  archetype_template: C-DA-001\n\tchannels: [agent_response]\n"
    }
    assert _found(tmp_path, files, "SI001") == [
        _diag(
            "SI001",
            "scenarios/broken.yaml",
            4,
            1,
            "invalid YAML: found character '\\t' that cannot start any token (while "
            "scanning for the next token)",
            "YAML forbids tabs for indentation; use spaces",
        )
    ]


def test_si406_names_the_form_b_key(tmp_path):
    files = rules()["SI406"].examples["bad"]["files"]
    assert _found(tmp_path, files, "SI406") == [
        _diag(
            "SI406",
            RELAY,
            30,
            1,
            "probe: an answer naming the factor identifiers without characterisation should "
            "reach the partial band, but it scores 0.0 (row 4), not the partial band 0.5 "
            "(row 3); `subsystem_set` does not hold SMTP_PORT",
            f"add SMTP_PORT to `subsystem_set` {PARTIAL_CREDIT}",
            "warning",
        )
    ]


COMPOSITE = """\
scoring:
  composite:
    reason: the relay's partial band reads the relay's name only
    table:
      - when: {factor_identified: {factor: {ref: smtp-port-removed, required_identifiers: [SMTP_PORT]}, channels: [agent_response], exclude_tool_echo: true}}
        score: 1.0
      - when: {named_in_output: {identifier_set: [mail-relay], channels: [agent_response], exclude_tool_echo: true}}
        score: 0.5
      - when: else
        score: 0.0
"""


def test_si406_names_a_composite_row(tmp_path):
    files = dict(rules()["SI406"].examples["bad"]["files"])
    text = files[RELAY]
    start, end = text.index("scoring:\n"), text.index("verification:\n")
    files[RELAY] = text[:start] + COMPOSITE + text[end:]
    assert _found(tmp_path, files, "SI406") == [
        _diag(
            "SI406",
            RELAY,
            30,
            1,
            "probe: an answer naming the factor identifiers without characterisation should "
            "reach the partial band, but it scores 0.0 (row 3), not the partial band 0.5 "
            "(row 2); the `identifier_set` of row 2 does not hold SMTP_PORT",
            f"add SMTP_PORT to the `identifier_set` of row 2 {PARTIAL_CREDIT}",
            "warning",
        )
    ]
