"""The replay memo: ``si-lint check`` run again with the same command line, in the same
directory and environment, over a corpus in which nothing changed, prints what it
printed -- answered before click, the pipeline or any check is imported (the warm
re-check of an editor or a watch loop: a ``stat`` per path the run depended on).

A run whose only output is its report on stdout (no ``--output``, ``--fix``, ``--diff``,
baseline or stdin, nothing on stderr) records, signed like every cache file (key outside
any corpus, :mod:`si_lint.cache.signed`), in the user's cache directory
(``si-lint/replay/``, the newest :data:`KEEP` records), under a name made from its key:

- its key: the command line, the working directory, the environment variables si-lint or
  its output depend on, whether stdout and stderr are terminals and stdout's encoding,
  the Python and si-lint versions and si-lint's code (:func:`~si_lint.cache.code_fingerprint`);
- the ``stat`` of every path the corpus root and configuration were found from (the
  ``si-lint.toml``, ``pyproject.toml`` and ``.git`` looked for on the way up to the root,
  or ``--config``'s file: ``Root.looked``);
- which run memo (its file and key) answers that run;
- the text it printed and its exit status.

The next run with the same key replays the text when those paths and every path of that
run memo have the ``stat`` they had (:func:`si_lint.statcache.unchanged`); anything else
is a miss, and the run goes through click and the pipeline as usual.

The parse memo (``si-lint/parse/``): pre-commit names other files on every commit, so its
command line is seldom the same twice; its options are. Every ``check`` command line that
click parsed into options followed by the named paths (``check [OPTIONS] PATH...``)
records what click made of the options (:func:`record_parse`). A later command line of the
same options followed by other paths -- none starting with ``-`` -- is the same options
and those paths (click reads a command line left to right: the options take the tokens
they took), so ``si_lint.cli.main`` runs the check command on the recorded parse with the
new paths (:func:`parsed`), without importing click. The command itself runs as always:
the run memo answers it, or the pipeline does.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the replay path)
if TYPE_CHECKING:
    from typing import Any

MAGIC = "si-lint-replay/2"
#: what the output may depend on besides the command line and the files
ENV = (
    "GITHUB_ACTIONS",
    "NO_COLOR",
    "FORCE_COLOR",
    "SI_LINT_CACHE_DIR",
    "XDG_CACHE_HOME",
    "HOME",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "COLUMNS",
)
#: options whose runs are never replayed: their output is not the report on stdout alone,
#: or they read a file that is no run memo dependency
UNREPLAYABLE = (
    "--output",
    "-o",
    "--fix",
    "--diff",
    "--unsafe-fixes",
    "--show-fixes",
    "--baseline",
    "--write-baseline",
    "--stdin-filename",
    "--no-cache",
    "--verbose",
    "-v",
    "-h",
    "--help",
    "-",
)
#: the command line of the run in progress, set by ``cli.main`` (None: not a replayable
#: process, e.g. a test calling the click group)
ARGV: list[str] | None = None


def _tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _digest(magic: str, *parts) -> str:
    """A record's key: ``parts`` with what every record depends on (its kind, si-lint's
    and Python's versions, si-lint's code, the environment of :data:`ENV`)."""
    from . import __version__
    from .cache.keys import code_fingerprint

    every = (magic, __version__, sys.version, code_fingerprint(), [os.environ.get(n) for n in ENV])
    return hashlib.sha256(repr(every + parts).encode("utf-8", "surrogatepass")).hexdigest()


def _key(argv: list[str]) -> str:
    return _digest(
        MAGIC,
        os.getcwd(),
        list(argv),
        _tty(sys.stdout),
        _tty(sys.stderr),
        getattr(sys.stdout, "encoding", None),
    )


def _replayable(argv: list[str]) -> bool:
    if not argv or argv[0] != "check":
        return False
    return not any(a in UNREPLAYABLE or a.split("=", 1)[0] in UNREPLAYABLE for a in argv[1:])


#: records kept (the newest): one per command line and directory
KEEP = 32


def _record_file(key: str, kind: str = "replay") -> str | None:
    """Where the record of ``key`` lives (``kind``: ``replay`` or ``parse``; None without a
    user cache directory)."""
    from .cache.signed import user_cache_home

    home = user_cache_home()
    return None if home is None else os.path.join(home, "si-lint", kind, key[:40] + ".json")


def _write(path: str, value: dict) -> None:
    """``value`` signed at ``path``, then only the newest records of its directory kept
    (a record that cannot be written is none: the next run goes the usual way)."""
    from .cache.signed import dumps, trusted, write_signed

    if not trusted():  # a key of this process only: no later run could read it
        return
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_signed(path, [dumps(value)])
    except (OSError, TypeError, ValueError):
        return
    _prune(os.path.dirname(path))


def _prune(directory: str, keep: int = KEEP) -> None:
    """Only the ``keep`` newest records stay (each holds a whole report)."""
    try:
        with os.scandir(directory) as it:
            entries = [(e.stat().st_mtime_ns, e.path) for e in it if e.name.endswith(".json")]
    except OSError:
        return
    for _mtime, path in sorted(entries, reverse=True)[keep:]:
        try:
            os.unlink(path)
        except OSError:
            pass


def _root_deps(looked) -> dict:
    """The ``stat`` of every path the corpus root and its configuration were found from
    (``Root.looked``, :func:`si_lint.root.find_root_info`): configuration files (a link is
    never trusted) and git markers (their presence: ``git_top`` tests ``lexists``)."""
    from .statcache import record_presence, stat_of

    deps: dict[str, Any] = {}
    for path in looked:
        if os.path.basename(path) == ".git":
            record_presence(deps, path)
        else:
            deps[path] = stat_of(path) if not os.path.islink(path) else ["link"]
    return deps


#: a parse record: the fields of ``CheckArgs`` but ``paths``, and the types of their values
PARSE_MAGIC = "si-lint-parse/1"


def _parse_file(options: list[str]) -> str | None:
    """Where the parse of ``options`` is recorded: it depends on them, on si-lint (its
    options) and click, and on the environment (``--cache-dir`` reads
    ``SI_LINT_CACHE_DIR``)."""
    return _record_file(_digest(PARSE_MAGIC, list(options)), "parse")


def _options_of(argv: list[str], paths) -> list[str] | None:
    """The options of ``argv`` when it is ``check``, options, then exactly ``paths`` (at
    least one, none starting with ``-``); else None."""
    paths = list(paths)
    n = len(paths)
    if not n or not argv or argv[0] != "check" or len(argv) <= n or argv[-n:] != paths:
        return None
    if any(type(p) is not str or p.startswith("-") for p in paths):
        return None
    return argv[:-n]


def record_parse(kwargs: dict) -> None:
    """After click parsed ``ARGV`` into ``kwargs`` (the check command's parameters):
    record the parse of its options, when ``ARGV`` is those options and the paths."""
    argv = ARGV
    options = None if argv is None else _options_of(argv, kwargs.get("paths", ()))
    if options is None:
        return
    path = _parse_file(options)
    if path is None or os.path.exists(path):
        return
    fields = {k: (list(v) if type(v) is tuple else v) for k, v in kwargs.items() if k != "paths"}
    _write(path, {"magic": PARSE_MAGIC, "options": options, "fields": fields})


def _field(value):
    """A recorded field's value as click gave it (a list was a tuple of strings), or a
    ValueError for anything click does not give."""
    if value is None or type(value) in (str, bool, int):
        return value
    if type(value) is list and all(type(v) is str for v in value):
        return tuple(value)
    raise ValueError("not a parsed value")


def parsed(argv: list[str], names) -> dict | None:
    """The check command's parameters for ``argv`` when its options were parsed before
    (``paths`` are the rest of ``argv``); else None. ``names``: the parameters (every one
    but ``paths`` must be in the record, and nothing else)."""
    if not argv or argv[0] != "check":
        return None
    try:
        return _parsed(argv, set(names) - {"paths"})
    except Exception:  # a memo is an optimisation: any trouble is a miss
        return None


def _distrust(argv: list[str]) -> None:
    """Before a record is read: no key inside the corpus root a run of ``argv`` finds, the
    paths it names or their git work trees signs one (:func:`si_lint.cache.signed.distrust`,
    as the pipeline's configure stage does). Click is not asked which token is a path: an
    option's value that names a path is taken for a named path too, and the working
    directory is named unless a path certainly is (a token no option could take)."""
    from pathlib import Path

    from .cache.signed import distrust
    from .root import find_root_info

    cwd = Path(os.getcwd())
    args = argv[1:]
    named = [Path(a.split("=", 1)[-1] if a.startswith("-") else a) for a in args]
    named = [p for p in named if str(p) and p.exists()]
    sure = [
        a
        for i, a in enumerate(args)
        if not a.startswith("-")
        and (i == 0 or not args[i - 1].startswith("-") or "=" in args[i - 1])
        and os.path.exists(a)
    ]
    starts = {p if p.is_dir() else p.parent for p in named} | (set() if sure else {cwd})
    roots = [find_root_info(cwd, [s], lazy=True).path for s in sorted(starts)]
    for k, v in zip(argv, argv[1:] + [""]):
        config = v if k == "--config" else k[9:] if k.startswith("--config=") else None
        if config and os.path.isfile(config):
            roots.append(Path(os.path.abspath(config)).parent)
    distrust([*roots, *named, *(() if sure else (cwd,))])


def _parsed(argv: list[str], names: set) -> dict | None:
    from .cache.signed import verified_json

    _distrust(argv)

    first = len(argv)  # the paths follow the last token that starts with "-"...
    while first > 1 and not argv[first - 1].startswith("-"):
        first -= 1
    # ... or that option's value
    for start in (first, first + 1):
        if start >= len(argv):
            return None
        path = _parse_file(argv[:start])
        rec = verified_json(path, fast=False) if path is not None else None
        if not (
            type(rec) is dict
            and rec.get("magic") == PARSE_MAGIC
            and rec.get("options") == argv[:start]
            and type(rec.get("fields")) is dict
        ):
            continue
        if set(rec["fields"]) != names:
            return None
        kwargs = {k: _field(v) for k, v in rec["fields"].items()}
        kwargs["paths"] = tuple(argv[start:])
        return kwargs
    return None


def answer(argv: list[str]) -> tuple[str, int] | None:
    """(the text to print, the exit status) when the last run of this command line is
    valid still; else None."""
    if not _replayable(argv):
        return None
    try:
        return _answer(argv)
    except Exception:  # a replay is an optimisation: any trouble is a miss
        return None


def _answer(argv: list[str]) -> tuple[str, int] | None:
    from .cache.signed import verified_json
    from .statcache import unchanged

    _distrust(argv)
    key = _key(argv)
    path = _record_file(key)
    rec = verified_json(path, fast=False) if path is not None else None
    if not (
        type(rec) is dict
        and rec.get("magic") == MAGIC
        and rec.get("key") == key
        and type(rec.get("written_ns")) is int
        and type(rec.get("deps")) is dict
        and type(rec.get("memo_file")) is str
        and type(rec.get("memo_key")) is str
        and type(rec.get("text")) is str
        and type(rec.get("code")) is int
    ):
        return None
    if not unchanged(rec["deps"], rec["written_ns"]):
        return None
    memo = verified_json(rec["memo_file"], fast=False, keep=True)  # recall reads it too
    if not (
        type(memo) is dict
        and memo.get("key") == rec["memo_key"]
        and type(memo.get("deps")) is dict
        and type(memo.get("written_ns")) is int
        and unchanged(memo["deps"], memo["written_ns"])
    ):
        return None
    return rec["text"], rec["code"]


def record(text: str, code: int, memo_file: str, memo_key: str, looked) -> None:
    """After a run of ``ARGV`` that printed ``text`` alone and exits with ``code``,
    answered by (or having written) the run memo ``memo_key`` in ``memo_file``, whose root
    was found by looking at the paths ``looked``."""
    argv = ARGV
    if argv is None or not _replayable(argv):
        return
    key = _key(argv)
    path = _record_file(key)
    if path is None:
        return
    value = {
        "magic": MAGIC,
        "key": key,
        "written_ns": time.time_ns(),
        "deps": _root_deps(looked),
        "memo_file": memo_file,
        "memo_key": memo_key,
        "text": text,
        "code": code,
    }
    _write(path, value)
