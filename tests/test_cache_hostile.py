"""The cache is data only (SPEC §9, issue 11 item 1): a crafted cache directory never runs
code, never makes si-lint write outside the cache directory, never hangs, and never serves
a finding for content that is not on disk."""

from __future__ import annotations

import json
import marshal
import os
import pickle
import re
import time
from pathlib import Path

import pytest
from conftest import run_cli, write_files

NOTES_DUP = "title: relay notes\nowner: a\nowner: b\n"
CLEAN = "title: fine\n"


class _Boom:
    """Unpickling this runs a shell command that writes a file."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return (os.system, (f"touch {self.target}",))


def _tree(root: Path, skip: Path | None = None) -> dict[str, tuple]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if skip is not None and Path(dirpath) == skip:
            dirnames[:] = []
            continue
        for name in filenames + dirnames:
            p = Path(dirpath) / name
            if p == skip:
                continue
            st = os.lstat(p)
            out[str(p.relative_to(root))] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def _check(cwd: Path, *args: str):
    code, out, err = run_cli(["check", "--format", "json", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return code, json.loads(out)


def _sign(body: bytes) -> bytes:
    from si_lint.cache import signed

    return body + signed.MAC_SEP + signed.mac(body) + b"\n"


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "corpus"
    write_files(root, {"a.yaml": NOTES_DUP, "b.yaml": CLEAN})
    return root, root / ".si-lint-cache"


def _expected(root: Path) -> dict:
    return _check(root, "--no-cache")[1]


PAYLOADS = {
    "empty": b"",
    "not json": b"\x80\x04garbage",
    "json, unsigned": b'{"header": [], "files": {}, "memo": {}}',
    "json, bad mac": b'{"header": [], "files": {}, "memo": {}}\n#mac ' + b"0" * 64 + b"\n",
    "deep json": _sign(b"[" * 100_000 + b"]" * 100_000),
    "huge int": _sign(b"1" * 10_000),
}


@pytest.mark.parametrize("kind", ["pickle", "marshal", *PAYLOADS])
def test_crafted_cache_files_never_run_code_and_are_rebuilt(tmp_path, kind):
    root, cdir = _corpus(tmp_path)
    expected = _expected(root)
    _check(root)  # a real cache first
    pwned = tmp_path / "pwned"
    if kind == "pickle":
        blob = pickle.dumps(_Boom(pwned))
    elif kind == "marshal":
        blob = marshal.dumps(compile(f"open({str(pwned)!r}, 'w')", "x", "exec"))
    else:
        blob = PAYLOADS[kind]
    for name in ("results.json", "delta.json", "stat.json", "results.pickle", "run.pickle"):
        (cdir / name).write_bytes(blob)
    before = _tree(tmp_path, skip=cdir)
    for _ in range(2):
        assert _check(root)[1] == expected
    assert not pwned.exists()
    assert _tree(tmp_path, skip=cdir) == before  # nothing written outside the cache dir
    assert not (cdir / "results.pickle").exists()  # old formats are removed, never read
    assert (cdir / "results.json").read_bytes().startswith(b'{"header":')


def test_fifo_and_symlinks_in_the_cache_dir_are_never_opened(tmp_path):
    root, cdir = _corpus(tmp_path)
    expected = _expected(root)
    _check(root)
    outside = tmp_path / "outside.txt"
    outside.write_text("secret\n")
    for name in ("results.json", ".gitignore", "CACHEDIR.TAG"):
        (cdir / name).unlink()
    os.mkfifo(cdir / "results.json")
    os.symlink("/etc/passwd", cdir / "delta.json")
    os.symlink(outside, cdir / ".gitignore")
    os.symlink(outside, cdir / "CACHEDIR.TAG")
    start = time.perf_counter()
    assert _check(root)[1] == expected
    assert time.perf_counter() - start < 10
    assert outside.read_text() == "secret\n"  # written through? never
    for name in ("results.json", ".gitignore", "CACHEDIR.TAG"):
        assert not (cdir / name).is_symlink() and (cdir / name).is_file()
    assert not os.path.lexists(cdir / "delta.json")  # a table written whole: no delta
    assert (cdir / ".gitignore").read_text() == "*\n"
    assert (
        (cdir / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )


def test_cache_dir_that_is_a_symlink_is_not_used(tmp_path):
    root = tmp_path / "corpus"
    write_files(root, {"a.yaml": NOTES_DUP})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / ".si-lint-cache")
    expected = _expected(root)
    assert _check(root)[1] == expected
    assert list(elsewhere.iterdir()) == []


def test_cache_dir_dot_writes_nothing_into_the_corpus(tmp_path):
    root = tmp_path / "corpus"
    write_files(root, {"a.yaml": NOTES_DUP})
    before = _tree(root)
    expected = _expected(root)
    for _ in range(2):
        assert _check(root, "--cache-dir", ".")[1] == expected
    assert _tree(root) == before
    assert not (root / ".gitignore").exists()


def test_new_cache_dir_is_marked(tmp_path):
    root = tmp_path / "corpus"
    write_files(root, {"a.yaml": NOTES_DUP})
    _check(root, "--cache-dir", "../c")
    names = sorted(p.name for p in (tmp_path / "c").iterdir())
    assert re.fullmatch(r"bodies-[0-9a-f]{16}\.bin", names.pop(2))
    assert names == [".gitignore", "CACHEDIR.TAG", "results.json"]
    # a directory that is a cache already is used again
    assert _check(root, "--cache-dir", "../c")[1] == _expected(root)


def _resign(path: Path, mutate) -> None:
    raw = path.read_bytes()
    body = raw[: raw.rfind(b"\n#mac ")]
    obj = json.loads(body)
    mutate(obj)
    path.write_bytes(_sign(json.dumps(obj).encode()))


def inline_body(cache: Path, table: dict, ref: list):
    """The body an entry of ``table`` refers to in its bodies file (``cache.bodies``)."""
    offset, length, _digest = ref
    with open(cache / f"bodies-{table['id']}.bin", "rb") as fh:
        fh.seek(offset)
        return json.loads(fh.read(length))


FINDING = {
    "path": "\0",
    "line": 1,
    "column": 1,
    "code": "SI002",
    "severity": "error",
    "message": "forged",
}


def _head(change):
    """An entry (``[head, body]``) with its head changed."""
    return lambda e: [change(e[0]), e[1]]


WRONG_ENTRIES = [
    lambda e: 5,
    lambda e: [],
    lambda e: [e[0]],
    _head(lambda h: {k: v for k, v in h.items() if k != "docs"}),
    _head(lambda h: {**h, "docs": []}),
    _head(lambda h: {**h, "docs": [[0, "python-object", None]]}),
    _head(lambda h: {**h, "docs": [["0", h["docs"][0][1], None]]}),
    _head(lambda h: {**h, "docs": [[0, h["docs"][0][1], None, None]]}),
    _head(lambda h: {**h, "ndocs": "1"}),
    _head(lambda h: {**h, "findings": [{**FINDING, "line": "1"}]}),
    _head(lambda h: {**h, "findings": [{**FINDING, "severity": 7}]}),
    _head(lambda h: {**h, "findings": [{**FINDING, "fix": [["rm -rf", ["x"], 1]]}]}),
    _head(lambda h: {**h, "findings": [{**FINDING, "related": [["a", 1]]}]}),
    _head(lambda h: {**h, "suppressions": [[1, 1, "bogus", ["SI002"]]]}),
    _head(lambda h: {**h, "findings": 5}),
    # a body of the wrong shape: the file is read again where its data is needed
    lambda e: [e[0], 5],
    lambda e: [e[0], "[]"],
    lambda e: [e[0], []],
    lambda e: [e[0], [[{"python": "object"}, None, "{}"]] * len(e[1])],
]


@pytest.mark.parametrize("wrong", range(len(WRONG_ENTRIES)))
def test_signed_entries_of_the_wrong_shape_are_misses(tmp_path, wrong):
    """Even an entry that passes the signature is decoded by a fixed schema: a head of the
    wrong shape or type, or an entry naming other content, is a miss, never served; a
    body of the wrong shape is never used (the file is read again)."""
    root, cdir = _corpus(tmp_path)
    expected = _expected(root)
    _check(root)

    def mutate(obj):
        for key in list(obj["files"]):
            obj["files"][key] = WRONG_ENTRIES[wrong](obj["files"][key])

    _resign(cdir / "results.json", mutate)
    assert _check(root)[1] == expected
    assert _check(root)[1] == expected


def test_entries_for_other_content_are_never_served(tmp_path):
    """The cache holds results for a.yaml's old content; a.yaml changes: the results for
    the old content must not be served for the new one."""
    root, cdir = _corpus(tmp_path)
    _check(root)
    old = json.loads((cdir / "results.json").read_bytes().rsplit(b"\n#mac ", 1)[0])
    write_files(root, {"a.yaml": CLEAN})
    expected = _expected(root)

    def mutate(obj):  # re-key every old entry under the path of the new content
        new_keys = dict(obj["files"])
        for key, entry in old["files"].items():
            new_keys[key] = entry
        obj["files"] = new_keys

    _check(root)
    _resign(cdir / "results.json", mutate)
    assert _check(root)[1] == expected


@pytest.mark.parametrize(
    "stored",
    [
        5,
        [5],
        [{"code": "SI401"}],
        [{"code": "SI401", "path": "x", "message": "m"}],
        [{"code": "SI401", "path": [True], "message": "m"}],
        [{"code": "SI401", "path": [], "message": "m", "on": "elsewhere"}],
        [{"code": "SI401", "path": [], "message": "m", "evil": "x"}],
        [{"code": "SI401", "path": [], "message": "m", "related": [{"file": 1}]}],
        [{"code": "SI401", "path": [], "message": "m", "fix": [["exec", ["a"], 1]]}],
    ],
)
def test_memo_entries_of_the_wrong_shape_are_misses(tmp_path, stored):
    from si_lint.cache import store as cache_mod

    c = cache_mod.Cache(tmp_path / "c", ("h",))
    c.memo = {json.dumps(["k"], separators=(",", ":")): stored}
    c._loaded = True
    assert c.memo_get(("k",)) == (False, None)


def test_memo_codec_round_trips_every_diag_field():
    from si_lint import codec
    from si_lint.findings import Diag, Related
    from si_lint.fix import set_value

    assert set(Diag._fields) == set(codec._DIAG_FIELDS)
    assert set(Related._fields) == set(codec._RELATED_FIELDS)
    d = Diag(
        "SI401",
        ("a", 1),
        "m",
        on="value",
        help="h",
        severity="error",
        file="f.yaml",
        related=(
            Related("g.yaml", ("x", 0), "r", on="value", document=2),
            Related("h.yaml", line=3, col=4),
        ),
        fix=(set_value(("a",), [1, "\ud800"]),),
        document=3,
        line=None,
        detail="tb",
    )
    back = codec.diags_from_json(json.loads(json.dumps(codec.diags_to_json([d]))))
    assert back == [d]


def test_cache_file_key_is_kept_outside_the_corpus(tmp_path, monkeypatch):
    from si_lint.cache import signed as cache_mod

    monkeypatch.setattr(cache_mod, "_SECRET", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    key = cache_mod.secret()
    path = tmp_path / "xdg" / "si-lint" / "cache-key"
    assert path.read_bytes() == key and len(key) == 32
    assert (path.stat().st_mode & 0o777) == 0o600
    monkeypatch.setattr(cache_mod, "_SECRET", None)
    assert cache_mod.secret() == key  # the same key on the next run
    monkeypatch.setattr(cache_mod, "_SECRET", None)


UNKNOWN = """\
scenario: infra.capability.da.no-such-scenario
expect: {score: 0.0}
events:
  - {kind: agent_response, text: "no idea"}
"""


def stray_fixture_corpus(tmp_path) -> tuple[Path, Path]:
    """(a 30-file bench corpus with a fixture naming no scenario, SI303 located in it;
    the cache directory of its first run)."""
    from test_speed_parity import _generate, _out

    root = tmp_path / "corpus"
    _generate(root, 30)
    (root / "fixtures" / "stray.yaml").write_text(UNKNOWN)
    cache = tmp_path / "cache"
    _out(root, cache=cache)
    return root, cache


def rerun_reads_fixtures(root: Path, cache: Path, before=lambda: None) -> tuple[int, str]:
    """Edit a scenario (its dry run reads its fixtures' data) and run again with the
    cache (``before()`` first, after the --no-cache run): (exit status, output), which
    is --no-cache's, with the stray fixture's SI303 (located in it: its positions are
    read)."""
    from test_speed_parity import _out

    scenario = sorted((root / "scenarios").rglob("*.yaml"))[0]
    scenario.write_text(scenario.read_text() + "# its dry run runs again\n")
    expected = _out(root)
    before()
    code, out = _out(root, cache=cache)
    assert (code, out) == expected
    assert code == 1 and '"code": "SI303"' in out
    return code, out


@pytest.mark.parametrize("damage", ["none", "flip", "truncate", "remove", "symlink", "elsewhere"])
def test_a_bodies_file_that_does_not_check_is_never_used(tmp_path, monkeypatch, damage):
    """The bodies file is not signed; each body is checked against the digest the signed
    table holds. A damaged, missing, linked or foreign one: every document it held is read
    from its file again where its data is needed, and the output is --no-cache's."""
    from test_speed_parity import _out

    from si_lint.pipeline.data import Content

    root, cache = stray_fixture_corpus(tmp_path)
    (bodies,) = cache.glob("bodies-*.bin")
    raw = bodies.read_bytes()
    if damage == "flip":
        bodies.write_bytes(bytes(b ^ 1 if i % 50 == 0 else b for i, b in enumerate(raw)))
    elif damage == "truncate":
        bodies.write_bytes(raw[: len(raw) // 2])
    elif damage == "remove":
        bodies.unlink()
    elif damage == "symlink":
        (tmp_path / "outside.bin").write_bytes(raw)
        bodies.unlink()
        bodies.symlink_to(tmp_path / "outside.bin")
    elif damage == "elsewhere":  # another cache's bodies file under this name
        other = tmp_path / "other"
        _out(root, cache=other)
        bodies.write_bytes(next(other.glob("bodies-*.bin")).read_bytes()[::-1])
    again = []
    real = Content._loaded_again

    def watch():
        monkeypatch.setattr(Content, "_loaded_again", lambda c: again.append(c) or real(c))

    rerun_reads_fixtures(root, cache, watch)
    assert bool(again) == (damage != "none")  # the files were read again only where damaged


def test_a_rewritten_table_keeps_the_bodies_file_it_replaced(tmp_path, monkeypatch):
    """A full rewrite of the table writes a new bodies file and keeps the one it replaced
    (a run that read the old table may still read from it); older ones are removed."""
    from test_speed_parity import _generate, _out

    from si_lint.cache import store

    monkeypatch.setattr(store, "DELTA_FLOOR", 0)  # 30 files: a rewrite, not a delta
    root = tmp_path / "corpus"
    _generate(root, 30)
    cache = tmp_path / "cache"
    seen = []
    for n in range(3):
        if n:  # every fixture edited: more than a delta, the table is rewritten
            for path in sorted((root / "fixtures").rglob("*.yaml")):
                path.write_text(path.read_text() + f"# edit {n}\n")
        assert _out(root, cache=cache) == _out(root)
        seen.append({p.name for p in cache.glob("bodies-*.bin")})
    first, second, third = seen
    assert len(first) == 1 and first < second and len(second) == 2
    assert len(third) == 2 and (second - first) < third and not first & third


@pytest.mark.parametrize(
    "wrong",
    [
        lambda key, sha: [*key, sha[:63]],  # a hash of the wrong length
        lambda key, sha: [*key, 7],  # not a string
        lambda key, sha: key,  # no hash
        lambda key, sha: [*map(str, key), sha],  # the stat as strings
        lambda key, sha: {"stat": key, "sha": sha},  # not a list
        lambda key, sha: [*key, sha],  # the right shape (the control: answered)
    ],
)
def test_signed_stat_index_entries_of_the_wrong_shape_are_misses(tmp_path, monkeypatch, wrong):
    """A signed ``stat.json`` whose entry for a file matches its stat but is of the wrong
    shape never answers for it: the file is read and hashed (its duplicate key found)."""
    import hashlib

    from si_lint.cache import statindex

    root, cdir = _corpus(tmp_path)
    expected = _expected(root)
    _check(root)
    answered = []
    known = statindex.StatIndex.known

    def spy(self, p, st):
        answered.append((p, known(self, p, st)))
        return answered[-1][1]

    monkeypatch.setattr(statindex.StatIndex, "known", spy)
    stat_json = cdir / "stat.json"
    header = json.loads((cdir / "results.json").read_bytes().split(b"\n#mac ")[0])["header"]
    path = str(root / "a.yaml")
    sha = hashlib.sha256((root / "a.yaml").read_bytes()).hexdigest()
    entry = wrong(statindex.stat_key(os.stat(path)), sha)
    stat_json.write_bytes(_sign(json.dumps({"header": header, "files": {path: entry}}).encode()))
    assert _check(root)[1] == expected
    right = entry == [*statindex.stat_key(os.stat(path)), sha]
    assert (path, sha if right else None) in answered  # asked; refused unless well made
