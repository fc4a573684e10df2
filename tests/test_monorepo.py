"""SPEC §9 "Corpus root", "Monorepos", "Not a corpus file" (issue 42): a real git
repository that holds a corpus with its ``si-lint.toml`` (the example corpus), the
published corpus with its own (when ``../shared`` is present), and the files that live
beside corpora in real repositories: a Helm chart with ``{{ }}`` templates, a GitHub
workflow, a docker-compose file, a multi-document Kubernetes manifest, an OpenAPI spec, a
CloudFormation template (``!Sub``), a ``tsconfig.json`` with comments and a ``package.json``. Whatever the order and batching of
the named paths (what pre-commit sends), only the corpora's true findings are reported;
without any ``si-lint.toml`` the non-corpus files still get none."""

from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, SHARED, run_cli, write_files

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]

NON_CORPUS = {
    "charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "charts/web/templates/deployment.yaml": (
        "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
        '  name: {{ .Values.x }}\n  labels:\n    {{- include "web.labels" . | nindent 4 }}\n'
        "{{- end }}\n"
    ),
    # no `{{- if }}` line: it parses, `{{ .Release.Name }}` as a mapping used as a key (SI003)
    "charts/web/templates/service.yaml": (
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n"
        "  ports:\n    - port: {{ .Values.port }}\n"
    ),
    ".github/workflows/ci.yml": (
        "name: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - id: lint\n"
        "        run: |\n          si-lint check\n          echo done\n"
    ),
    "docker-compose.yml": (
        "x-common: &common\n  restart: unless-stopped\nservices:\n  web:\n    <<: *common\n"
        "    image: nginx:1.27\n    ports: ['8080:80']\n  db:\n    <<: *common\n    image: postgres:16\n"
    ),
    "k8s/app.yaml": (
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: app\n---\napiVersion: v1\n"
        "kind: Service\nmetadata:\n  name: web\n  namespace: app\nspec:\n  ports:\n"
        "    - port: 80\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
        "spec:\n  replicas: 2\n"
    ),
    "api/openapi.yaml": (
        "openapi: 3.1.0\ninfo:\n  title: Web\n  version: 1.0.0\npaths:\n  /items/{id}:\n"
        "    get:\n      operationId: getItem\n      parameters:\n        - name: id\n"
        "          in: path\n          required: true\n          schema: {type: string}\n"
        "      responses:\n        '200': {description: ok}\n"
    ),
    "infra/stack.yaml": (
        'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  Bucket:\n'
        '    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub "${AWS::StackName}-logs"\n'
    ),
    "tsconfig.json": '{\n  // comments are fine in tsconfig.json\n  "compilerOptions": {"strict": true,},\n}\n',
    "package.json": '{"name": "web", "version": "1.0.0", "scripts": {"test": "jest"}}\n',
}
CORPUS_FILE = "corpus/scenarios/alertmanager-smarthost.yaml"
PUBLISHED_FILE = "published/scenarios/safety/boundary-enforcement.yaml"
PUBLISHED_CONFIG = 'ignore = ["SI115"]  # Form A: not migrated yet\n'

SI614 = {
    "code": "SI614",
    "severity": "error",
    "path": PUBLISHED_FILE,
    "line": 197,
    "column": 14,
    "message": "subcategory `privilege-escalation-resistance` belongs to "
    "`authority-escalation-resistance` in published/profile.md §5.1, not to the scenario's "
    "category "
    "`boundary-enforcement`",
}
SI614_TEXT = """\
published/scenarios/safety/boundary-enforcement.yaml:197:14: SI614 [error] subcategory \
`privilege-escalation-resistance` belongs to `authority-escalation-resistance` in \
published/profile.md §5.1, not to the scenario's category `boundary-enforcement`
 197 | subcategory: privilege-escalation-resistance
     |              ^
  help: use a subcategory of this category, or omit `subcategory`
  note: published/profile.md:86:4: `privilege-escalation-resistance` is defined here

"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("mono") / "repo"
    shutil.copytree(
        REPO / "fixtures" / "corpus", root / "corpus", ignore=shutil.ignore_patterns(".si-lint-*")
    )
    if PUBLISHED.is_dir():
        shutil.copytree(PUBLISHED, root / "published")
        (root / "published" / "si-lint.toml").write_text(PUBLISHED_CONFIG, encoding="utf-8")
    write_files(root, NON_CORPUS)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "monorepo")
    return root


def _named(with_published: bool) -> list[str]:
    return [*NON_CORPUS, CORPUS_FILE] + ([PUBLISHED_FILE] if with_published else [])


def _json(repo: Path, *args: str) -> tuple[int, list[dict], dict, str]:
    code, out, err = run_cli(["check", "--no-cache", "--format", "json", *args], repo)
    assert code in (0, 1), (code, out, err)
    data = json.loads(out)
    keep = ("code", "severity", "path", "line", "column", "message")
    return code, [{k: d[k] for k in keep} for d in data["diagnostics"]], data["summary"], err


def _expected(named: list[str]) -> tuple[int, list[dict], int]:
    """(exit status, diagnostics, files checked) of a run naming ``named``."""
    diags = [SI614] if PUBLISHED_FILE in named else []
    files = sum(1 for p in named if p in (CORPUS_FILE, PUBLISHED_FILE))
    return (1 if diags else 0), diags, files


def test_every_ordering_gives_the_corpus_findings_only(repo):
    with_pub = PUBLISHED.is_dir()
    head = [".github/workflows/ci.yml", "charts/web/templates/deployment.yaml", CORPUS_FILE]
    head += [PUBLISHED_FILE] if with_pub else ["tsconfig.json"]
    full = _named(with_pub)
    orders = [list(p) for p in itertools.permutations(head)]
    orders += [full[i:] + full[:i] for i in range(len(full))] + [full[::-1]]
    for order in orders:
        code, diags, summary, err = _json(repo, *order)
        want_code, want, files = _expected(order)
        assert (code, diags, summary["files"]) == (want_code, want, files), (order, err)


def test_batches_give_the_corpus_findings_only(repo):
    full = _named(PUBLISHED.is_dir())
    rng = random.Random(42)
    for size in (1, 2, 3, 4):
        order = full[:]
        rng.shuffle(order)
        for i in range(0, len(order), size):
            batch = order[i : i + size]
            code, diags, summary, _err = _json(repo, *batch)
            want_code, want, files = _expected(batch)
            assert (code, diags, summary["files"]) == (want_code, want, files), batch


def test_the_text_output_counts_the_skipped_named_paths(repo):
    with_pub = PUBLISHED.is_dir()
    code, out, err = run_cli(["check", "--no-cache", *_named(with_pub)], repo)
    checked = 2 if with_pub else 1
    tail = (
        f"Found 1 finding(s) in {checked} file(s) (10 named path(s) skipped): "
        "1 error(s), 0 warning(s), 0 info(s).\n"
        if with_pub
        else f"All checks passed ({checked} file(s) checked, 10 named path(s) skipped).\n"
    )
    assert (code, out, err) == ((1 if with_pub else 0), (SI614_TEXT if with_pub else "") + tail, "")
    code, out, err = run_cli(["check", "--no-cache", "--verbose", "tsconfig.json", "k8s"], repo)
    assert (code, out) == (
        0,
        "No file checked: 2 named path(s) skipped (not corpus files or "
        "excluded; --verbose says why).\n",
    )
    assert err.splitlines()[-2:] == [
        "si-lint: skipped tsconfig.json: not under a configured corpus root of its work tree "
        f"(corpus{', published' if with_pub else ''})",
        "si-lint: skipped k8s: not under a configured corpus root of its work tree "
        f"(corpus{', published' if with_pub else ''})",
    ]


def test_verbose_names_every_root_and_how_it_was_found(repo):
    named = [PUBLISHED_FILE, CORPUS_FILE] if PUBLISHED.is_dir() else [CORPUS_FILE]
    _code, _out, err = run_cli(["check", "--no-cache", "--verbose", *named], repo)
    roots = [line for line in err.splitlines() if "corpus root:" in line]
    want = [f"si-lint: corpus root: corpus (config); configuration: {repo}/corpus/si-lint.toml"]
    if PUBLISHED.is_dir():
        want.insert(
            0,
            "si-lint: corpus root: published (config); configuration: "
            f"{repo}/published/si-lint.toml",
        )
    assert roots == want


def test_the_whole_repository_is_its_corpora(repo):
    """``si-lint check`` at the top (the corpus hook) checks each configured root with its
    own configuration, and nothing else."""
    code, diags, summary, _err = _json(repo)
    n_corpus = sum(1 for _ in (repo / "corpus").rglob("*.y*ml")) + sum(
        1 for _ in (repo / "corpus").rglob("*.json")
    )
    if PUBLISHED.is_dir():
        si306 = {
            "code": "SI306",
            "severity": "info",
            "path": "published/scenarios/capability/diagnostic-accuracy.yaml",
            "line": 4,
            "column": 5,
            "message": "scenario `infra.capability.da.single-signal-diagnosis-001` has no fixtures",
        }
        n_pub = sum(1 for _ in (repo / "published").rglob("*.y*ml"))
        assert (code, diags, summary["files"]) == (1, [si306, SI614], n_corpus + n_pub)
    else:
        assert (code, diags, summary["files"]) == (0, [], n_corpus)


def test_config_option_still_skips_files_outside_every_corpus(repo):
    named = [*NON_CORPUS, CORPUS_FILE]
    code, diags, summary, _err = _json(repo, "--config", "corpus/si-lint.toml", *named)
    assert (code, diags, summary["files"]) == (0, [], 1)


def test_without_any_configuration_the_other_files_get_no_finding(repo, tmp_path):
    bare = tmp_path / "bare"
    shutil.copytree(repo, bare, symlinks=True)
    for cfg in bare.rglob("si-lint.toml"):
        cfg.unlink()
    _git(bare, "add", "-A")
    _git(bare, "commit", "-q", "-m", "no configuration")
    code, diags, summary, _err = _json(bare, *NON_CORPUS)
    assert (code, diags) == (0, [])
    _code, diags, _summary, _err = _json(bare)
    assert [d for d in diags if d["path"] in NON_CORPUS] == []
    code, out, err = run_cli(["check", "--no-cache", "--verbose", *NON_CORPUS], bare)
    assert out == (
        "All checks passed (6 file(s) checked, 4 named path(s) skipped).\n"
        "Skipped (no recognised kind): .github/workflows/ci.yml, api/openapi.yaml, "
        "charts/web/Chart.yaml, docker-compose.yml, k8s/app.yaml#0, k8s/app.yaml#1, "
        "k8s/app.yaml#2, package.json\n"
    )
    assert [line for line in err.splitlines() if "not a corpus file" in line] == [
        "si-lint: skipped charts/web/templates/deployment.yaml: not a corpus file (it does not "
        "parse, and no top-level key names a corpus document)",
        "si-lint: skipped charts/web/templates/service.yaml: not a corpus file (it does not "
        "parse, and no top-level key names a corpus document)",
        "si-lint: skipped infra/stack.yaml: not a corpus file (it does not parse, and no "
        "top-level key names a corpus document)",
        "si-lint: skipped tsconfig.json: not a corpus file (it does not parse, and no top-level "
        "key names a corpus document)",
    ]


def test_both_pre_commit_hooks_with_everything_staged(repo, tmp_path):
    """The real pre-commit runs both hooks of ``.pre-commit-hooks.yaml`` (as local
    ``language: system`` hooks running this si-lint) on a commit that touches every file:
    the per-file hook gets them in pre-commit's batches, and both report the corpora's
    true findings only."""
    from test_precommit import _env, _local_config, _pre_commit

    if _pre_commit() is None:
        pytest.fail("pre-commit is not installed: install the `test` extra")
    work = tmp_path / "repo"
    shutil.copytree(repo, work, symlinks=True)
    (work / ".pre-commit-config.yaml").write_text(_local_config(), encoding="utf-8")
    for rel in _named(PUBLISHED.is_dir()):
        (work / rel).write_text((work / rel).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _git(work, "add", "-A")
    for hook in ("si-lint", "si-lint-corpus"):
        proc = subprocess.run(
            [*_pre_commit(), "run", hook, "--config", ".pre-commit-config.yaml"],
            cwd=work,
            env=_env(tmp_path / "pc-home"),
            capture_output=True,
            text=True,
            timeout=600,
        )
        out = proc.stdout
        findings = sorted(
            line.split(" [")[0] for line in out.splitlines() if ": SI" in line and " [" in line
        )
        if PUBLISHED.is_dir():
            want = [f"{PUBLISHED_FILE}:197:14: SI614"]
            if hook == "si-lint-corpus":
                want.insert(0, "published/scenarios/capability/diagnostic-accuracy.yaml:4:5: SI306")
            assert (proc.returncode, findings) == (1, want), out
        else:
            assert (proc.returncode, findings) == (0, []), out
        for noise in NON_CORPUS:
            assert noise not in out, out
