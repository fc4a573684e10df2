"""A file libyaml rejects is read again by ruamel's pure-Python parser, which reads about
a megabyte a second: one 4 MB mapping key took 4 s (issue 41 item 5). That parser is now
asked about the text with its long runs of letters shortened (si_lint.loader.shorten), so
the work no longer grows with the run, and the findings are the whole text's."""

from __future__ import annotations

import difflib

import pytest
from conftest import check_json

from si_lint.findings import Diag
from si_lint.loader import load_bytes, load_text, shorten

MB4 = 4 << 20


def _pure_reads(monkeypatch) -> list[int]:
    """The length of every text ruamel's pure parser is given from now on."""
    import si_lint.loader as loader

    seen: list[int] = []
    real = loader._pure_events

    def counted(text):
        seen.append(len(text))
        return real(text)

    monkeypatch.setattr(loader, "_pure_events", counted)
    return seen


@pytest.mark.parametrize(
    ("text", "col"),
    [("k" * MB4 + ": 1\n", MB4 + 1), ('"' + "k" * MB4 + '": 1\n', MB4 + 3)],
    ids=["plain", "quoted"],
)
def test_a_4mb_key_is_one_finding_read_from_a_short_text(monkeypatch, text, col):
    """An implicit key longer than YAML's 1,024 characters: the finding ruamel's parser
    gives for the whole text, found in a text of a few kilobytes, whatever the key's
    length (0.4 MB and 4 MB alike)."""
    seen = _pure_reads(monkeypatch)
    loaded = load_bytes(text.encode())
    assert loaded.failed and loaded.documents == []
    assert loaded.findings == [
        Diag("SI001", (), "invalid YAML: mapping values are not allowed here", line=1, col=col)
    ]
    small = load_bytes(text.replace("k" * MB4, "k" * (MB4 // 10)).encode())
    assert [(d.message, d.line, d.col) for d in small.findings] == [
        ("invalid YAML: mapping values are not allowed here", 1, col - MB4 + MB4 // 10)
    ]
    limit = 2 * shorten.KEEP + shorten.MARK + 8
    assert len(seen) == 2 and all(n <= limit for n in seen), seen


def test_a_4mb_key_file_reports_its_whole_finding(tmp_path):
    """The check command on that file: its one finding, as ``--no-cache`` reports it."""
    (tmp_path / "key.yaml").write_text("k" * MB4 + ": 1\n")
    # a configured root judges every included file (an unconfigured one sets aside a file
    # that does not parse and shows no sign of a corpus document: SPEC §9)
    (tmp_path / "si-lint.toml").write_text("")
    code, report = check_json(tmp_path, "key.yaml")
    assert code == 1
    assert [
        (d["code"], d["path"], d["line"], d["column"], d["severity"], d["message"])
        for d in report["diagnostics"]
    ] == [
        (
            "SI001",
            "key.yaml",
            1,
            MB4 + 1,
            "error",
            "invalid YAML: mapping values are not allowed here",
        )
    ]


RUN = "a" * 9000
OTHER = "a" * 4000 + "b" + "a" * 4999  # differs from RUN in the middle only

#: texts libyaml rejects, with long runs of letters in every place one can be
CASES = {
    "flow key": "{" + RUN + ": 1, x: [}\n",
    "error after runs on its line": "k: " + RUN + " " + RUN + ": x\n",
    "error below runs": "k: " + RUN + " " + RUN + " - x\n- y\n",
    "error on a later line": "k: " + RUN + "\n" + RUN + " x\n  - y\n",
    "quoted then glued": 'k: "' + RUN + '" "x"\n',
    "aliases differing in the middle": "a: &" + RUN + " 1\nb: *" + OTHER + "\nc: [\n",
    "same alias": "a: &" + RUN + " 1\nb: *" + RUN + "\n  c: d: e\n",
    "tag handle": "%TAG !" + RUN + "! tag:x,2000:\n---\nk: !" + OTHER + "!y v\n",
    "complex key": "? " + RUN + " : x\n: y\n  z\n",
    "escape": 'k: "\\xg' + RUN + '"\n',
    "comment": "k: v # " + RUN + "\n  - x\n",
    "block scalar": "k: |\n  " + RUN + "\n x: [\n",
    "anchor then error": "k: &" + RUN + "\n  - x\n  y: z\n",
    "deep indentation": " " * 1100 + "k: " + RUN + "\n" + " " * 1100 + "- x\n",
    "valid for ruamel": "%YAML 1.2\n%FOO " + RUN + "\n---\nk: " + RUN + "\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_shortened_texts_give_the_whole_texts_findings(monkeypatch, name):
    """Whatever the shortened text says -- a parse error (moved back to its place in the
    whole text), a message that could hold a run, or a text read -- the findings and data
    are those of the whole text read by the pure parser."""
    text = CASES[name]
    got = load_text(text)
    monkeypatch.setattr(shorten, "shorten", lambda text: None)
    whole = load_text(text)
    assert (got.failed, got.findings) == (whole.failed, whole.findings)
    assert [(d.index, d.data) for d in got.documents] == [
        (d.index, d.data) for d in whole.documents
    ]


def test_a_long_key_asks_no_near_miss_of_difflib(monkeypatch):
    """A valid 4 MB key (an explicit ``?`` key, a JSON key) is too long to be a misspelt
    kind marker: difflib, 1 s on it, is not asked."""
    from si_lint.checks.schema import looks_like_a_kind

    asked = []
    real = difflib.get_close_matches
    monkeypatch.setattr(
        difflib, "get_close_matches", lambda *a, **k: asked.append(a[0]) or real(*a, **k)
    )
    data = load_text("? " + "k" * MB4 + "\n: 1\n").data
    assert list(looks_like_a_kind(data)) == [] and asked == []
    assert [d.message for d in looks_like_a_kind({"k" * 24: 2, "k" * 23: 1, "scorng": 0})] == [
        "`scorng` looks like a misspelt `scoring`: the file would be a scenario "
        "(`id` + `scoring`) but has no recognisable kind"
    ]
    assert asked == ["k" * 23, "scorng"]  # 23 characters may be near `context_artifacts`
