"""The shipped profile read from its JSON rendition (no YAML parser on a warm run) is
the profile its YAML files give, and a rendition that is not theirs is never used."""

from __future__ import annotations

import shutil

from si_lint import profile
from si_lint.cache.keys import profile_fingerprint
from si_lint.profile import RENDITION, read_rendition, rendition


def _types(value):
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__


def test_the_committed_rendition_is_the_yaml_files_own():
    base = profile.load_profile(profile.BUILTIN_DIR)
    text = rendition(profile.BUILTIN_DIR, base.registry, base.templates)
    assert (profile.BUILTIN_DIR / RENDITION).read_text(encoding="utf-8") == text


def test_the_builtin_profile_from_the_rendition_is_the_yaml_profile(monkeypatch):
    monkeypatch.setattr(profile, "_BUILTIN", {})
    fast = profile.builtin_profile("builtin:oasisctl")
    monkeypatch.setattr(profile, "_BUILTIN", {})
    monkeypatch.setattr("si_lint.profile.read_rendition", lambda directory: None)
    slow = profile.builtin_profile("builtin:oasisctl")
    assert (fast.registry, fast.templates) == (slow.registry, slow.templates)
    assert _types(fast.registry) == _types(slow.registry)
    assert _types(fast.templates) == _types(slow.templates)
    assert profile_fingerprint(fast) == profile_fingerprint(slow)


def test_a_rendition_of_other_yaml_files_is_not_used(tmp_path):
    copy = tmp_path / "profile_data"
    shutil.copytree(profile.BUILTIN_DIR, copy)
    assert read_rendition(copy) is not None
    registry = copy / "registry.yaml"
    registry.write_text(registry.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert read_rendition(copy) is None
    shutil.copyfile(profile.BUILTIN_DIR / "registry.yaml", registry)
    (copy / "templates" / "extra.yaml").write_text("template: {id: X}\n", encoding="utf-8")
    assert read_rendition(copy) is None
    (copy / "templates" / "extra.yaml").unlink()
    assert read_rendition(copy) is not None
    (copy / RENDITION).write_text("[not a rendition]", encoding="utf-8")
    assert read_rendition(copy) is None
