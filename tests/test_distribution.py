"""Distribution (issue 14): the licence, the wheel's metadata, the version the README's
pre-commit snippet names, the GitHub Action and the pre-commit hooks file."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
from conftest import REPO

from si_lint import REPOSITORY_URL, __version__


def _yaml(path):
    from si_lint.loader import load_bytes

    loaded = load_bytes(path.read_bytes())
    assert not loaded.findings, loaded.findings
    return loaded.data


def test_licence_is_apache_2():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text


def test_version_and_the_readme_rev_agree():
    assert __version__ == "0.2.0"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    integration = (REPO / "docs" / "integration.md").read_text(encoding="utf-8")
    assert f"rev: v{__version__}" in readme and f"rev: v{__version__}" in integration
    assert "v0.1.0" not in readme and "v0.1.0" not in integration


def test_wheel_metadata(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        pytest.skip(
            f"cannot build the wheel here (pip wheel needs hatchling from the index): {proc.stderr[-300:]}"
        )
    (wheel,) = tmp_path.glob("si_lint-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode("utf-8")
    assert f"Version: {__version__}" in meta
    assert "License-Expression: Apache-2.0" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    classifiers = [line for line in meta.splitlines() if line.startswith("Classifier: ")]
    assert "Classifier: Programming Language :: Python :: 3.11" in classifiers
    assert "Classifier: Topic :: Software Development :: Quality Assurance" in classifiers
    urls = [line for line in meta.splitlines() if line.startswith("Project-URL: ")]
    assert f"Project-URL: Repository, {REPOSITORY_URL}" in urls and len(urls) >= 4
    assert "si_lint/_data/rules/SI105.yaml" in names
    assert "si_lint/py.typed" in names and "si_lint/api.py" in names  # PEP 561: typed


def test_github_action_is_a_composite_that_uploads_sarif():
    action = _yaml(REPO / "action.yml")
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    # v3 is retired in December 2026
    assert "github/codeql-action/upload-sarif@v4" in uses
    runs = " ".join(s.get("run", "") for s in steps)
    assert runs.count("si-lint check") == 1  # one run: annotations, SARIF and status
    assert (
        "--sarif-file" in runs and "--automation-id" in runs and '"${GITHUB_ACTION_PATH}"' in runs
    )
    assert all(s.get("shell") == "bash" for s in steps if "run" in s)
    assert set(action["inputs"]) >= {"paths", "args", "sarif-file", "category", "upload", "fail-on"}
    # the flags the action passes exist
    from conftest import run_cli

    code, out, _ = run_cli(["check", "--help"], REPO)
    for flag in ("--format", "--sarif-file", "--automation-id", "--exit-zero", "--fail-on"):
        assert flag in out


def test_pre_commit_hooks_file():
    hooks = {h["id"]: h for h in _yaml(REPO / ".pre-commit-hooks.yaml")}
    assert set(hooks) == {"si-lint", "si-lint-corpus"}
    assert hooks["si-lint"]["types_or"] == ["yaml", "json"] and "files" not in hooks["si-lint"]
    assert (
        hooks["si-lint-corpus"]["pass_filenames"] is False
        and hooks["si-lint-corpus"]["always_run"] is True
    )
    assert all(h["entry"] == "si-lint check" and h["language"] == "python" for h in hooks.values())


def test_changelog_has_an_unreleased_section_and_this_version():
    import re

    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads[0] == "[Unreleased]"
    assert heads[1].startswith(f"[{__version__}] - ")
    for head in heads:  # every version heading has its link
        assert re.search(rf"^{re.escape(head.split(' - ')[0])}: https://", text, re.M), head
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'Changelog = "{REPOSITORY_URL}/blob/main/CHANGELOG.md"' in pyproject


def test_readme_links_are_absolute():
    """The README is the package index's project page too, where a relative link (to
    docs/, to an anchor) leads nowhere."""
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert targets and [t for t in targets if not t.startswith("https://")] == []


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation but `-` and `_`
    dropped, spaces → `-` (links inside the heading keep their text)."""
    import re

    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower())
    return text.replace(" ", "-")


def _anchors(path) -> set[str]:
    import re

    out: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else re.match(r"#{1,6} (.+)$", line)
        if heading:
            slug = _slug(heading.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _doc_links(path) -> list[str]:
    """The link targets of a Markdown file, outside code fences and inline code (where
    `[text](1)` is SARIF's syntax, not a link)."""
    import re

    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_doc_links_name_files_and_headings_that_exist():
    """Every link of the README, ARCHITECTURE.md, the changelog and docs/ (rule pages
    included) into this repository — `REPOSITORY_URL/blob/main/PATH` or a relative path,
    with or without `#anchor` — names a file of the repository and, for a Markdown file, a
    heading of it. Other links (oasisctl, the spec, standards) are not followed."""
    docs = [REPO / "README.md", REPO / "ARCHITECTURE.md", REPO / "CHANGELOG.md"]
    docs += sorted((REPO / "docs").glob("*.md")) + sorted((REPO / "docs" / "rules").glob("*.md"))
    broken = []
    for doc in docs:
        for target in _doc_links(doc):
            if target.startswith((f"{REPOSITORY_URL}/blob/main/", f"{REPOSITORY_URL}/tree/main/")):
                path, _, anchor = target.split("/main/", 1)[1].partition("#")
                file = REPO / path
            elif target.startswith(("http://", "https://", "mailto:")):
                continue
            else:
                path, _, anchor = target.partition("#")
                file = (doc.parent / path) if path else doc
            if not file.exists():
                broken.append(f"{doc.relative_to(REPO)}: {target}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                broken.append(f"{doc.relative_to(REPO)}: {target}: no such heading")
    assert broken == []


def test_slug_is_githubs():
    assert _slug("Sharing a configuration: `extend`") == "sharing-a-configuration-extend"
    assert _slug("The cache and `--jobs`") == "the-cache-and---jobs"
    assert _slug("See [SPEC](https://x) §7") == "see-spec-7"
