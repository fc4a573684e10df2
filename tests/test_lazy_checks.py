"""The check index (``si_lint.checks.checks_of``): under a cache, a run knows every check
by its declaration and imports a check's module only when the check runs. A re-check
after a fixture edit imports no scenario rule; the output is --no-cache's."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import age, run_cli

MODULES = """
import sys
from si_lint.cli import main
sys.argv = ["si-lint", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
finally:
    names = sorted(m for m in sys.modules if m.startswith("si_lint.checks."))
    sys.stderr.write("\\n".join(names))
"""


def _out(root, *args, cache=None):
    cache_args = ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    code, out, err = run_cli(["check", "--format", "json", "--jobs", "1", *cache_args, *args], root)
    assert code in (0, 1), (out, err)
    return code, out


def _imported(root, cache, env) -> tuple[str, set[str]]:
    """The output of a run of its own process, and the check modules it imported."""
    proc = subprocess.run(
        [sys.executable, "-c", MODULES, "check", "--format", "json", "--jobs", "1"]
        + ["--cache-dir", str(cache)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.stdout, set(proc.stderr.split())


def test_a_re_check_imports_the_modules_of_the_checks_it_runs(example_copy, tmp_path, user_env):
    corpus = example_copy
    cache = tmp_path / "cache"
    _, everything = _imported(corpus, cache, user_env)  # no index yet: every module
    assert {"si_lint.checks.scenario_rules", "si_lint.checks.schema"} <= everything
    fixture = sorted((corpus / "fixtures").rglob("*.yaml"))[0]
    fixture.write_text(fixture.read_text() + "# edited\n")
    age(corpus)  # edited, but not racy
    out, some = _imported(corpus, cache, user_env)
    assert out == _out(corpus)[1]
    assert "si_lint.checks.schema" in some  # the fixture's file check ran
    rules_only = {"si_lint.checks.scenario_rules", "si_lint.checks.graph_checks"}
    assert not some & (rules_only | {"si_lint.checks.table_facts"})  # nor the facts they share
    scenario = sorted((corpus / "scenarios").glob("*.yaml"))[0]
    scenario.write_text(scenario.read_text() + "# edited\n")
    age(corpus)
    out, more = _imported(corpus, cache, user_env)
    assert out == _out(corpus)[1]
    assert "si_lint.checks.scenario_rules" in more  # a scenario's rules ran


def test_the_index_names_every_check_and_resolves_to_the_registered_functions():
    from si_lint.checks import _from_index, _to_index, all_checks, checks_of
    from si_lint.registry import LazyCheck

    eager = all_checks()
    lazy = _from_index(json.loads(json.dumps(_to_index(eager))))
    assert all(type(c) is LazyCheck for c in lazy)
    declared = [(c.name, c.codes, c.scope, c.kinds, c.stage) for c in lazy]
    assert declared == [(c.name, c.codes, c.scope, c.kinds, c.stage) for c in eager]
    assert [c.func for c in lazy] == [c.func for c in eager]
    assert checks_of(None) is eager  # no cache: the modules, imported


@pytest.mark.parametrize(
    "row",
    [
        ["os", "system", [], "file", None, "file"],  # not a module of si_lint.checks
        ["si_lint.checks.schema", "schema_check()", [], "file", None, "file"],
        ["si_lint.checks.schema", "schema_check", "SI100", "file", None, "file"],
        ["si_lint.checks.schema", "schema_check", [], "both", None, "file"],
        ["si_lint.checks.schema", "schema_check", [], "file", "scenario", "file"],
        ["si_lint.checks.schema", "schema_check", [], "file"],
        ["si_lint..schema", "schema_check", [], "file", None, "file"],
    ],
)
def test_an_index_that_is_not_one_is_refused(row):
    from si_lint.checks import _from_index

    with pytest.raises((ValueError, TypeError)):
        _from_index([row])


def test_a_bad_index_in_the_cache_gives_every_module_imported():
    from si_lint.cache.store import Cache as Store
    from si_lint.checks import INDEX_KEY, all_checks, checks_of

    class Cache:  # the store's memoize over a memo table holding a bad index
        enabled = True
        put = None
        memoize = Store.memoize

        def memo_get(self, key, decode):
            assert key == INDEX_KEY
            try:
                return True, decode([["os", "system", [], "file", None, "file"]])
            except Exception:
                return False, None

        def memo_put(self, key, value, encode):
            self.put = encode(value)

    cache = Cache()
    assert checks_of(cache) is all_checks()
    assert cache.put[0][0].startswith("si_lint.checks.")


def test_a_check_the_module_does_not_register_is_an_si000():
    from si_lint.pipeline.perfile import crash
    from si_lint.registry import LazyCheck

    ghost = LazyCheck("si_lint.checks.schema", "no_such_check", ("SI100",), "file", None, "file")
    with pytest.raises(LookupError) as exc:
        ghost.func  # noqa: B018
    diag = crash(ghost, exc.value, "x.yaml")
    assert diag.code == "SI000"
    assert diag.message == (
        "internal error: check si_lint.checks.schema.no_such_check crashed (LookupError: "
        "si_lint.checks.schema.no_such_check registers no such check); other checks still ran"
    )
