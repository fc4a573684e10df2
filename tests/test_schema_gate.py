"""The jsonschema-rs gate in si_lint.schemas.validate: the messages stay exactly jsonschema's.

`validate` asks jsonschema-rs first and trusts only its "valid"; jsonschema writes every
message. These tests compare `validate` with the jsonschema-only path on every document
the repository ships (example corpus, rule examples, the published corpus when ../shared
is there) and on many deterministic mutations of them (wrong types, missing and unknown
keys, trailing newlines against `pattern`, integers beyond 64 bits, lone surrogates).
"""

from __future__ import annotations

import copy

import pytest
from conftest import REPO, SHARED

from si_lint import schemas
from si_lint.corpus import classify
from si_lint.loader import load_bytes, load_text

jsonschema_rs = pytest.importorskip("jsonschema_rs", reason="jsonschema-rs is not installed")


def _documents() -> list[tuple[str, str, object]]:
    """(origin, kind, data) of every classified document we ship."""
    out = []
    for path in sorted((REPO / "fixtures").rglob("*")):
        if path.suffix in (".yaml", ".yml", ".json") and path.is_file():
            data = load_bytes(path.read_bytes()).data
            kind = classify(data)
            if kind in schemas.KINDS:
                out.append((path.relative_to(REPO).as_posix(), kind, data))
    for rule in sorted((REPO / "rules").glob("*.yaml")):
        examples = (load_bytes(rule.read_bytes()).data or {}).get("examples") or {}
        for which in ("bad", "good"):
            files = (examples.get(which) or {}).get("files") or {}
            for name, text in sorted(files.items()):
                if not isinstance(text, str) or not name.endswith((".yaml", ".yml", ".json")):
                    continue
                data = load_text(text).data
                kind = classify(data)
                if kind in schemas.KINDS:
                    out.append((f"{rule.name}:{which}:{name}", kind, data))
    return out


def _shared_documents() -> list[tuple[str, str, object]]:
    out = []
    base = SHARED / "data" / "oasis-si"
    for path in sorted(base.rglob("*.yaml")):
        # every document of the stream (the loader of this checkout may read the first only)
        from ruamel.yaml import YAML

        for i, data in enumerate(YAML(typ="safe", pure=True).load_all(path.read_text("utf-8"))):
            kind = classify(data)
            if kind in schemas.KINDS:
                out.append((f"{path.name}#{i}", kind, data))
    return out


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def _get(data, path):
    for p in path:
        data = data[p]
    return data


def _set(data, path, value):
    _get(data, path[:-1])[path[-1]] = value


def _mutations(data):
    """Deterministic variants of ``data`` that break (or keep) it in many ways."""
    replacements = [None, "", "x\n", "NOTAPATTERN\n", 1.0, 2**70, True, [], {}, -1, "\ud800"]
    for n, path in enumerate(_paths(data)):
        if not path:
            continue
        value = _get(data, path)
        repl = replacements[n % len(replacements)]
        m = copy.deepcopy(data)
        _set(m, path, repl)
        yield m
        if isinstance(value, str):  # a trailing newline: Python's `$` matches before it
            m = copy.deepcopy(data)
            _set(m, path, value + "\n")
            yield m
        if isinstance(value, dict) and value:
            m = copy.deepcopy(data)
            del _get(m, path)[next(iter(value))]
            yield m
            m = copy.deepcopy(data)
            _get(m, path)["unexpected_key_x"] = 1
            yield m


def _python_only(kind, data):
    saved = schemas.fast_validator
    schemas.fast_validator = lambda _kind: None
    try:
        return schemas.validate(kind, data)
    finally:
        schemas.fast_validator = saved


def _check(origin, kind, data):
    gated = schemas.validate(kind, data)
    assert gated == _python_only(kind, data), origin
    fast = schemas.fast_validator(kind)
    try:
        rs_valid = fast.is_valid(data)
    except Exception:
        return
    if rs_valid:  # the gate's premise: jsonschema-rs "valid" is jsonschema valid
        assert not list(schemas.validator(kind).iter_errors(data)), origin


def test_every_kind_has_a_fast_validator():
    for kind in schemas.KINDS:
        assert schemas.fast_validator(kind) is not None, kind


def test_shipped_documents_and_their_mutations_get_jsonschemas_messages():
    docs = _documents()
    assert len(docs) > 50
    checked = 0
    for origin, kind, data in docs:
        _check(origin, kind, data)
        for i, m in enumerate(_mutations(data)):
            if i % 10 == 0:  # every tenth mutation keeps the test quick on a shared machine
                _check(f"{origin} mutation {i}", kind, m)
                checked += 1
    assert checked > 300, checked


def test_published_corpus_documents_get_jsonschemas_messages():
    if not (SHARED / "data" / "oasis-si").is_dir():
        pytest.skip("../shared is absent: the published corpus is not here")
    docs = _shared_documents()
    assert len(docs) >= 50
    for origin, kind, data in docs:
        _check(origin, kind, data)
        for i, m in enumerate(_mutations(data)):
            if i % 25 == 0:
                _check(f"{origin} mutation {i}", kind, m)


@pytest.mark.parametrize("value", [2**70, -(2**70), "\ud800", float("nan"), float("inf")])
def test_values_jsonschema_rs_cannot_take_fall_back_to_jsonschema(value):
    data = {"scenario": "s", "events": [], "expect": {"score": value}}
    assert schemas.validate("fixture", data) == _python_only("fixture", data)


def test_a_trailing_newline_against_a_pattern_is_jsonschemas_verdict():
    # Python's `$` matches before a final newline, the Rust regex's does not: jsonschema-rs
    # rejects, jsonschema accepts -- validate must say what jsonschema says (nothing)
    reg = (
        load_bytes((REPO / "si_lint" / "profile_data" / "registry.yaml").read_bytes()).data
        if (REPO / "si_lint" / "profile_data" / "registry.yaml").is_file()
        else None
    )
    if reg is None:
        pytest.skip("no shipped registry to mutate")
    for origin, kind, data in [("registry", "registry", reg)]:
        for m in _mutations(data):
            _check(origin, kind, m)
