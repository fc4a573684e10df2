"""The server's settings as a client sends them (si_lint/server/settings.py): flat or under
"si-lint", other tools' settings left alone, a value that cannot be used left out with a
warning (end to end: tests/test_server_live.py)."""

from __future__ import annotations

from si_lint.server.settings import Settings, carries_ours, parse


def test_flat_and_nested_read_alike():
    want = Settings(select=("SI1", "SI6"), ignore=("SI306",), profile="builtin", debounce=0.2)
    flat = {"select": ["SI1", "SI6"], "ignore": "SI306", "profile": "builtin", "debounce": 200}
    assert parse(flat) == (want, [])
    assert parse({"si-lint": flat, "yaml": {"schemas": {}}}) == (want, [])
    assert carries_ours(flat) and carries_ours({"si-lint": flat})


def test_other_tools_settings_and_nothing_are_no_settings():
    for raw in (None, {}, {"yaml": {"schemas": {}}}, {"editor": {"tabSize": 2}}):
        assert parse(raw) == (Settings(), [])
        assert not carries_ours(raw)


def test_unusable_values_are_left_out_with_a_warning():
    settings, warnings = parse(
        {
            "si-lint": {
                "select": [1, 2],
                "ignore": ["si113"],
                "profile": "",
                "debounce": True,
                "extra": None,
            }
        }
    )
    assert settings == Settings()
    assert warnings == [
        "si-lint.debounce must be a number of milliseconds from 0 to 10000",
        "si-lint: unknown setting 'extra' (known: select, ignore, profile, debounce)",
        "si-lint.ignore: 'si113' matches no rule (`si-lint rule` lists them; codes are"
        " case-sensitive)",
        "si-lint.profile must be a profile name or directory (a non-empty string)",
        "si-lint.select must be a list of rule codes or prefixes",
    ]
    assert parse(["SI1"]) == (Settings(), ["si-lint settings must be an object, not list"])


def test_null_is_unset_and_later_settings_win_over_earlier():
    later, _ = parse({"select": None, "ignore": []})
    earlier = Settings(select=("SI1",), ignore=("SI113",), debounce=0.01)
    assert later.over(earlier) == Settings(select=("SI1",), ignore=(), debounce=0.01)
