"""Bad input never produces a traceback: the static review, the profile review, the diff
and the review command on malformed sources and profiles."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from si_lint.checks.primitive_review.parsed import StaticFinding
from si_lint.checks.primitive_review.profile_review import ImplFinding, review_profile
from si_lint.checks.primitive_review.source_review import review_source
from si_lint.cli import cli
from si_lint.profile import Profile, builtin_profile, load_profile, profile_from_data
from si_lint.review.diff import diff_profiles

LINES = [
    "import re",
    "import time as t",
    "from os import environ",
    "X = {}",
    "global X",
    "def p(evidence, *, a):",
    "def helper(x):",
    "    return helper(a)",
    "    return True",
    "    for k in {1, 2}:",
    "        break",
    "        return k",
    "    X[a] = 1",
    "    X = a",
    "    re.search(a, 'x')",
    "    re.compile(re.escape(a))",
    "    t.time()",
    "    environ['k']",
    "    b = [y for y in a]",
    "    with open(a) as f:",
    "        pass",
    "class C:",
    "    def p(self):",
    "    lambda q: q",
    "    p = None",
    "    del X[a]",
    "    async def g(): pass",
    "p = 1",
    "    try:",
    "    except Exception:",
    "    finally:",
    "    while a:",
    "    if a:",
    "    else:",
    "    match a:",
    "        case 1:",
    "            return 2",
    "    x: int = a",
    "    a += 1",
    "    (y := a)",
    "    print(f'{a}')",
    "@decorator",
    "    nonlocal a",
    "    yield a",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LINES), max_size=25))
def test_review_source_never_raises_on_line_soup(lines):
    out = review_source("\n".join(lines) + "\n", "p", ["a"])
    assert isinstance(out, list) and all(isinstance(f, StaticFinding) for f in out)
    assert out == sorted(out, key=lambda f: (f.line, f.col, f.code, f.message))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_review_source_never_raises_on_any_text(text):
    out = review_source(text, "p", ["a"])
    assert all(isinstance(f, StaticFinding) for f in out)


def test_deeply_nested_expression_does_not_crash():
    src = "def p(evidence, *, a):\n    return " + "(" * 400 + "a" + ")" * 400 + "\n"
    out = review_source(src, "p", ["a"])
    assert all(isinstance(f, StaticFinding) for f in out)


def test_long_expression_chain_does_not_crash():
    # 20 000 terms overflow libcst's native parser (a segfault): CPython's parser refuses first
    src = (
        "import re\ndef p(evidence, *, a):\n    return re.search("
        + " + ".join(["a"] * 20000)
        + ", 'x')\n"
    )
    assert review_source(src, "p", ["a"]) == [
        StaticFinding("SI501", 1, 1, "implementation module is nested too deeply to be reviewed")
    ]
    src = (
        "import re\ndef p(evidence, *, a):\n    return re.search("
        + " + ".join(["a"] * 50)
        + ", 'x')\n"
    )
    assert [(f.code, f.line, f.col) for f in review_source(src, "p", ["a"])] == [("SI504", 3, 12)]


JUNK = [None, 1, "x", [], {}, [1, "a", None], {"name": 3}, {"primitives": "no"}]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(JUNK), st.sampled_from(JUNK), st.sampled_from(JUNK), st.sampled_from(JUNK))
def test_review_profile_and_diff_tolerate_any_shape(prims, params, impl, syn):
    reg = {
        "registry": prims,
        "channels": params,
        "synonyms": syn,
        "candidates": impl,
        "ratified_budgets": syn,
        "primitives": [prims, {"name": "x", "params": params, "implementation": impl}],
    }
    profile = profile_from_data(reg, {"T": {"template": {"id": "T"}, "table": prims}})
    assert all(isinstance(f, ImplFinding) for f in review_profile(profile))
    diff_profiles(builtin_profile(), profile)
    diff_profiles(profile, builtin_profile())


def _profile_dir(tmp_path: Path, impl_spec: str, impl_files: dict[str, bytes]) -> Profile:
    prof = tmp_path / "profile"
    (prof / "templates").mkdir(parents=True)
    (prof / "registry.yaml").write_text(
        "registry: {profile: si, version: x}\nchannels: [agent_response]\nprimitives:\n"
        f"  - name: novel\n    implementation: {impl_spec}\n    params: []\n"
    )
    (prof / "templates" / "T.yaml").write_text(
        "template: {id: T}\ntable:\n  - when: {novel: {}}\n    score: 1.0\n  - when: else\n    score: 0.0\n"
    )
    for rel, data in impl_files.items():
        p = prof / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return load_profile(prof)


def _messages(profile):
    return [
        (f.code, f.message, f.registry_path, f.file, f.line, f.col) for f in review_profile(profile)
    ]


def test_implementation_file_problems_are_si501_at_the_implementation(tmp_path):
    at = ("primitives", 0, "implementation")
    cases = [
        ("impl/none.py:novel", {}, "`novel`: implementation file `impl/none.py` does not exist"),
        (
            "../outside.py:novel",
            {"../outside.py": b"def novel(evidence):\n    return True\n"},
            "`novel`: implementation file `../outside.py` is outside the profile directory",
        ),
        (
            "impl/latin.py:novel",
            {"impl/latin.py": b"# \xe9\xe9\ndef novel(evidence):\n    return True\n"},
            "`novel`: implementation file `impl/latin.py` is not UTF-8",
        ),
        (
            "impl/dir.py:novel",
            {"impl/dir.py/x": b""},
            "`novel`: implementation file `impl/dir.py` does not exist",
        ),
        (
            "impl/ok.py:other",
            {"impl/ok.py": b"def novel(evidence):\n    return True\n"},
            "`novel`: no module-level function `other` in `impl/ok.py`",
        ),
        ("impl/ok.py", {}, "`implementation` of `novel` is not `path/to/file.py:function`"),
    ]
    for i, (spec, files, message) in enumerate(cases):
        profile = _profile_dir(tmp_path / str(i), spec, files)
        assert _messages(profile) == [("SI501", message, at, None, None, None)], spec


def test_unparsable_implementation_is_reported_in_the_py_file(tmp_path):
    profile = _profile_dir(tmp_path, "impl/bad.py:novel", {"impl/bad.py": b"def novel(evidence:\n"})
    [(code, message, _path, file, line, col)] = _messages(profile)
    assert (code, file, line) == ("SI501", "impl/bad.py", 1)
    assert message.startswith("implementation module does not parse")


def test_review_command_with_malformed_head_registry(tmp_path, monkeypatch):
    (tmp_path / "si-lint.toml").write_text('profile = "p"\n')
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "registry.yaml").write_text(
        "primitives: [1, {name: [x]}, {name: y, params: 7}]\nsynonyms: 3\nchannels: {a: 1}\n"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["review", "--base", "builtin", "--format", "json"], catch_exceptions=False
    )
    assert result.exit_code in (0, 1)
    rep = json.loads(result.output)
    assert rep["head"] == {"source": "p", "profile": None, "version": None}
    assert ("primitive", "removed", "named_in_output") in [
        (c["kind"], c["action"], c["name"]) for c in rep["changes"]
    ]
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in rep["implementations"]] == [
        ("SI501", "p/registry.yaml", 1, 31),
        ("SI507", "p/registry.yaml", 1, 31),
    ]


def test_review_missing_path_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["review", "--base", "builtin", "nope"])
    assert result.exit_code == 2
    assert result.output == "si-lint: nope: no such file or directory\n"
