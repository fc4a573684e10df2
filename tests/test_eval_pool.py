"""`si-lint eval` on a large `.jsonl` file: its lines are scored by worker processes, and
the output (JSON and text) and exit status are byte for byte those of scoring them in
the parent — also when the pool cannot start or a worker dies."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner
from test_eval_artifacts import DA1, artifact

from si_lint.cli import cli
from si_lint.commands import eval as eval_cmd
from si_lint.commands import eval_input, eval_pool

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks")


def run(*args):
    res = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture
def big(tmp_path, monkeypatch):
    """A `.jsonl` of 400 lines (every verdict kind, bad lines among them), with the
    pool's thresholds lowered so that it goes to the workers in many batches."""
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
    monkeypatch.setattr(eval_pool, "POOL_BYTES", 1)
    monkeypatch.setattr(eval_pool, "BATCH_BYTES", 5_000)
    monkeypatch.setattr(eval_pool, "BATCH_LINES", 7)
    return tmp_path


def _outputs(monkeypatch, jobs):
    return [
        run("eval", "--jobs", str(jobs), "--format", fmt, "da1.yaml", "big.jsonl", "big.jsonl")
        for fmt in ("json", "text")
    ]


def test_the_pool_writes_what_the_parent_writes(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)
    assert serial[0][0] == 1  # some lines are errors
    assert len(json.loads(serial[0][1])) == 2 * 364
    assert _outputs(monkeypatch, 2) == serial
    assert _outputs(monkeypatch, 3) == serial
    monkeypatch.setattr(eval_cmd, "default_jobs", lambda: 2)  # no --jobs: the cores
    assert run("eval", "--format", "json", "da1.yaml", "big.jsonl", "big.jsonl") == serial[0]


def test_a_pool_that_cannot_start_loses_nothing(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)

    def no_fork(self):
        self.broken = True

    monkeypatch.setattr(eval_pool.LinePool, "_start", no_fork)
    assert _outputs(monkeypatch, 2) == serial


def test_a_worker_that_dies_loses_nothing(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)
    parent = os.getpid()
    start = eval_pool.LinePool._start

    def start_dying(self):  # every worker dies on its first line; the parent scores all
        render = self.render

        def dying(*line):
            if os.getpid() != parent:
                os._exit(3)
            return render(*line)

        self.render = dying
        start(self)

    monkeypatch.setattr(eval_pool.LinePool, "_start", start_dying)
    assert _outputs(monkeypatch, 2) == serial


def test_a_file_changed_under_the_workers_is_scored_from_the_parents_bytes(big, monkeypatch):
    serial = _outputs(monkeypatch, 1)
    start = eval_pool.LinePool._start

    def start_then_touch(self):  # the workers find another modification time
        start(self)
        st = os.stat(big / "big.jsonl")
        os.utime(big / "big.jsonl", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))

    monkeypatch.setattr(eval_pool.LinePool, "_start", start_then_touch)
    assert _outputs(monkeypatch, 2) == serial


def test_a_small_file_is_scored_in_process(big, monkeypatch):
    monkeypatch.setattr(eval_pool, "POOL_BYTES", 1 << 40)

    def never(self):
        raise AssertionError("no pool for a small file")

    monkeypatch.setattr(eval_pool.LinePool, "_start", never)
    monkeypatch.setattr(eval_cmd, "default_jobs", lambda: 2)
    code, out = run("eval", "--format", "json", "da1.yaml", "big.jsonl")
    assert code == 1 and len(json.loads(out)) == 364


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


def test_the_default_is_the_cores_up_to_four_and_huge_lines_are_few_in_flight(big, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert eval_pool.default_jobs() == eval_pool.MAX_DEFAULT_JOBS
    serial = _outputs(monkeypatch, 1)
    monkeypatch.setattr(eval_pool, "PENDING_BYTES", 1)  # one batch in flight at a time
    assert _outputs(monkeypatch, 4) == serial
