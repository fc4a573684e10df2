"""`si-lint eval` on a large `.jsonl` file: every kind of line (bad ones among them) read
as json reads it, and `--jobs` accepted and ignored (the artifacts are scored in one
process: the output is the same whatever it says)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_eval_artifacts import DA1, artifact

from si_lint.cli import cli
from si_lint.commands import eval_input


def run(*args):
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture
def big(tmp_path, monkeypatch):
    """A `.jsonl` of 400 lines (every verdict kind, bad lines among them)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(eval_input, "MAX_LINE_BYTES", 20_000)
    (tmp_path / "da1.yaml").write_text(DA1)
    answers = [
        "The SMTP_PORT key is missing.",
        "SMTP_PORT",
        "Something about smtp-config.",
        "Nothing to see.",
    ]
    lines = []
    for i in range(400):
        kind = i % 11
        if kind == 7:
            lines.append("{nope")
        elif kind == 8:
            lines.append("[" * 80 + "]" * 80)
        elif kind == 9:
            lines.append("x" * 30_000)
        elif kind == 10:
            lines.append("")
        else:
            results = ["ok"] * (16 if i % 5 == 0 else 2)
            lines.append(json.dumps(artifact(answers[i % 4], results=results)))
    (tmp_path / "big.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def _outputs(jobs):
    return [
        run("eval", "--jobs", str(jobs), "--format", fmt, "da1.yaml", "big.jsonl", "big.jsonl")
        for fmt in ("json", "text")
    ]


def test_jobs_is_accepted_and_changes_nothing(big):
    serial = _outputs(1)
    assert serial[0][0] == 1  # some lines are errors
    assert len(json.loads(serial[0][1])) == 2 * 364
    assert _outputs(3) == serial
    assert run("eval", "--format", "json", "da1.yaml", "big.jsonl", "big.jsonl") == serial[0]


def _reference(n, raw):
    """What a `.jsonl` line was read as before any fast path: the bracket scan, then
    `json.loads` with the integer bound (si-lint 0.2.0's reader)."""
    import re

    opened = raw.count(b"[") + raw.count(b"{")
    if opened > 64:
        depth = 0
        stripped = re.sub(rb'"(?:[^"\\]|\\.)*"', b"", raw)
        for b in stripped:
            if b in b"[{":
                depth += 1
                if depth > 64:
                    return None, f"line {n}: nesting deeper than 64 levels; not read"
            elif b in b"]}":
                depth -= 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"line {n} is not UTF-8 (byte {exc.start})"

    def bounded(s):
        return float(s) if len(s) - (s[0] in "+-") > 4300 else int(s)

    try:
        return json.loads(text, parse_int=bounded), None
    except RecursionError:
        return None, f"line {n}: nesting too deep; not read"
    except ValueError as exc:
        return None, f"line {n} is not valid JSON: {exc}"


def _values():
    from hypothesis import strategies as st

    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text()
    )
    return st.recursive(
        scalars,
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(), kids, max_size=4),
        max_leaves=20,
    )


def test_a_line_reads_as_json_reads_it():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=400, deadline=None, derandomize=True)
    @given(_values(), st.booleans(), st.integers(0, 200), st.binary(max_size=3))
    def check(value, ascii_only, cut, noise):
        raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
        for line in (raw, raw[:cut] + noise + raw[cut:], b"[" * 70 + raw + b"]" * 70):
            got = eval_input.line_artifact(3, line)
            want = _reference(3, line)
            assert repr(got) == repr(want), line

    check()
    for line in (
        b"[" + b"9" * 4301 + b"]",
        b'{"a": NaN, "a": 1}',
        b'["\\ud800"]',
        b"\xef\xbb\xbf[]",
    ):
        assert repr(eval_input.line_artifact(1, line)) == repr(_reference(1, line))
