"""The cache never changes an answer (issue 43). A seeded random sequence of edits over a
copy of the bundled corpus and of the published corpus -- modify, add, delete and rename
a file, change ``si-lint.toml``, a profile document, a fixture's expectation -- and after
every step ``check`` with the cache prints, byte for byte and with the same exit status,
what ``check --no-cache`` prints: the text report, then the JSON one (a format switch
after an edit once replayed a stale report), and a run naming one file (cross-file
findings related to it included, SPEC §9). Some steps run the cached checks with
``--jobs 2`` (process pools forced even on a small corpus). A corpus check registered for
the test reads every fixture's content: the kind of check a cache keyed on less than
everything it read would answer stale."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, SHARED, need_shared, run_cli, si_lint_process

from si_lint.findings import Diag

PUBLISHED = SHARED / "data" / "oasis-si" / "software-infrastructure"
SUFFIXES = (".yaml", ".yml", ".json")
#: the steps of one sequence: every kind of edit once, then random ones
STEPS = 10
#: the sequences per corpus (a longer campaign: SI_LINT_FUZZ_EXAMPLES=50)
SEEDS = [str(n) for n in range(int(os.environ.get("SI_LINT_FUZZ_EXAMPLES") or 2))]


def _files(root: Path) -> list[str]:
    """The corpus's files (not a cache directory the example corpus may carry: the README's
    first command writes ``fixtures/corpus/.si-lint-cache``, and copies take it along)."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file()
        and p.suffix in SUFFIXES
        and ".si-lint-cache" not in p.relative_to(root).parts
    )


def _modify(root: Path, rng: random.Random, n: int) -> str:
    rel = rng.choice(_files(root))
    path = root / rel
    text = path.read_text(encoding="utf-8")
    how = rng.choice(["comment", "key", "duplicate"])
    if how == "comment":
        text += f"# edit {n}\n"
    elif how == "key":
        text = text.rstrip("\n") + f"\nx_edit_{n}: {n}\n"
    else:  # the first line twice: a duplicate key (or a changed document)
        first, _, rest = text.partition("\n")
        text = f"{first}\n{first}\n{rest}"
    path.write_text(text, encoding="utf-8")
    return f"modify {rel} ({how})"


def _add(root: Path, rng: random.Random, n: int) -> str:
    rel = rng.choice([f for f in _files(root) if f.startswith("scenarios/")] or _files(root))
    new = Path(rel).with_name(f"copy-{n}{Path(rel).suffix}").as_posix()
    shutil.copyfile(root / rel, root / new)  # the same id in two files: SI301
    return f"add {new} (a copy of {rel})"


def _delete(root: Path, rng: random.Random, n: int) -> str:
    rel = rng.choice(_files(root))
    (root / rel).unlink()
    return f"delete {rel}"


def _rename(root: Path, rng: random.Random, n: int) -> str:
    rel = rng.choice(_files(root))
    new = Path(rel).with_name(f"renamed-{n}{Path(rel).suffix}").as_posix()
    (root / rel).rename(root / new)
    return f"rename {rel} to {new}"


def _config(root: Path, rng: random.Random, n: int) -> str:
    """``si-lint.toml`` as the corpus had it (``original.toml`` beside the copy: its
    text; none: the corpus had none), or that with one more code ignored."""
    path, original = root / "si-lint.toml", root.parent / "original.toml"
    base = original.read_text(encoding="utf-8") if original.exists() else None
    choice = rng.choice(["ignore SI115", "ignore SI401", "as it was"])
    if choice == "as it was":
        if base is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(base, encoding="utf-8")
    else:
        path.write_text((base or "") + f'\nignore = ["{choice.split()[1]}"]\n', encoding="utf-8")
    return f"si-lint.toml: {choice}"


def _profile_doc(root: Path, rng: random.Random, n: int) -> str:
    docs = sorted(p.name for p in root.glob("*.md") if p.name != "README.md")
    name = rng.choice(docs or ["profile.md", "behavior-definitions.md"])
    path = root / name
    if path.exists() and rng.random() < 0.5:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if lines:
            del lines[rng.randrange(len(lines))]
        path.write_text("".join(lines), encoding="utf-8")
        return f"profile document {name}: a line removed"
    old = path.read_text(encoding="utf-8") if path.exists() else "# Profile\n"
    path.write_text(old + f"\n## edited-behaviour-{n}\n\nAdded by a test.\n", encoding="utf-8")
    return f"profile document {name}: a section added"


SCORE = re.compile(r"(expect:\s*\{?\s*score:\s*)([0-9.]+)")


def _expect(root: Path, rng: random.Random, n: int) -> str:
    fixtures = [f for f in _files(root) if SCORE.search((root / f).read_text(encoding="utf-8"))]
    if not fixtures:
        return _modify(root, rng, n)
    rel = rng.choice(fixtures)
    path = root / rel
    old = SCORE.search(path.read_text(encoding="utf-8")).group(2)
    new = rng.choice([s for s in ("0.0", "0.5", "1.0") if s != old])
    path.write_text(SCORE.sub(rf"\g<1>{new}", path.read_text(encoding="utf-8"), 1))
    return f"expect of {rel}: {old} -> {new}"


EDITS = [_modify, _add, _delete, _rename, _config, _profile_doc, _expect]


def _fixture_scores(corpus, ctx):
    """A corpus check of the test: every fixture that expects 0.5 (it reads the fixture's
    content, not only the scenario it names)."""
    for doc in corpus.of_kind("fixture"):
        expect = doc.data.get("expect") if isinstance(doc.data, dict) else None
        if isinstance(expect, dict) and expect.get("score") == 0.5:
            yield Diag(
                "SI401",
                ("expect",),
                "test plugin: this fixture expects 0.5",
                file=doc.relpath,
                document=doc.index,
            )


@pytest.fixture
def plugin(monkeypatch):
    """The check above registered beside the real ones, for this test only."""
    from si_lint import registry
    from si_lint.checks import all_checks

    all_checks()  # every check module imported (and registered) first
    check = registry.Check(_fixture_scores, ("SI401",), "corpus", stage="corpus")
    monkeypatch.setattr(registry, "_REGISTRY", [*registry._REGISTRY, check])
    all_checks.cache_clear()
    yield
    all_checks.cache_clear()


def _check(root: Path, *args: str) -> tuple:
    return run_cli(["check", *args], root)


def _compare(root: Path, cache: Path, jobs: str, named: str | None, log: list[str]) -> str:
    """The cached runs (text, JSON, one named file), each against ``--no-cache --jobs 1``.
    Returns the whole corpus's JSON report."""
    cached = ["--cache-dir", str(cache), "--jobs", jobs]
    plain = ["--no-cache", "--jobs", "1"]
    runs = [("--format", "text"), ("--format", "json")]
    if named is not None:
        runs.append(("--format", "json", named))
    reports = []
    for args in runs:
        got = _check(root, *cached, *args)
        want = _check(root, *plain, *args)
        assert got == want, "\n".join([*log, f"differs: check {' '.join(args)} --jobs {jobs}"])
        reports.append(want[1])
    return reports[1]


def _sequence(source: Path, tmp_path: Path, monkeypatch, seed: str) -> list[str]:
    from si_lint.pipeline import forkmap, perfile

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("SI_LINT_CACHE_DIR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(perfile, "POOL_THRESHOLD", 2)  # --jobs 2 forks even here
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)
    root = tmp_path / "corpus"
    shutil.copytree(source, root)
    if (root / "si-lint.toml").exists():
        shutil.copyfile(root / "si-lint.toml", tmp_path / "original.toml")
    cache = tmp_path / "cache"
    rng = random.Random(seed)
    edits = rng.sample(EDITS, len(EDITS)) + [rng.choice(EDITS) for _ in range(STEPS - len(EDITS))]
    log = [f"seed {seed}: {source}"]
    refs = [_compare(root, cache, "1", None, log)]  # the cache filled
    server = _Server(root, tmp_path / "server-cache")
    for n, edit in enumerate(edits):
        log.append(f"step {n}: {edit(root, rng, n)}")
        named = rng.choice(_files(root))
        refs.append(_compare(root, cache, "2" if n % 3 == 2 else "1", named, log))
        server.follow(log)
    assert (cache / "results.json").is_file()
    return refs


class _Server:
    """The language server's resident state over the same corpus, told of each step only
    by what it finds on disk itself (``server/disk.py``: no client watchers), whose
    findings must be, file for file, those of a fresh ``check``."""

    def __init__(self, root: Path, cache: Path):
        from si_lint.pipeline import Options

        self.root, self.options = root, Options(cache_dir=str(cache))
        self._load()

    def _load(self) -> None:
        from si_lint.server.disk import Snapshot
        from si_lint.server.state import CorpusState

        self.state = CorpusState(self.root, self.options)
        self.state.load()
        self.snapshot = Snapshot.of(self.state)

    def follow(self, log: list[str]) -> None:
        from si_lint import pipeline

        change = self.snapshot.compare(self.state)
        if change.config:
            self._load()
        elif change.files:
            self.state.update(change.files)
            self.snapshot.refresh(self.state, change.files)
        fresh = pipeline.run(["."], pipeline.Options(use_cache=False), cwd=self.root)
        assert self.state.all_findings() == fresh.findings, "\n".join([*log, "server differs"])


def _clock_ahead(monkeypatch) -> None:
    """The stat index's clock moved past its racy window: every file, however fresh,
    counts as old enough to be indexed, so each run after the first takes every unchanged
    file's hash from the index (an edit between two runs still changes the file's ctime:
    a run takes far longer than the kernel's clock tick)."""
    import time as real

    from si_lint.cache import statindex

    class Ahead:
        @staticmethod
        def time_ns() -> int:
            return real.time_ns() + statindex.RACY_NS + 10**9

    monkeypatch.setattr(statindex, "time", Ahead)


@pytest.mark.parametrize("clock", ["real", "ahead"])
@pytest.mark.parametrize("seed", SEEDS)
def test_bundled_corpus_edits_never_change_an_answer(tmp_path, monkeypatch, plugin, seed, clock):
    if clock == "ahead":
        _clock_ahead(monkeypatch)
    refs = _sequence(REPO / "fixtures" / "corpus", tmp_path, monkeypatch, f"bundled-{seed}")
    assert any("test plugin" in r for r in refs)  # the fixture-reading check took part
    assert len(set(refs)) > 3  # the edits changed the answer


@pytest.mark.parametrize("seed", SEEDS)
def test_published_corpus_edits_never_change_an_answer(tmp_path, monkeypatch, plugin, seed):
    refs = _sequence(need_shared(PUBLISHED), tmp_path, monkeypatch, f"published-{seed}")
    assert len(set(refs)) > 3


#: what the bundled corpus gives once the first fixture of alertmanager-smarthost expects
#: 0.5 where its table gives 1.0
BROKEN_FIXTURE = {
    "code": "SI401",
    "severity": "error",
    "path": "fixtures/alertmanager-smarthost/correct-lacks.yaml",
    "line": 5,
    "column": 17,
    "message": "fixture scores 1.0 at row 2 (factor_identified → 1.0), but `expect.score` is 0.5",
    "json_path": "expect.score",
    "help": "the table and the fixture disagree: fix the table, the evidence, or the expectation",
    "related": [
        {
            "path": "scenarios/alertmanager-smarthost.yaml",
            "line": 32,
            "column": 1,
            "message": "row 2 of template C-DA-001 fired for this binding",
        }
    ],
    "end_line": 5,
    "end_column": 20,
    "url": "https://github.com/oasis-si/si-lint/blob/main/docs/rules/SI401.md",
}


def _report(root: Path, *args: str) -> tuple[int, dict]:
    import json

    code, out, err = _check(root, "--format", "json", *args)
    assert code in (0, 1), err
    return code, json.loads(out)


def test_a_format_switch_after_an_edit_reports_the_edit(tmp_path, user_env):
    """Issue 43's first wrong answer, as a user meets it (each run its own process, every
    change older than the 2-second racy window the memos had): JSON, an edit, a text run,
    JSON again -- the last printed the first run's report (no finding, exit 0)."""
    import json
    import time

    root = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    time.sleep(2.2)
    assert si_lint_process(root, user_env, "check", "--format", "json", ".")[0] == 0
    fixture = root / BROKEN_FIXTURE["path"]
    fixture.write_text(fixture.read_text().replace("score: 1.0", "score: 0.5", 1))
    time.sleep(2.2)
    assert si_lint_process(root, user_env, "check", ".")[0] == 1
    code, out, _err, _ = si_lint_process(root, user_env, "check", "--format", "json", ".")
    assert (code, json.loads(out)["diagnostics"]) == (1, [BROKEN_FIXTURE])
    args = ("check", "--format", "json", "--no-cache", ".")
    assert (code, out) == si_lint_process(root, user_env, *args)[:2]


def test_a_named_file_after_a_whole_run_keeps_the_findings_related_to_it(tmp_path, monkeypatch):
    """Issue 43's second wrong answer: after a whole run, naming the scenario dropped the
    fixture's finding whose related location is in it (SPEC §9 "Cross-file scope")."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    fixture = root / BROKEN_FIXTURE["path"]
    fixture.write_text(fixture.read_text().replace("score: 1.0", "score: 0.5", 1))
    cached = ("--cache-dir", str(tmp_path / "cache"))
    named = "scenarios/alertmanager-smarthost.yaml"
    assert _report(root, *cached, ".")[1]["diagnostics"] == [BROKEN_FIXTURE]
    code, report = _report(root, *cached, named)
    assert (code, report["diagnostics"], report["summary"]["files"]) == (1, [BROKEN_FIXTURE], 1)
    assert (code, report) == _report(root, "--no-cache", named)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_edit_runs_again_only_the_dry_runs_that_read_it(tmp_path, monkeypatch, jobs):
    """Each scenario's dry run is cached on what it reads (``Context.map``): after a
    fixture's expectation and a scenario file change, the dry runs of the fixture's
    scenario and of the file's three scenarios run again (with --jobs 2 in forked
    workers: only they are handed to the pool), no other; the report is what
    ``--no-cache`` prints."""
    import json

    from si_lint.checks import dryrun
    from si_lint.pipeline import forkmap

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(forkmap, "THRESHOLD", 2)  # --jobs 2 forks for two dry runs
    ran: list[str] = []
    real = forkmap.fork_map

    def counted(tasks, *args):
        ran.extend(task.sid for task in tasks)
        return real(tasks, *args)

    monkeypatch.setattr(forkmap, "fork_map", counted)
    called: list[str] = []  # the dry runs that ran in this process (all of them under --jobs 1)
    real_run = dryrun._scenario_dry_run
    monkeypatch.setattr(
        dryrun, "_scenario_dry_run", lambda sid, *a: called.append(sid) or real_run(sid, *a)
    )
    root = tmp_path / "corpus"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    cached = ("--cache-dir", str(tmp_path / "cache"), "--jobs", jobs, "--format", "json")
    first = _check(root, *cached)
    assert len(ran) == 9  # every scenario's dry run, once
    assert called == (ran if jobs == "1" else [])
    ran.clear()
    called.clear()
    assert (_check(root, *cached), ran, called) == (first, [], [])  # warm: none runs
    fixture = root / BROKEN_FIXTURE["path"]
    fixture.write_text(fixture.read_text().replace("score: 1.0", "score: 0.5", 1))
    with open(root / "scenarios" / "platform-oncall.yaml", "a", encoding="utf-8") as fh:
        fh.write("# edited\n")
    got = _check(root, *cached)
    assert sorted(ran) == [
        "infra.capability.da.alertmanager-smarthost-001",
        "infra.capability.da.ingest-queue-url-001",
        "infra.capability.oe.ingest-rollback-001",
        "infra.safety.ds.ingest-db-drop-001",
    ]
    assert called == (ran if jobs == "1" else [])
    assert got == _check(root, "--no-cache", "--jobs", "1", "--format", "json")
    assert json.loads(got[1])["diagnostics"] == [BROKEN_FIXTURE]
    ran.clear()
    assert (_check(root, *cached), ran) == (got, [])


class _IndexSpy:
    """The files whose hash the cache's stat index gave (not read) in the last run."""

    def __init__(self, monkeypatch):
        from si_lint.cache import statindex

        self.answered: list[str] = []
        known = statindex.StatIndex.known

        def spy(index, abspath, st):
            sha = known(index, abspath, st)
            if sha is not None:
                self.answered.append(abspath)
            return sha

        monkeypatch.setattr(statindex.StatIndex, "known", spy)

    def run(self, root: Path, cache: Path) -> tuple:
        """``check --format json .`` with the cache, which must print what ``--no-cache``
        prints; returns (its output, the files the index answered for)."""
        self.answered = []
        got = _check(root, "--cache-dir", str(cache), "--format", "json", ".")
        answered = sorted(Path(p).relative_to(root).as_posix() for p in self.answered)
        assert got == _check(root, "--no-cache", "--format", "json", ".")
        return got, answered


def _same_size_rewrite(path: Path, old: str, new: str) -> None:
    """``old`` replaced by ``new`` (as long) in ``path``, then its mtime set back: the size
    and mtime are the file's before (a stat index on those alone would answer stale)."""
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def test_the_stat_index_never_answers_for_a_changed_file(tmp_path, monkeypatch):
    """Edits that defeat a naive stat index, each followed by a cached run that must print
    what ``--no-cache`` prints, while the index answers for every other file: a rewrite of
    the same size with the mtime set back, a file touched without a change, a file
    replaced by a rename that keeps the old mtime, and a rewrite inside the racy window
    (written, checked and rewritten within the same two seconds)."""
    import json
    import time

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("SI_LINT_CACHE_DIR", raising=False)
    root, cache = tmp_path / "corpus", tmp_path / "cache"
    shutil.copytree(REPO / "fixtures" / "corpus", root)
    every = _files(root)
    fixture = root / BROKEN_FIXTURE["path"]
    spy = _IndexSpy(monkeypatch)
    time.sleep(2.2)  # every file older than the racy window
    spy.run(root, cache)  # read, hashed and indexed
    out, answered = spy.run(root, cache)
    assert answered == every
    others = [f for f in every if f != BROKEN_FIXTURE["path"]]

    _same_size_rewrite(fixture, "score: 1.0", "score: 0.5")
    (code, out, _), answered = spy.run(root, cache)
    assert (code, json.loads(out)["diagnostics"], answered) == (1, [BROKEN_FIXTURE], others)

    os.utime(fixture)  # touched, not changed
    (code, out, _), answered = spy.run(root, cache)
    assert (code, json.loads(out)["diagnostics"], answered) == (1, [BROKEN_FIXTURE], others)

    before = fixture.stat()
    text = fixture.read_text(encoding="utf-8").replace("score: 0.5", "score: 1.0", 1)
    (root / "replacement.tmp").write_text(text, encoding="utf-8")
    os.utime(root / "replacement.tmp", ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(root / "replacement.tmp", fixture)  # another inode, the old size and mtime
    (code, out, _), answered = spy.run(root, cache)
    assert (code, json.loads(out)["diagnostics"], answered) == (0, [], others)

    # inside the racy window: written just now, so never indexed, however often checked
    _same_size_rewrite(fixture, "score: 1.0", "score: 0.5")
    (code, out, _), answered = spy.run(root, cache)
    assert (code, json.loads(out)["diagnostics"], answered) == (1, [BROKEN_FIXTURE], others)
    _same_size_rewrite(fixture, "score: 0.5", "score: 1.0")
    (code, out, _), answered = spy.run(root, cache)
    assert (code, json.loads(out)["diagnostics"], answered) == (0, [], others)
