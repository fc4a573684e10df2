"""The cache's ``configs.json``: the sha256 of the configuration texts the last run read,
all valid, signed under si-lint's code alone. A re-check with the same texts does not
validate them again; any other text (an edit, an extended file, a forged or unsigned
memo) is validated as before."""

from __future__ import annotations

import hashlib
import json

import pytest
from conftest import run_cli, write_files

import si_lint.config

CORPUS = {
    "si-lint.toml": 'select = ["SI"]\n',
    "scenarios/s.yaml": "id: x\n",
}
INVALID = 'select = ["SI9x"]\n'
INVALID_ERR = (
    "invalid si-lint configuration: `select[0]` must match `^[A-Z]+[0-9]*$` (a rule code or "
    'code prefix in capitals, e.g. `SI1`, `EIO`, `SI306`), not a string "SI9x"\n'
)


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.delenv("SI_LINT_CACHE_DIR", raising=False)
    root = tmp_path / "corpus"
    write_files(root, CORPUS)
    return root


def _memo(root):
    text = (root / ".si-lint-cache" / "configs.json").read_text(encoding="utf-8")
    return json.loads(text.rpartition("\n#mac ")[0])["configs"]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_re_check_does_not_validate_the_same_configuration_again(corpus, monkeypatch):
    first = run_cli(["check", "--format", "concise", "."], corpus)
    assert _memo(corpus) == [_sha(CORPUS["si-lint.toml"])]

    def refuse(kind, data):
        raise AssertionError(f"validated {kind} again")

    monkeypatch.setattr(si_lint.config, "validate", refuse)
    assert run_cli(["check", "--format", "concise", "."], corpus) == first


def test_an_edited_configuration_is_validated(corpus):
    run_cli(["check", "--format", "concise", "."], corpus)
    (corpus / "si-lint.toml").write_text(INVALID, encoding="utf-8")
    code, out, err = run_cli(["check", "--format", "concise", "."], corpus)
    assert (code, out, err) == (2, "", f"si-lint: {corpus / 'si-lint.toml'}: {INVALID_ERR}")
    assert _memo(corpus) == [_sha(CORPUS["si-lint.toml"])]  # (nothing invalid recorded)


@pytest.mark.parametrize("signature", ["", "\n#mac " + "0" * 64 + "\n"])
def test_a_memo_that_is_not_signed_by_the_user_validates_nothing(corpus, signature):
    run_cli(["check", "--format", "concise", "."], corpus)
    (corpus / "si-lint.toml").write_text(INVALID, encoding="utf-8")
    memo = corpus / ".si-lint-cache" / "configs.json"
    header = json.loads(memo.read_text(encoding="utf-8").rpartition("\n#mac ")[0])["header"]
    forged = json.dumps({"header": header, "configs": [_sha(INVALID)]})
    memo.write_text(forged + signature, encoding="utf-8")
    code, out, err = run_cli(["check", "--format", "concise", "."], corpus)
    assert (code, out, err) == (2, "", f"si-lint: {corpus / 'si-lint.toml'}: {INVALID_ERR}")


def test_no_cache_neither_reads_nor_writes_the_memo(corpus, monkeypatch):
    run_cli(["check", "--no-cache", "--format", "concise", "."], corpus)
    assert not (corpus / ".si-lint-cache").exists()
