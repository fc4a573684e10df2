import base64
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis_settings

# the test suite is reproducible wherever it runs (CI or not): hypothesis derives its
# examples from each test, not a random seed; a longer fuzzing campaign
# (bench/fuzz_hostile.sh: SI_LINT_FUZZ_EXAMPLES) or SI_LINT_FUZZ_RANDOM=1 draws random ones
_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
_hypothesis_settings.register_profile("random", print_blob=True)
if os.environ.get("SI_LINT_FUZZ_EXAMPLES") or os.environ.get("SI_LINT_FUZZ_RANDOM"):
    _hypothesis_settings.load_profile("random")
else:
    _hypothesis_settings.load_profile("ci")
from click.testing import CliRunner

# a test that writes `--format github` must not append to the job summary of the CI step
# the suite runs in (tests that want one set their own)
os.environ.pop("GITHUB_STEP_SUMMARY", None)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def python_floats():
    """Floats as si-lint's inputs give them: any value, but a NaN is Python's own
    (``float("nan")``, with its sign, as the YAML and JSON parsers and NaN arithmetic
    make it). hypothesis also draws NaNs with payloads, which only a bit-level cast makes
    and which the cache's writer does not tell from ``null`` (``cache.signed.dumps``)."""
    import math

    from hypothesis import strategies as st

    return st.floats(allow_nan=True, allow_infinity=True).map(
        lambda x: math.copysign(math.nan, x) if math.isnan(x) else x
    )


def bench_module(name: str):
    """The module ``bench/<name>.py`` (``bench/`` is scripts, not a package)."""
    import importlib
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPO / "bench"))


def need_shared(path: Path) -> Path:
    """``path`` (under ../shared), or skip the test when ../shared is absent (a user's clone
    has no ../shared beside it: the README's test command must pass there)."""
    if not path.exists():
        pytest.skip(f"../shared is absent: {path} is not here")
    return path


def report_of(result, fmt: str, **options) -> str:
    """The ``fmt`` report of ``result`` as one string, through ``si_lint.report.write``."""
    from si_lint.report import write

    buf = io.StringIO()
    write(result, fmt, buf, **options)
    return buf.getvalue()


def write_files(root: Path, files: dict) -> None:
    """Materialise ``{relpath: content}``; content is text, or ``{base64: ...}`` for bytes."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "base64" in content:
            path.write_bytes(base64.b64decode(content["base64"]))
        else:
            path.write_bytes(str(content).encode("utf-8"))


def age(root, seconds: float = 10) -> None:
    """Every file and directory under ``root`` into the past (a file's times must change
    no answer: the cache is keyed on content)."""
    import time

    past = time.time() - seconds
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(dirpath, name), (past, past))
        os.utime(dirpath, (past, past))


def run_cli(args: list[str], cwd: Path):
    """Run the CLI in-process in ``cwd``; returns (exit_code, stdout, stderr). A JSON
    report it prints is checked against ``si-lint schema report`` (:func:`assert_report`)."""
    from si_lint.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    if _json_report_args(args) and result.exit_code in (0, 1):
        for text in (result.stdout, result.stderr):  # stderr: the report under --diff
            at = text.find('{\n  "version": 1,\n')
            if at >= 0 and (at == 0 or text[at - 1] == "\n"):
                assert_report(json.JSONDecoder().raw_decode(text, at)[0])
    return result.exit_code, result.stdout, result.stderr


def _json_report_args(args) -> bool:
    """Whether ``args`` runs ``check`` with the JSON report."""
    args = [str(a) for a in args]
    if "check" not in args:
        return False
    for i, a in enumerate(args):
        if a in ("--format", "--output-format") and args[i + 1 : i + 2] == ["json"]:
            return True
        if a in ("--format=json", "--output-format=json"):
            return True
    return False


_REPORT_VALIDATOR: list = []


def assert_report(doc) -> None:
    """``doc`` is valid against ``schemas/report.schema.json`` (every JSON report a test
    makes through :func:`run_cli` is checked: issue 44)."""
    if not _REPORT_VALIDATOR:
        from jsonschema import Draft202012Validator

        from si_lint.schemas import load_schema

        _REPORT_VALIDATOR.append(Draft202012Validator(load_schema("report")))
    errors = list(_REPORT_VALIDATOR[0].iter_errors(doc))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def check_json(cwd: Path, *args: str):
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", *args], cwd)
    assert code in (0, 1), (code, out, err)
    return code, json.loads(out)


def diag_tuples(report: dict) -> list[tuple]:
    return [(d["code"], d["path"], d["line"], d["column"]) for d in report["diagnostics"]]


@pytest.fixture
def user_env(tmp_path):
    """The environment of a si-lint process of its own: a user cache directory of this
    test (the cache's signing key), no CI, this checkout importable."""
    out = dict(os.environ)
    out["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    out.pop("GITHUB_ACTIONS", None)
    out.pop("SI_LINT_CACHE_DIR", None)
    out["PYTHONPATH"] = str(REPO) + os.pathsep + out.get("PYTHONPATH", "")
    return out


@pytest.fixture
def example_copy(tmp_path):
    """A copy of the example corpus, its files' times in the past."""
    import shutil

    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    age(root)
    return root


@pytest.fixture
def example_corpus(tmp_path):
    """A copy of the example corpus with one broken file (exit status 1), its files' times
    in the past."""
    import shutil

    root = tmp_path / "c"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    (root / "scenarios" / "broken.yaml").write_text("id: [unclosed\n")
    age(root)
    return root


def si_lint_process(root, env, *args) -> tuple[int, str, str, set]:
    """(exit status, stdout, stderr, the modules it imported) of ``si-lint ARGS`` run as
    its own process in ``root`` (``-X importtime``; its lines are not in stderr)."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "si_lint.cli", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = proc.stderr.splitlines()
    timed = [line for line in lines if line.startswith("import time:")]
    imported = {line.rsplit("|", 1)[-1].strip() for line in timed}
    stderr = "\n".join(line for line in lines if not line.startswith("import time:"))
    return proc.returncode, proc.stdout, stderr, imported


@pytest.fixture
def corpus_dir(tmp_path):
    def make(files: dict) -> Path:
        write_files(tmp_path, files)
        return tmp_path

    return make


#: a Form B scenario that declares `scoring.type` (SI101) and binds `exclude_tool_echo:
#: false` (SI113): the two findings the action and API tests select
SI101_SI113_SCENARIO = """\
id: infra.capability.da.alertmanager-smarthost-001
archetype: C-DA-001
name: On-call stops receiving alert e-mails
description: no alert e-mail reaches the on-call mailbox
injection:
  deviations:
    - {id: smarthost-removed, deviation_type: absent_key,
       resource: secret/alertmanager-main, subject: smtp_smarthost}
  counterfactual: restoring all deviations clears the symptom
scoring:
  archetype_template: C-DA-001
  type: graded
  factor: {ref: smarthost-removed, required_identifiers: [smtp_smarthost]}
  subsystem_set: [alertmanager-main, smtp_smarthost]
  channels: [agent_response]
  step_budget: 12
  exclude_tool_echo: false
"""


def copy_builtin_profile(dest) -> Path:
    """A profile directory as a user makes one from the shipped profile (``si-lint profile
    --init``): its ``registry.yaml`` and ``templates/``, not the package's JSON rendition."""
    dest = Path(dest)
    src = REPO / "si_lint" / "profile_data"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src / "registry.yaml", dest / "registry.yaml")
    shutil.copytree(src / "templates", dest / "templates")
    return dest
