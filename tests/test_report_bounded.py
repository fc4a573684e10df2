"""Reports are bounded (SPEC §9 "Trust boundaries", issue 41 items 4 and 5): every format
streams (memory does not grow with the findings), SARIF stops at GitHub's 25,000 results
per run with a notice, and control characters from any input are escaped in every format.

``bench/report_memory.py`` is the end-to-end reproducer at full size (1,000 files × 1,000
findings, peak RSS per format); :data:`N` findings here, 1,000 a file
(``SI_LINT_REPORT_FINDINGS=1000000`` runs the full size: the same bound holds)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tracemalloc
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from conftest import bench_module, report_of, run_cli, write_files
from test_report_sarif import validator

from si_lint.findings import SEVERITIES, Finding, Location
from si_lint.pipeline import RunResult
from si_lint.report import FORMATS, write
from si_lint.report.fingerprint import digest
from si_lint.report.output import report_sink

N = int(os.environ.get("SI_LINT_REPORT_FINDINGS", "40000"))
#: findings per file: the most a file reports (``limits.MAX_FINDINGS_PER_FILE``), as in
#: the reproducer (a report keeps a few files' source lines, not the corpus's)
PER_FILE = 1_000
FILES = max(N // PER_FILE, 1)
MESSAGE = "duplicate mapping key 'a' (first at line 1, column 1)"
HELP = "remove one of the two keys; YAML readers disagree on which wins"
#: what a report may hold at once, whatever the number of findings (the old reports
#: built the whole text: ~1,400 bytes per finding, 56 MB for 40,000)
PEAK = 8 * 1024 * 1024


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """A corpus of FILES files and a result of N findings on their lines (every third an
    error, a warning or an info), as the pipeline gives them: sorted by path."""
    root = tmp_path_factory.mktemp("many")
    per = min(N, PER_FILE)
    body = "a: 1\n" * (per + 1)
    findings = []
    severities = ("error", "warning", "info")
    for i in range(FILES):
        path = f"f-{i:04d}.yaml"
        (root / path).write_text(body, encoding="utf-8")
        for line in range(2, per + 2):
            sev = severities[line % 3]
            findings.append(Finding(path, line, 1, "SI002", sev, MESSAGE, help=HELP))
    reported = [f"f-{i:04d}.yaml" for i in range(FILES)]
    # the corpus as the reports read it: each file's one document (no scenario id)
    docs = {p: [SimpleNamespace(index=0, data={"a": 1}, kind=None)] for p in reported}
    corpus = SimpleNamespace(by_file=docs)
    return root, RunResult(findings, FILES, corpus, None, reported=reported)


def _tail(path, size: int = 400) -> str:
    with open(path, "rb") as fh:
        fh.seek(max(os.path.getsize(path) - size, 0))
        return fh.read().decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_streams_in_memory_that_does_not_grow_with_the_findings(
    many, fmt, tmp_path, monkeypatch
):
    root, result = many
    monkeypatch.chdir(root)
    out = tmp_path / f"report.{fmt}"
    gc.collect()
    tracemalloc.start()
    try:
        with report_sink(str(out)) as sink:
            write(result, fmt, sink, fail_on="error")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"{fmt}: tracemalloc peak {peak / 1e6:.2f} MB for {N:,} findings")
    assert peak < PEAK, f"{fmt}: peak {peak / 1e6:.1f} MB for {N:,} findings"
    counts = {s: sum(1 for f in result.findings if f.severity == s) for s in SEVERITIES}
    e, w, i = counts["error"], counts["warning"], counts["info"]
    tails = {
        "text": f"Found {N} finding(s) in {FILES} file(s): {e} error(s), {w} warning(s), "
        f"{i} info(s).\n",
        "json": f'"summary": {{\n    "files": {FILES},\n    "errors": {e},\n    '
        f'"warnings": {w},\n    "infos": {i}\n  }}\n}}\n',
        "sarif": '  "version": "2.1.0"\n}\n',
        "junit": "  </testsuite>\n</testsuites>\n",
        "github": f"si-lint: {N} finding(s) in {FILES} file(s): {e} error(s), {w} warning(s), "
        f"{i} info(s)\n",
        "gitlab": '    "type": "issue"\n  }\n]\n',
        # concise: the findings' lines and nothing after them (no summary)
        "concise": "{0.path}:{0.line}:{0.column}: {0.code} [{0.severity}] {0.message}\n".format(
            result.findings[-1]
        ),
    }
    assert _tail(out).endswith(tails[fmt]), _tail(out)


def _finding_results(doc: dict) -> list[tuple]:
    return [
        (
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in doc["runs"][0]["results"]
    ]


def _shape(value):
    """The structure of a JSON value: keys and types, not the values."""
    if isinstance(value, dict):
        return tuple(sorted((k, _shape(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted({_shape(v) for v in value})))
    return type(value).__name__


def assert_valid_sarif(doc: dict) -> None:
    """``doc`` against the SARIF 2.1.0 schema: the document with one result of each
    structure (the schema checks 25,000 results in ~20 s; the results of one structure
    differ only in strings and line numbers of one kind), every result's structure one of
    those validated."""
    results = doc["runs"][0]["results"]
    shapes = {}
    for r in results:
        shapes.setdefault(_shape(r), r)
    sample = json.loads(json.dumps(doc))
    sample["runs"][0]["results"] = list(shapes.values())
    errors = sorted(validator().iter_errors(sample), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1 for r in results)


def test_sarif_over_25000_results_keeps_errors_first_and_a_notice_of_what_was_left_out(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    findings = [Finding("a.yaml", i, 1, "SI113", "warning", "w") for i in range(1, 15_001)]
    findings += [Finding("b.yaml", i, 3, "SI002", "error", "e") for i in range(1, 10_001)]
    findings += [Finding("c.yaml", i, 1, "SI306", "info", "i") for i in range(1, 5_001)]
    doc = json.loads(report_of(RunResult(findings, 3, None, None), "sarif"))
    assert_valid_sarif(doc)
    results = doc["runs"][0]["results"]
    assert len(results) == 25_000  # GitHub rejects a run of more (the notice included)
    # every error, then the warnings in path order; written in path order
    assert _finding_results(doc)[:-1] == (
        [("SI113", "warning", "a.yaml", i) for i in range(1, 15_000)]
        + [("SI002", "error", "b.yaml", i) for i in range(1, 10_001)]
    )
    notice = results[-1]
    fp = notice["partialFingerprints"]["siLint/v1"]
    assert fp == digest(("SI005", "sarif", "results left out"))  # the same every run
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[notice["ruleIndex"]]["id"] == "SI005"
    assert notice == {
        "ruleId": "SI005",
        "ruleIndex": notice["ruleIndex"],
        "level": "note",
        "message": {
            "text": "5,001 of 30,000 findings are not in this report (1 warning(s), 5,000 "
            "info(s)): GitHub code scanning accepts at most 25,000 results per run, so it "
            "holds the first 24,999 (errors, then warnings, then infos, each in path "
            "order) and this notice, at the first finding left out. `si-lint check "
            "--format json` lists them all."
        },
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "a.yaml", "uriBaseId": "%SRCROOT%"},
                    "region": {
                        "startLine": 15_000,
                        "startColumn": 1,
                        "endLine": 15_000,
                        "endColumn": 2,
                    },
                }
            }
        ],
        "partialFingerprints": {"siLint/v1": fp, "primaryLocationLineHash": f"{fp[:16]}:1"},
        "properties": {"severity": "info", "leftOut": 5_001, "total": 30_000},
    }
    # at the limit: every finding, no notice
    doc = json.loads(report_of(RunResult(findings[:25_000], 2, None, None), "sarif"))
    assert len(doc["runs"][0]["results"]) == 25_000
    assert {r["ruleId"] for r in doc["runs"][0]["results"]} == {"SI113", "SI002"}


def test_sarif_of_a_corpus_over_the_limit_end_to_end_in_small_memory(tmp_path, user_env):
    """26 files of 1,000 findings, through ``si-lint check --format sarif`` in a process
    of its own: 25,000 results, the last the notice, in far less memory than the whole
    report (37 MB; the former report took 264 MB for these 26,000 findings)."""
    root = tmp_path / "corpus"
    bench_module("report_memory").generate(str(root), 26, 1_000)
    probe = (
        "import resource, subprocess, sys\n"
        "out = open(sys.argv[1], 'wb')\n"
        "code = subprocess.run(sys.argv[2:], stdout=out).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    report = tmp_path / "report.sarif"
    cmd = [sys.executable, "-c", probe, str(report), sys.executable, "-m", "si_lint.cli"]
    cmd += ["check", "--no-cache", "--format", "sarif", "."]
    proc = subprocess.run(
        cmd, cwd=root, env=user_env, capture_output=True, text=True, timeout=300, check=True
    )
    code, rss_kb = map(int, proc.stdout.split())
    assert code == 1
    print(f"peak RSS {rss_kb / 1024:.0f} MB")
    assert rss_kb < 150 * 1024, f"peak RSS {rss_kb / 1024:.0f} MB"
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert_valid_sarif(doc)
    got = _finding_results(doc)
    assert len(got) == 25_000
    assert (
        got[:-1]
        == [
            ("SI002", "error", f"f-{i:04d}.yaml", line)
            for i in range(25)
            for line in range(2, 1002)
        ][:24_999]
    )
    notice = doc["runs"][0]["results"][-1]
    assert got[-1] == ("SI005", "note", "f-0024.yaml", 1001)
    assert notice["message"]["text"].startswith(
        "1,001 of 26,000 findings are not in this report (1,001 error(s)): "
    )


ESC_NAME = "\x1b]8;;x\x07a\x1b]8;;\x07.yaml"  # an OSC 8 hyperlink: ESC ] 8 ;; URI BEL text ...
SHOWN = "\\x1b]8;;x\\x07a\\x1b]8;;\\x07.yaml"


def test_github_annotation_of_a_file_named_with_an_osc_sequence_is_escaped(tmp_path):
    write_files(tmp_path, {ESC_NAME: "a: 1\na: 1\n"})
    code, out, _ = run_cli(["check", "--no-cache", "--format", "github", "."], tmp_path)
    assert code == 1
    assert out.splitlines() == [
        f"::error file={SHOWN},line=2,col=1,endLine=2,endColumn=2,title=SI002::"
        f"{MESSAGE}%0Ahelp: {HELP}%0Anote: {SHOWN}:1:1: first",
        "si-lint: 1 finding(s) in 1 file(s): 1 error(s), 0 warning(s), 0 info(s)",
    ]


def test_github_escapes_every_control_character_in_properties_and_message(tmp_path, monkeypatch):
    from si_lint.report.github import annotation

    monkeypatch.chdir(tmp_path)
    f = Finding(
        "d\x7f\x9b,x:y.yaml",
        3,
        2,
        "SI117",
        "warning",
        "value 'a\x1b[2Jb\x00\t\u202ec' 100%\r\nnext",
        help="strip \x07",
        related=(Location("e\x1b.yaml", 1, 1, "first \x85"),),
    )
    assert annotation(f) == (
        "::warning file=d\\x7f\\x9b%2Cx%3Ay.yaml,line=3,col=2,endLine=3,endColumn=3,"
        "title=SI117::value 'a\\x1b[2Jb\\x00\\t\\u202ec' 100%25%0D%0Anext%0A"
        "help: strip \\x07%0Anote: e\\x1b.yaml:1:1: first \\x85"
    )


def test_junit_with_control_characters_is_xml_that_parses_and_shows_them(tmp_path):
    write_files(tmp_path, {ESC_NAME: "a: 1\na: 1\n"})
    code, out, _ = run_cli(["check", "--no-cache", "--format", "junit", "."], tmp_path)
    assert code == 1
    suites = ET.fromstring(out.encode("utf-8"))
    suite = suites.find("testsuite")
    assert suite.get("name") == suite.get("file") == SHOWN
    case = suite.find("testcase")
    assert case.get("name") == f"SI002 {SHOWN}:2:1"
    failure = case.find("failure")
    assert failure.get("message") == f"[error] {MESSAGE}"
    assert failure.text == (
        f"{SHOWN}:2:1: SI002 [error] {MESSAGE}\nhelp: {HELP}\nnote: {SHOWN}:1:1: first"
    )


def test_junit_escapes_what_xml_cannot_carry_visibly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = Finding("s.yaml", 1, 1, "SI117", "error", "a\x00b\x0bc\ufffed\x9be\u202ef\nnext")
    result = RunResult([f], 1, None, None, reported=["s.yaml"])
    case = ET.fromstring(report_of(result, "junit").encode("utf-8")).find("testsuite/testcase")
    shown = "a\\x00b\\x0bc\\ufffed\\x9be\\u202ef\\nnext"
    assert case.find("failure").get("message") == f"[error] {shown}"
    assert case.find("failure").text == f"s.yaml:1:1: SI117 [error] {shown}"


@pytest.mark.parametrize("fmt", ["json", "sarif", "gitlab"])
def test_json_formats_escape_del_c1_and_bidi_controls_and_read_back_exactly(
    fmt, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    message = "esc \x1b del \x7f csi \x9b rlo \u202e ls \u2028 é"
    f = Finding("s\x1b.yaml", 1, 1, "SI117", "error", message, help="h\x9b")
    text = report_of(RunResult([f], 1, None, None, reported=["s\x1b.yaml"]), fmt)
    raw = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    assert raw == []
    assert "\u202e" not in text and "\u2028" not in text
    assert "\\u001b del \\u007f csi \\u009b rlo \\u202e ls \\u2028 é" in text
    doc = json.loads(text)
    if fmt == "json":
        assert doc["diagnostics"][0]["message"] == message
        assert doc["diagnostics"][0]["path"] == "s\x1b.yaml"
    elif fmt == "sarif":
        assert doc["runs"][0]["results"][0]["message"]["text"] == message
        assert doc["runs"][0]["results"][0]["properties"]["help"] == "h\x9b"
    else:
        assert doc[0]["description"] == f"SI117: {message}"
        assert doc[0]["location"]["path"] == "s\x1b.yaml"


def test_text_report_escapes_skipped_file_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = RunResult([], 1, None, None, skipped=["x\x1b]0;t\x07.yaml"])
    assert report_of(result, "text", verbose=True) == (
        "All checks passed (1 file(s)).\nSkipped (no recognised kind): x\\x1b]0;t\\x07.yaml\n"
    )


def test_report_to_a_file_is_streamed_and_atomic_and_the_same_as_stdout(tmp_path):
    write_files(tmp_path, {"a.yaml": "a: 1\na: 1\n", "b.yaml": "b: 1\nb: 1\n"})
    for fmt in FORMATS:
        code, out, _ = run_cli(["check", "--no-cache", "--format", fmt, "."], tmp_path)
        target = tmp_path / "out" / f"r.{fmt}"
        target.parent.mkdir(exist_ok=True)
        args = ["check", "--no-cache", "--format", fmt, "--output", str(target), "."]
        code2, out2, _ = run_cli(args, tmp_path)
        assert (code, code2, out2) == (1, 1, "")
        assert target.read_text(encoding="utf-8") == out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        f"r.{fmt}" for fmt in FORMATS
    )


def test_the_cache_stores_a_bounded_number_of_findings(tmp_path, monkeypatch):
    """A run with more findings than the cache stores keeps the entries of the first files
    up to the bound and checks the rest again next time: the cache file is never the
    whole of a million findings, read back whole (SPEC §9 "Output is bounded"); the
    answer is the same cached, uncached and re-run."""
    import json

    from conftest import run_cli

    from si_lint.cache.signed import MAC_SEP
    from si_lint.pipeline import context, corpus, perfile

    for module in (perfile, corpus, context):  # per-file entries, corpus checks, dry runs
        monkeypatch.setattr(module, "MAX_CACHED_FINDINGS", 5)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "si-lint.toml").write_text("")
    for i in range(4):  # two SI002 findings a file
        (corpus / f"f{i}.yaml").write_text("a: 1\na: 2\na: 3\n")
    args = ["check", "--format", "json", "--cache-dir", str(tmp_path / "cache"), "."]
    first, second = run_cli(args, corpus), run_cli(args, corpus)
    uncached = run_cli(["check", "--format", "json", "--no-cache", "."], corpus)
    assert first == second == uncached and first[0] == 1
    assert [(d["code"], d["path"], d["line"]) for d in json.loads(first[1])["diagnostics"]] == [
        (code, f"f{i}.yaml", line) for i in range(4) for code, line in (("SI002", 2), ("SI002", 3))
    ]
    raw = (tmp_path / "cache" / "results.json").read_bytes()
    table = json.loads(raw[: raw.rfind(MAC_SEP)])
    assert sorted(k.split(":", 1)[1] for k in table["files"]) == ["f0.yaml", "f1.yaml"]
