"""Hostile values (issue 11 items 5, 6, 10): lone surrogates, undecodable file names, integers
of any size, anchors on keys, a registry of the wrong shape — findings, never "internal
error", and every report format stays valid UTF-8."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import REPO, copy_builtin_profile, run_cli, write_files

FORMATS = ("text", "json", "sarif", "junit", "github")


def _all_formats(cwd: Path, *args: str) -> dict[str, str]:
    outs = {}
    for fmt in FORMATS:
        code, out, err = run_cli(["check", "--no-cache", "--format", fmt, *args], cwd)
        assert code in (0, 1), (fmt, code, out, err)
        assert "internal error" not in out + err
        out.encode("utf-8")  # never a lone surrogate in any report
        outs[fmt] = out
    return outs


def _diags(out: str) -> list[tuple]:
    return [
        (d["code"], d["path"], d["line"], d["column"], d["message"])
        for d in json.loads(out)["diagnostics"]
    ]


def test_lone_surrogate_escapes_are_findings_and_reports_stay_utf8(tmp_path):
    write_files(tmp_path, {"a.yaml": 'title: "\\ud800"\n"\\udc80k": 1\npair: "\\ud83d\\ude00"\n'})
    outs = _all_formats(tmp_path)
    msg = (
        "string holds a lone surrogate (an escape such as `\\ud800`), which is not a character "
        "and cannot be written as UTF-8; read as U+FFFD"
    )
    assert _diags(outs["json"]) == [("SI006", "a.yaml", 1, 8, msg), ("SI006", "a.yaml", 2, 1, msg)]
    from si_lint.loader import load_bytes

    data = (
        load_bytes(b'title: "\\ud800"\n"\\udc80k": 1\npair: "\\ud83d\\ude00"\n').documents[0].data
    )
    assert data == {"title": "\ufffd", "\ufffdk": 1, "pair": "\U0001f600"}


def test_lone_surrogate_escapes_in_a_json_file_are_findings(tmp_path):
    """A ``.json`` document is read by the same loader: ``"\\ud800"`` is SI006 at the
    string, in every format, and ``--fix``/``--diff`` leave the file alone without an
    internal error (issue 12 item 4)."""
    text = '{\n  "id": "x\\ud800y",\n  "\\udc80k": 1,\n  "pair": "\\ud83d\\ude00"\n}\n'
    write_files(tmp_path, {"scenarios/s.json": text})
    outs = _all_formats(tmp_path)
    msg = (
        "string holds a lone surrogate (an escape such as `\\ud800`), which is not a character "
        "and cannot be written as UTF-8; read as U+FFFD"
    )
    assert _diags(outs["json"]) == [
        ("SI006", "scenarios/s.json", 2, 9, msg),
        ("SI006", "scenarios/s.json", 3, 3, msg),
    ]
    for flag in ("--fix", "--diff"):
        code, out, err = run_cli(["check", "--no-cache", flag], tmp_path)
        assert code == 1 and "internal error" not in out + err
    assert (tmp_path / "scenarios" / "s.json").read_text() == text
    from si_lint.fix import FixError, set_value
    from si_lint.fix.text import fix_text

    with pytest.raises(FixError, match="does not load cleanly"):
        fix_text(text, [set_value(("pair",), "z")], json_file=True)


def test_undecodable_file_name_is_a_finding(tmp_path):
    write_files(tmp_path, {"ok.yaml": "a: 1\n"})
    with open(os.path.join(os.fsencode(tmp_path), b"bad\xff.yaml"), "wb") as fh:
        fh.write(b"a: 1\na: 2\n")
    outs = _all_formats(tmp_path)
    assert _diags(outs["json"]) == [
        ("SI001", "bad\\xff.yaml", 1, 1, "cannot be read: its name is not UTF-8; not read")
    ]


@pytest.mark.parametrize(
    "literal, digits", [("9" * 5000, 5000), ("0x" + "f" * 4000, 4002), ("-" + "1" * 4400, 4401)]
)
def test_integers_over_the_digit_limit_are_kept_as_text(tmp_path, literal, digits):
    write_files(tmp_path, {"a.yaml": f"n: {literal}\n"})
    outs = _all_formats(tmp_path)
    assert _diags(outs["json"]) == [
        (
            "SI005",
            "a.yaml",
            1,
            4,
            f"integer literal of {digits:,} characters is over the 4,300-digit safety limit; read as a string",
        )
    ]


def _copy_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    return root


@pytest.mark.parametrize(
    "value", ["1" + "0" * 4000, "-" + "9" * 4200, "0x" + "f" * 3000, "1e309", "-1e309", ".nan"]
)
def test_huge_numbers_everywhere_in_the_corpus_are_values(tmp_path, value):
    """Every number of the example corpus replaced by a huge one: findings, no SI000."""
    import re

    root = _copy_corpus(tmp_path)
    num = re.compile(r"(?<=[:\-\[,] )(-?\d+(?:\.\d+)?)(?=\s*(?:$|[,\]#]))", re.M)
    for p in root.rglob("*.yaml"):
        p.write_text(num.sub(lambda m: value, p.read_text()))
    code, out, err = run_cli(["check", "--no-cache", "--format", "json"], root)
    assert code == 1 and "internal error" not in err
    assert [d for d in json.loads(out)["diagnostics"] if d["code"] == "SI000"] == []
    for args in (
        ["eval", "scenarios/mail-relay-smtp-port.yaml", "runs/"],
        ["eio", "eio/eio.context.criteria.yaml", "eio/inputs/"],
    ):
        code, out, err = run_cli(args + ["--format", "json"], root)
        assert code in (0, 1, 2) and "internal error" not in out + err, (args, out, err)


def test_anchor_on_a_key_is_not_an_unknown_alias(tmp_path):
    from si_lint.loader import load_bytes

    loaded = load_bytes(b"&a a: b\nc: *a\n&n 1: x\nd: *n\n")
    assert loaded.findings == []
    assert loaded.documents[0].data == {"a": "b", "c": "a", "1": "x", "d": 1}


def test_registry_params_of_the_wrong_shape_is_si003_not_si000(tmp_path):
    root = _copy_corpus(tmp_path)
    copy_builtin_profile(root / "prof")
    toml = root / "si-lint.toml"
    toml.write_text(toml.read_text().replace('profile = "builtin"', 'profile = "prof"'))
    reg = root / "prof" / "registry.yaml"
    text = reg.read_text()
    assert "    params:\n" in text
    reg.write_text(text.replace("    params:\n", "    params: 1.5\n    old_params:\n", 1))
    # every check sees the part of the registry that has the right shape: no crash
    code, out, err = run_cli(["check", "--no-cache", "--format", "json"], root)
    got = [
        (d["code"], d["path"], d["line"])
        for d in json.loads(out)["diagnostics"]
        if d["code"] in ("SI000", "SI003")
    ]
    assert got == [("SI003", "prof/registry.yaml", 7), ("SI003", "prof/registry.yaml", 8)]


def test_control_characters_of_a_source_line_are_escaped_in_text(tmp_path):
    write_files(tmp_path, {"y.yaml": 'a: 1\na: "x\\e]0;t\\a\\u202e"\n\u202ekey: 1\n\u202ekey: 2\n'})
    (tmp_path / "z.yaml").write_bytes(b'b: 1\nb: "\x1b]0;pwn\x07"\n')
    code, out, err = run_cli(["check", "--no-cache"], tmp_path)
    assert code == 1
    assert not any(ch in out for ch in "\x1b\x07\x00\u202e")
    assert ' 2 | a: "x\\e]0;t\\a\\u202e"\n' in out
    assert " 4 | \\u202ekey: 2\n" in out
    assert "duplicate mapping key '\\u202ekey'" in out


def test_output_to_a_missing_directory_is_a_usage_error(tmp_path):
    write_files(tmp_path, {"a.yaml": "a: 1\n"})
    code, out, err = run_cli(
        ["check", "--no-cache", "-o", str(tmp_path / "missing" / "x.json")], tmp_path
    )
    assert code == 2 and "internal error" not in err
    assert (
        f"si-lint: cannot write {tmp_path / 'missing' / 'x.json'}: No such file or directory" in err
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def test_a_300_character_profile_is_a_configuration_error(tmp_path):
    write_files(tmp_path, {"a.yaml": "a: 1\n", "si-lint.toml": f'profile = "{"a" * 300}"\n'})
    code, out, err = run_cli(["check", "--no-cache"], tmp_path)
    assert code == 2 and "internal error" not in err
    assert "profile directory 'aaaa" in err and "cannot be used: File name too long" in err
