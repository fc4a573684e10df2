"""The run memo (``memo.json`` in the cache directory): an unchanged re-check costs a
``stat`` per file and nothing else (issue 15's warm and pre-commit cases).

A run that goes through every stage records what it depended on besides its options: the
``stat`` of every file it read, of every directory the selection walked (a directory's
``mtime`` changes when an entry is added, removed or renamed), and of every path it looked
for and did not find or found (the ``.gitignore`` files and ``.git`` markers above the
root, the named paths, the profile documents next to the files). The memo holds those
``stat`` results next to the run's findings, under a key of everything else the findings
depend on (si-lint's version and code, the configuration file's digest, the profile named,
the options, the working directory, the named paths); the memo keeps the configuration's
table too, so an answer parses no TOML.

The next run with the same key compares the ``stat`` of every recorded path (size,
``mtime_ns``, ``ctime_ns``, inode, device; "absent" for a path that was not there) and,
when all are unchanged, answers from the memo: no file is read, no selection walked, no
profile loaded. A path modified within :data:`si_lint.statcache.RACY_NS` of the memo's
writing could change again unnoticed (timestamp granularity), so such a memo is not
trusted (git's "racily clean" rule). Anything else in the file is a miss: the memo is
signed like every cache file, decoded by a fixed shape, and never trusted blindly.

A run over paths under the working directory (one staged file: the pre-commit case) is
answered from the memo of the whole working directory when it is valid, filtered as the
locate stage filters (:meth:`Selection.reports`).
"""

from __future__ import annotations

import hashlib
import os
import time

from ..statcache import taken, unchanged
from .context import RunResult, State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
if TYPE_CHECKING:
    from typing import Any

MAGIC = "si-lint-memo/1"
FILENAME = "memo.json"
#: the walk of the memo's run (read only when the memo does not answer); the memo names it
#: by its ``id``, so a run that reuses the walk does not write it again
WALK_FILENAME = "walk.json"


def _cache_dir(state: State) -> str | None:
    """The cache directory the run will use, when a memo may answer it (the checks run,
    the findings alone are reported, no buffer stands in for a file)."""
    from ..cache import cache_dir_for

    options = state.options
    if not (options.use_cache and options.reuse_run) or state.overrides or not state.with_checks:
        return None
    directory = cache_dir_for(state.root_info.path, options)
    return None if directory is None else str(directory)


def _key(state: State, whole: bool) -> str:
    """Everything the findings depend on that is not a file: si-lint's version and code,
    the configuration file's bytes (its digest), the profile named, the options, the
    directories."""
    from .. import __version__
    from ..cache import MAGIC as CACHE_MAGIC
    from ..cache import code_fingerprint

    options = state.options
    info = state.root_info
    paths = "whole" if whole else sorted(os.path.abspath(state.cwd / p) for p in state.paths)
    parts = (
        MAGIC,
        CACHE_MAGIC,
        __version__,
        code_fingerprint(),
        str(info.path),
        str(info.source),
        info.how,
        info.digest,  # the configuration file's bytes: its table, parsed or not
        options.profile,
        options.trust_implementations,
        options.select,
        options.ignore,
        options.config_file,
        str(state.cwd),
        paths,
    )
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _is_whole(state: State) -> bool:
    cwd = str(state.cwd)
    return all(os.path.abspath(os.path.join(cwd, p)) == cwd for p in state.paths)


def _load(directory: str) -> dict | None:
    from pathlib import Path

    from ..cache.signed import verified_json

    # the stdlib decodes a file this size sooner than msgspec is imported
    obj = verified_json(Path(directory) / FILENAME, fast=False, keep=True)  # as replay did
    if not (
        type(obj) is dict
        and obj.get("magic") == MAGIC
        and type(obj.get("written_ns")) is int
        and type(obj.get("key")) is str
        and type(obj.get("deps")) is dict
        and type(obj.get("result")) is list
        and len(obj["result"]) == 5
    ):
        return None
    return obj


def _plain(value) -> bool:
    """``value`` comes back from JSON as it went in (TOML's dates and times do not)."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if kind is list:
        return all(_plain(v) for v in value)
    if kind is float:
        return value == value and value not in (float("inf"), float("-inf"))
    return kind in (str, int, bool)


def _plain_table(table) -> dict | None:
    """The configuration table, for the memo (None: it has values JSON does not keep)."""
    return table if type(table) is dict and _plain(table) else None


def _table_of(memo: dict) -> dict | None:
    """The table the memo's run parsed (None: parse it again)."""
    table = memo.get("table")
    return table if type(table) is dict else None


def _unchanged(memo: dict, paths=None, seen: dict | None = None) -> bool:
    """Every recorded path (or those of ``paths``) has the ``stat`` it had (``seen``:
    ``stat`` results taken already this run)."""
    return unchanged(memo["deps"], memo["written_ns"], paths, seen)


def _walk_of(memo: dict, directory: str, seen: dict) -> dict | None:
    """The memo's record of the walk (``walk.json``, written with it), when the walk would
    find the same files today: no path it depended on (directories, ``.gitignore`` files,
    markers, named paths) has a new ``stat``. Only a file's content changed: the select
    stage reuses the walk. The walk is the memo's when it has the id the memo names and
    was written under the memo's key. ``seen``: the ``stat`` results the check of the
    memo took (its directories are not stat'ed again)."""
    from ..cache.signed import verified_json

    walk = verified_json(os.path.join(directory, WALK_FILENAME))
    if not (
        type(walk) is dict
        and type(walk.get("id")) is str
        and walk["id"] == memo.get("walk")
        and walk.get("memo") == memo["key"]
        and type(walk.get("deps")) is list
        and type(walk.get("files")) is list
        and type(walk.get("problems")) is list
        and type(walk.get("notes")) is list
        and all(type(f) is str for f in walk["files"])
        and all(type(n) is str for n in walk["notes"])
        and all(
            type(p) is list and len(p) == 2 and all(type(x) is str for x in p)
            for p in walk["problems"]
        )
    ):
        return None
    if not _unchanged(memo, walk["deps"], seen):
        return None
    return dict(walk, stats=memo["deps"])


def _decode(config, result: list, reports=None) -> RunResult | None:
    """The memo's result; with ``reports`` (a test of a relative path), reduced to the
    findings of the paths it passes (only those are decoded)."""
    from .data import finding_from_data

    findings, nfiles, skipped, reported, notes = result
    if not (
        type(findings) is list
        and type(nfiles) is int
        and all(
            type(x) is list and all(type(s) is str for s in x) for x in (skipped, reported, notes)
        )
    ):
        return None
    if reports is not None:
        findings = [f for f in findings if type(f) is not dict or reports(f.get("path"))]
    try:
        decoded = [finding_from_data(f) for f in findings]
    except (TypeError, ValueError, KeyError):
        return None
    return RunResult(decoded, nfiles, None, config, skipped, reported, notes)


def _subset(state: State, config) -> tuple | None:
    """How the whole working directory's result reduces to the named paths: (a test of a
    file's relative path, the named files, whether a directory was named); None when a
    named path needs what only a full selection knows (excluded files, links, paths
    outside)."""
    from pathlib import Path

    from ..discovery import expand_named, inside, named_file_check, relpath_of

    cwd = str(state.cwd)
    files, dirs = expand_named(state.paths, state.cwd)
    if any(named_file_check(Path(f), config) is not None for f in files):
        return None
    if not all(inside(p, cwd) for p in (*files, *dirs)):
        return None

    # every path is under the working directory: Selection.reports on relative paths
    rel_files = {relpath_of(f, cwd) for f in files}
    rel_dirs = ["" if d == cwd else relpath_of(d, cwd) + "/" for d in dirs]
    if not rel_dirs:  # named files only (pre-commit's): no prefix to test
        return rel_files.__contains__, rel_files, False

    def reports(rel) -> bool:
        return rel in rel_files or any(rel.startswith(d) or rel + "/" == d for d in rel_dirs)

    return reports, rel_files, True


def _reduced(result: RunResult, reports, rel_files: set, dirs: bool) -> RunResult:
    """``result`` (its findings reduced already) with the files, and skipped files, of
    the named paths."""
    from .read import keep_skipped

    named = ({r for r in result.reported if reports(r)} | rel_files) if dirs else rel_files
    reported = sorted(named)
    skipped = keep_skipped(result.skipped, set(reported))
    return RunResult(result.findings, len(reported), None, result.config, skipped, reported, [])


def recall(state: State) -> None:
    """Stage 1b: answer the run from the memo when nothing it depended on has changed."""
    if state.root_info is None:
        return  # a configuration given by the caller (review, the language server)
    directory = _cache_dir(state)
    state.memo_dir = directory
    if directory is None:
        return
    whole = _is_whole(state)
    state.memo_key = _key(state, whole)
    memo = _load(directory)
    if memo is None:
        return
    subset = False
    if memo["key"] != state.memo_key:
        if whole or state.options.verbose or memo["key"] != _key(state, True):
            return
        subset = True
    if not _unchanged(memo):
        # the stats that check took: the walk's directories and the read stage's files
        # are not stat'ed again
        state.stats_taken = taken(memo["deps"])
        if not subset:  # the same run: when only files changed, its walk still holds,
            state.walk_memo = _walk_of(memo, directory, state.stats_taken)
            # and the configuration table it validated (the key holds the file's digest)
            state.memo_table = _table_of(memo)
        return
    from ..config import ConfigError, load_config

    try:  # the table the memo's run validated (the same bytes): not parsed nor validated again
        info = state.root_info.parsed(_table_of(memo))
        config = load_config(state.cwd, info=info, validated=True)
        config = config.with_cli(state.options.select, state.options.ignore)
    except ConfigError:
        return
    reduction = _subset(state, config) if subset else None
    if subset and reduction is None:
        return
    result = _decode(config, memo["result"], reduction and reduction[0])
    if result is not None and reduction is not None:
        result = _reduced(result, *reduction)
    if result is not None:
        result.memo, result.looked = (os.path.join(directory, FILENAME), memo["key"]), info.looked
        state.root_info = info
        state.config = config
        state.result = result
        state.recalled = True


def remember(state: State) -> None:
    """After a full run: write the memo (its findings, its key, what it depended on)."""
    directory = state.memo_dir
    result = state.result
    cache = state.cache
    if directory is None or result is None or state.memo_key is None or state.recalled:
        return
    if state.corpus is None and not _is_whole(state):
        return  # a subset answered from the last whole run: keep that run's memo
    if cache is None or not cache.enabled or str(cache.directory) != directory:
        return  # the cache directory is not usable (a note says why under --verbose)
    from .data import finding_to_data

    value: dict[str, Any] = {
        "magic": MAGIC,
        "written_ns": time.time_ns(),
        "key": state.memo_key,
        "table": _plain_table(state.root_info.table if state.root_info else None),
        "deps": state.deps,
        "result": [
            [finding_to_data(f) for f in result.findings],
            result.files,
            list(result.skipped),
            list(result.reported),
            list(result.notes),
        ],
    }
    walk = state.walk_record
    if walk is not None and walk is state.walk_memo:
        value["walk"] = walk["id"]  # the walk reused: walk.json holds it already
    elif walk is not None:
        value["walk"] = os.urandom(8).hex()
        cache.write(WALK_FILENAME, dict(walk, id=value["walk"], memo=state.memo_key))
    cache.write(FILENAME, value)
    result.memo = (os.path.join(directory, FILENAME), state.memo_key)
    result.looked = state.root_info.looked
