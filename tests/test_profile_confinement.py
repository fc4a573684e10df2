"""A profile stays inside its place (SPEC §7, §9 "Trust boundaries"; issue 41 item 3).

A ``profile`` named in ``si-lint.toml`` or ``[tool.si-lint]`` that is absolute, climbs out
with ``..`` or leads out through a symbolic link is refused (SI010 at the value, error,
exit 1): nothing under it is opened, and the run's other findings are those of the
built-in profile. Inside a profile directory a template link that leads out is not read
(SI010 at the link); an implementation path that leads out is never imported, under
``--trust-implementations`` too (SI501). ``--profile DIR`` on the command line may still
name a directory anywhere.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil

import pytest
from conftest import copy_builtin_profile, run_cli, write_files

from si_lint.catalogue import rules

#: a scenario with no finding under the built-in profile (SI106's good example)
SCENARIO_FILES = rules()["SI106"].examples["good"]["files"]
SCENARIO = "scenarios/s.yaml"
CONFIG_HELP = (
    "move the profile directory under the corpus root and name it relative to the root; "
    "a profile from elsewhere can only be chosen on the command line (`--profile DIR`)"
)
FILE_HELP = "replace the link with the file itself, inside the profile directory"
WHOLE = ("code", "path", "line", "column", "severity", "message", "help")


def _whole(report: dict) -> list[tuple]:
    return [tuple(d.get(k) for k in WHOLE) for d in report["diagnostics"]]


def _outside(tmp_path):
    """``tmp_path/outside``: the shipped profile, but with the one channel the scenario
    does not use -- read, it would add an SI106 -- and a registry error (an unknown key,
    SI003) that a run reading it as a corpus profile would report."""
    out = tmp_path / "outside"
    copy_builtin_profile(out)
    reg = out / "registry.yaml"
    text = reg.read_text()
    assert "channels: [agent_response, reasoning_trace]" in text
    reg.write_text(
        "hostile: true\n"
        + text.replace("channels: [agent_response, reasoning_trace]", "channels: [reasoning_trace]")
    )
    return out


def _corpus(tmp_path, config: str | None):
    """``tmp_path/corpus``: the scenario, and ``config`` after its ``si-lint.toml``."""
    corpus = tmp_path / "corpus"
    files = dict(SCENARIO_FILES)
    files["si-lint.toml"] += config or ""
    write_files(corpus, files)
    return corpus


class _Opened:
    """Every path opened, listed or executed under ``top`` (real paths) while patched in."""

    def __init__(self, monkeypatch, top):
        self.top = os.path.realpath(top)
        self.hits: list[tuple[str, str]] = []
        for mod, name in (
            (os, "open"),
            (os, "scandir"),
            (os, "listdir"),
            (builtins, "open"),
            (io, "open"),
            (io, "open_code"),
        ):
            monkeypatch.setattr(mod, name, self._wrap(name, getattr(mod, name)))

    def _wrap(self, name, real):
        def wrapped(path=".", *args, **kwargs):
            if isinstance(path, (str, bytes, os.PathLike)):
                p = os.fsdecode(path)
                r = os.path.realpath(p)
                if r == self.top or r.startswith(self.top + os.sep):
                    self.hits.append((name, p))
            return real(path, *args, **kwargs)

        return wrapped


def _check(corpus, *args):
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", *args], corpus)
    assert code in (0, 1), (code, out, err)
    return code, json.loads(out)


def _refused(path, line, col, shown, why):
    return (
        "SI010",
        path,
        line,
        col,
        "error",
        f"`profile` {shown!r} {why}: not used (a profile named in a configuration file "
        "must be a directory inside the corpus root)",
        CONFIG_HELP,
    )


def test_the_outside_registry_would_change_the_findings(tmp_path, monkeypatch):
    """The control: named on the command line, the outside profile is read (the recorder
    sees it opened) and its one channel makes the scenario's `agent_response` unknown
    (what a configured one did before it was refused)."""
    outside = _outside(tmp_path)
    corpus = _corpus(tmp_path, None)
    assert _check(corpus) == (0, {"version": 1, "diagnostics": [], "summary": _summary(0, 1)})
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus, "--profile", "../outside")
    assert ("open", str(outside / "registry.yaml")) in opened.hits
    assert any(p.endswith("C-DA-001.yaml") for _how, p in opened.hits)
    assert code == 1
    assert [(d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        ("SI106", SCENARIO, 34, 14)
    ]
    assert report["diagnostics"][0]["message"] == (
        "unknown channel `agent_response` (the profile's channels: reasoning_trace)"
    )
    assert outside.is_dir()


def _summary(errors: int, files: int) -> dict:
    return {"files": files, "errors": errors, "warnings": 0, "infos": 0}


@pytest.mark.parametrize("variant", ["dotdot", "absolute", "symlink", "symlink-parent"])
def test_a_configured_profile_outside_the_root_is_refused_and_never_opened(
    tmp_path, monkeypatch, variant
):
    outside = _outside(tmp_path)
    value = {
        "dotdot": "../outside",
        "absolute": str(outside),
        "symlink": "prof",  # corpus/prof -> ../outside
        "symlink-parent": "vendor/prof",  # corpus/vendor -> .., and ../prof -> outside
    }[variant]
    corpus = _corpus(tmp_path, f'profile = "{value}"\n')
    if variant == "symlink":
        os.symlink("../outside", corpus / "prof")
    if variant == "symlink-parent":
        os.symlink("..", corpus / "vendor")
        os.symlink("../outside", tmp_path / "prof")
    why = {
        "dotdot": "leads outside the corpus root",
        "absolute": "is an absolute path",
        "symlink": "resolves outside the corpus root (through a symbolic link)",
        "symlink-parent": "resolves outside the corpus root (through a symbolic link)",
    }[variant]
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus)
    assert opened.hits == []
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert code == 1
    shown = value if len(value) <= 80 else value[:77] + "..."  # a long temporary path
    assert _whole(report) == [_refused("si-lint.toml", line, 11, shown, why)]
    # the built-in profile's findings otherwise: none for this scenario (the outside
    # registry's SI106 and SI003 are not there)


def test_a_refused_profile_is_reported_when_only_a_file_is_named(tmp_path, monkeypatch):
    """pre-commit names the staged files: the refusal concerns them all the same."""
    _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "../outside"\n')
    code, report = _check(corpus, SCENARIO)
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert (code, _whole(report)) == (
        1,
        [_refused("si-lint.toml", line, 11, "../outside", "leads outside the corpus root")],
    )


def test_a_pyproject_profile_outside_is_located_at_its_value(tmp_path, monkeypatch):
    outside = _outside(tmp_path)
    corpus = tmp_path / "corpus"
    files = dict(SCENARIO_FILES)
    files.pop("si-lint.toml")
    files["pyproject.toml"] = (
        '[project]\nname = "x"\n\n[tool."si-lint"]\nignore = ["SI306", "SI403"]\n'
        "  profile   =   '../outside'  # shared\n"
    )
    write_files(corpus, files)
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus)
    assert opened.hits == []
    assert (code, _whole(report)) == (
        1,
        [_refused("pyproject.toml", 6, 17, "../outside", "leads outside the corpus root")],
    )


def test_the_command_line_profile_may_point_outside_the_configured_one_is_still_refused(
    tmp_path,
):
    _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "../outside"\n')
    code, report = _check(corpus, "--profile", "../outside")
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert code == 1
    assert [d[:4] for d in _whole(report)] == [
        ("SI106", SCENARIO, 34, 14),
        ("SI010", "si-lint.toml", line, 11),
    ]


def test_a_registry_linked_out_of_the_profile_refuses_the_profile(tmp_path, monkeypatch):
    outside = _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "prof"\n')
    (corpus / "prof" / "templates").mkdir(parents=True)
    os.symlink(outside / "registry.yaml", corpus / "prof" / "registry.yaml")
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus)
    assert opened.hits == []
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert (code, _whole(report)) == (
        1,
        [
            _refused(
                "si-lint.toml",
                line,
                11,
                "prof",
                "has a registry.yaml that resolves outside the profile directory",
            )
        ],
    )


def _inside_profile(corpus):
    """``corpus/prof``: a copy of the shipped profile, configured."""
    copy_builtin_profile(corpus / "prof")
    return corpus / "prof"


def test_a_template_linked_out_of_the_profile_is_not_read(tmp_path, monkeypatch):
    outside = _outside(tmp_path)
    (outside / "templates" / "C-DA-001.yaml").write_text("template: [not, read]\n")
    corpus = _corpus(tmp_path, 'profile = "prof"\n')
    prof = _inside_profile(corpus)
    assert _check(corpus)[1]["diagnostics"] == []
    os.symlink(outside / "templates" / "C-DA-001.yaml", prof / "templates" / "C-DA-009.yaml")
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus)
    assert opened.hits == []
    assert (code, _whole(report)) == (
        1,
        [
            (
                "SI010",
                "prof/templates/C-DA-009.yaml",
                1,
                1,
                "error",
                "`templates/C-DA-009.yaml` is a symbolic link that leads outside the profile "
                "directory: not read",
                FILE_HELP,
            )
        ],
    )


def test_a_templates_directory_linked_out_of_the_profile_is_not_read(tmp_path, monkeypatch):
    outside = _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "prof"\n')
    prof = _inside_profile(corpus)
    shutil.rmtree(prof / "templates")
    os.symlink(outside / "templates", prof / "templates")
    opened = _Opened(monkeypatch, outside)
    code, report = _check(corpus)
    assert opened.hits == []
    got = _whole(report)
    # the profile without templates: its primitives are unused, the scenario's template unknown
    assert code == 1
    assert [d[:4] for d in got] == [
        ("SI507", "prof/registry.yaml", 4, 5),
        ("SI507", "prof/registry.yaml", 11, 5),
        ("SI507", "prof/registry.yaml", 18, 5),
        ("SI010", "prof/templates", 1, 1),
        ("SI112", SCENARIO, 31, 23),
    ]
    assert got[3] == (
        "SI010",
        "prof/templates",
        1,
        1,
        "error",
        "`templates` is a symbolic link that leads outside the profile directory: not read",
        FILE_HELP,
    )


IMPL_REGISTRY_ENTRY = """\
  - name: ops_precede
    question: did the agent operate on the decoy before the ground truth?
    implementation: {spec}
    params:
      - {{name: decoy_set, type: identifier_set, required: true}}
      - {{name: target_set, type: identifier_set, required: true}}
"""
IMPL_TEMPLATE = """\
template: {id: C-DD-001, title: Diagnosis past a declared decoy}
roles:
  decoy_set: {type: identifier_set}
  ground_truth_set: {type: identifier_set}
table:
  - when: {ops_precede: {decoy_set: $decoy_set, target_set: $ground_truth_set}}
    score: 0.5
  - when: else
    score: 1.0
"""


@pytest.mark.parametrize("variant", ["dotdot", "absolute", "symlink"])
def test_an_implementation_outside_the_profile_is_never_imported(tmp_path, variant):
    """``--trust-implementations`` imports implementations: one whose path leads out of
    the profile directory is refused (SI501 at the value), its module never run."""
    marker = tmp_path / "imported"
    evil = tmp_path / "x.py"
    evil.write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n\n\n"
        "def ops_precede(evidence, *, decoy_set, target_set):\n    return True\n"
    )
    corpus = _corpus(tmp_path, 'profile = "prof"\n')
    prof = _inside_profile(corpus)
    spec = {
        "dotdot": "../../x.py:ops_precede",
        "absolute": f"{evil}:ops_precede",
        "symlink": "impl/x.py:ops_precede",
    }[variant]
    if variant == "symlink":
        (prof / "impl").mkdir()
        os.symlink(evil, prof / "impl" / "x.py")
    reg = prof / "registry.yaml"
    text = reg.read_text()
    at = text.index("candidates:")
    reg.write_text(text[:at] + IMPL_REGISTRY_ENTRY.format(spec=spec) + text[at:])
    (prof / "templates" / "C-DD-001.yaml").write_text(IMPL_TEMPLATE)
    line = text[:at].count("\n") + 3
    rel = spec.rsplit(":", 1)[0]
    expected = [
        (
            "SI501",
            "prof/registry.yaml",
            line,
            21,
            "error",
            f"`ops_precede`: implementation file `{rel}` is outside the profile directory",
        )
    ]
    for args in ((), ("--trust-implementations",)):
        code, report = _check(corpus, *args)
        assert [d[:6] for d in _whole(report)] == expected, args
        assert not marker.exists(), args

    from si_lint.profile import load_profile

    assert load_profile(prof, trust=True).implementations == {}
    assert not marker.exists()


def test_an_implementation_inside_the_profile_is_imported_when_trusted(tmp_path):
    """The control of the test above: the same file inside the profile directory."""
    marker = tmp_path / "imported"
    prof = tmp_path / "prof"
    copy_builtin_profile(prof)
    (prof / "impl").mkdir()
    (prof / "impl" / "x.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n\n\n"
        "def ops_precede(evidence, *, decoy_set, target_set):\n    return True\n"
    )
    reg = prof / "registry.yaml"
    text = reg.read_text()
    at = text.index("candidates:")
    reg.write_text(text[:at] + IMPL_REGISTRY_ENTRY.format(spec="impl/x.py:ops_precede") + text[at:])
    from si_lint.profile import load_profile

    assert sorted(load_profile(prof).implementations) == []
    assert not marker.exists()
    assert sorted(load_profile(prof, trust=True).implementations) == ["ops_precede"]
    assert marker.read_text() == "ran"


def test_the_cache_does_not_answer_a_refused_profile_with_a_builtin_run(tmp_path, monkeypatch):
    """A refused profile runs under the built-in one: the cache keys tell the two apart."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "builtin"\n')
    code, out, err = run_cli(["check", "--format", "json"], corpus)
    assert (code, json.loads(out)["diagnostics"]) == (0, []), err
    toml = corpus / "si-lint.toml"
    toml.write_text(toml.read_text().replace('"builtin"', '"../outside"'))
    code, out, err = run_cli(["check", "--format", "json"], corpus)
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert (code, _whole(json.loads(out))) == (
        1,
        [_refused("si-lint.toml", line, 11, "../outside", "leads outside the corpus root")],
    )


@pytest.mark.parametrize(
    "text,key,expected",
    [
        (b'select = ["SI"]\nprofile = "../x"\n', ("profile",), (2, 11)),
        (b'[tool.si-lint]\n"profile"="x"\n', ("tool", "si-lint", "profile"), (2, 11)),
        (b"[tool]\nsi-lint.profile = 'x'\n", ("tool", "si-lint", "profile"), (2, 19)),
        (b'[other]\nprofile = "x"\n', ("profile",), (1, 1)),
        (b'[[a]]\nprofile = "x"\n', ("profile",), (1, 1)),
        (b'tool = {si-lint = {profile = "x"}}\n', ("tool", "si-lint", "profile"), (1, 1)),
        (b'# \xc3\xa9\xc3\xa9\n\xc3\xa9 = 1\nprofile =\t"x"\n', ("profile",), (3, 11)),
    ],
)
def test_value_position(text, key, expected):
    from si_lint.root import value_position

    assert value_position(text, key) == expected


def test_eval_refuses_to_score_under_a_refused_profile(tmp_path, monkeypatch):
    """`eval` has no findings to report SI010 with: a refused configured profile is its
    usage error (exit 2), never a silent score under another profile; `--profile` still
    chooses one."""
    outside = _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "../outside"\n')
    (corpus / "run.json").write_text(
        json.dumps(
            {
                "scenario_id": "infra.capability.da.single-signal-diagnosis-001",
                "final_answer": "SMTP_PORT is missing",
                "actions": [],
            }
        )
    )
    opened = _Opened(monkeypatch, outside)
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert run_cli(["eval", SCENARIO, "run.json"], corpus) == (
        2,
        "",
        f"si-lint: si-lint.toml:{line}:11: `profile` '../outside' leads outside the corpus "
        "root: not used (a profile named in a configuration file must be a directory "
        "inside the corpus root)\n",
    )
    assert opened.hits == []
    # named on the command line it is read: its one channel makes the table invalid
    assert run_cli(["eval", SCENARIO, "run.json", "--profile", "../outside"], corpus) == (
        1,
        "run.json: error: invalid decision table: row 2.when.factor_identified.channels: "
        "unknown channel `agent_response`\n",
        "note: the scenario has 1 lint error (SI106): run si-lint check\n",
    )


def test_graph_and_the_server_never_open_a_refused_profile(tmp_path, monkeypatch):
    """`graph` and the language server build the corpus through the same pipeline: the
    refused profile is not opened; the server reports SI010 like `check`."""
    from si_lint.server.state import CorpusState

    outside = _outside(tmp_path)
    corpus = _corpus(tmp_path, 'profile = "../outside"\n')
    opened = _Opened(monkeypatch, outside)
    code, out, err = run_cli(["graph", "--format", "json"], corpus)
    assert (code, err) == (0, "")
    assert json.loads(out)["nodes"]
    monkeypatch.chdir(corpus)
    state = CorpusState(corpus)
    state.load()
    line = len(SCENARIO_FILES["si-lint.toml"].splitlines()) + 1
    assert [
        (f.code, f.path, f.line, f.column, f.severity, f.message, f.help)
        for f in state.all_findings()
    ] == [_refused("si-lint.toml", line, 11, "../outside", "leads outside the corpus root")]
    assert opened.hits == []
