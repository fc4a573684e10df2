"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root.

**Data only.** A cache directory can arrive in a commit or a pull request, so nothing in
it is trusted: the files are JSON (stdlib :mod:`json`: it builds dicts, lists, strings,
numbers and nothing else — no pickle, no marshal, no class names), each one ends with an
HMAC-SHA256 of its body under a key kept outside the corpus (in the user's cache
directory, see :func:`_secret`), and every entry is decoded by a fixed schema
(:mod:`si_lint.codec`) when it is used. A file that is not a regular file (a FIFO, a
device, a symbolic link) is never opened; a file that is too big, truncated, signed with
another key, written by another version or of the wrong shape is a miss — rebuilt, never
a crash. Writes go only into the cache directory (temporary file + rename), which holds a
``.gitignore`` (``*``) and a ``CACHEDIR.TAG``; a directory that already exists and is not
a si-lint cache (``--cache-dir .``) is not used at all.

Files:

- ``results.json``: ``files`` — per-file results keyed on (content hash, path), valid only
  under the header (si-lint version, a fingerprint of si-lint's code and data, the profile,
  the effective configuration); ``memo`` — results of cross-file work (fixture dry runs,
  probes) keyed by the caller on the content hashes of *every* file they depend on.
- ``run.json``: the findings of the last whole run under a key made of every file's path and
  content hash, the named paths and the options (the unchanged re-check of pre-commit).

Public API: :meth:`Cache.get_run`/:meth:`Cache.put_run`, :meth:`Cache.get_file`/
:meth:`Cache.put_file` (entries are plain JSON data; pass ``decode`` to validate one),
:meth:`Cache.memoize` and :meth:`Cache.save`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__

MAGIC = "si-lint-cache/3"
FILENAME = "results.json"
RUN_FILENAME = "run.json"
#: files of earlier versions (pickle): removed when the cache is rewritten, never read
LEGACY = ("results.pickle", "run.pickle")
#: the largest cache file that is read (a bigger one is a miss)
MAX_CACHE_BYTES = 1 << 31
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by si-lint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)
_MAC_SEP = b"\n#mac "


def code_fingerprint() -> str:
    """si-lint's own code and data as installed (paths, sizes, modification times), so a
    changed checkout without a version bump never serves results of the old code."""
    from .resources import data_dir

    pkg = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for base, pattern in (
        (pkg, "*.py"),
        (data_dir("rules"), "*.yaml"),
        (data_dir("schemas"), "*.json"),
        (pkg / "profile_data", "*.yaml"),
    ):
        for path in sorted(base.rglob(pattern)):
            try:
                st = path.stat()
            except OSError:
                continue
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def profile_fingerprint(profile) -> str:
    """Hash of everything in the profile that results depend on."""
    h = hashlib.sha256()
    h.update(_canonical_text(profile.registry).encode("utf-8", "surrogatepass"))
    h.update(_canonical_text(profile.templates).encode("utf-8", "surrogatepass"))
    root = getattr(profile, "root", None)
    if root is not None:
        for path in sorted(Path(root).rglob("*.py")):
            try:
                h.update(os.fsencode(path.relative_to(root)) + b"\0" + path.read_bytes())
            except OSError:
                pass
    h.update(
        repr(sorted(getattr(profile, "implementations", {}) or {})).encode("utf-8", "surrogatepass")
    )
    return h.hexdigest()


def _canonical_text(value: Any) -> str:
    """A canonical text of plain data (integers of any size, surrogates and NaN included;
    profile data comes from the loader, so its depth is bounded)."""
    out: list[str] = []
    _canon(value, out)
    return "".join(out)


def _canon(v: Any, out: list[str]) -> None:
    if isinstance(v, dict):
        out.append("{")
        for k in sorted(v, key=str):
            out.append(repr(str(k)) + ":")
            _canon(v[k], out)
            out.append(",")
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for item in v:
            _canon(item, out)
            out.append(",")
        out.append("]")
    elif isinstance(v, int) and not isinstance(v, bool):
        out.append("i" + hex(v))  # hex: no digit limit, linear in the size
    else:
        out.append(f"{type(v).__name__}:{v!r}")


# ----------------------------------------------------------------------------- the key


def _user_cache_home() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base)
    home = os.path.expanduser("~")
    return Path(home) / ".cache" if home and home != "~" else None


_SECRET: bytes | None = None


def _secret() -> bytes:
    """The key cache files are signed with: ``si-lint/cache-key`` in the user's cache
    directory (0600, made once), outside any corpus — a cache file from someone else's
    machine (or a pull request) never verifies. When it cannot be read or made, a key for
    this process only: the cache then works within a run and is rebuilt by the next."""
    global _SECRET
    if _SECRET is not None:
        return _SECRET
    from .fsutil import read_regular

    key = None
    home = _user_cache_home()
    if home is not None:
        path = home / "si-lint" / "cache-key"
        raw, _why = read_regular(path, 1024, follow=False)
        if raw is not None and len(raw) >= 32:
            key = raw
        else:
            fresh = os.urandom(32)
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(
                    path,
                    os.O_WRONLY
                    | os.O_CREAT
                    | os.O_EXCL
                    | os.O_NOFOLLOW
                    | getattr(os, "O_CLOEXEC", 0),
                    0o600,
                )
                with os.fdopen(fd, "wb") as fh:
                    fh.write(fresh)
                key = fresh
            except OSError:
                raw, _why = read_regular(path, 1024, follow=False)  # made by a concurrent run
                if raw is not None and len(raw) >= 32:
                    key = raw
    _SECRET = key if key is not None else os.urandom(32)
    return _SECRET


def _mac(body: bytes) -> bytes:
    return hmac.new(_secret(), body, hashlib.sha256).hexdigest().encode()


def _verified_json(path: Path) -> Any:
    """The JSON body of a signed cache file, or None (missing, not a regular file, too big,
    unsigned, signed with another key, not JSON, nested too deeply, a number too long)."""
    from .fsutil import read_regular

    raw, _why = read_regular(path, MAX_CACHE_BYTES, follow=False)
    if raw is None:
        return None
    cut = raw.rfind(_MAC_SEP)
    if cut < 0:
        return None
    body, mac = raw[:cut], raw[cut + len(_MAC_SEP) :].rstrip(b"\n")
    if not hmac.compare_digest(mac, _mac(body)):
        return None
    try:
        return json.loads(body)
    except Exception:  # ValueError, RecursionError, UnicodeDecodeError: a miss
        return None


def _dumps(value: Any) -> bytes:
    # ensure_ascii: lone surrogates are written as \\udXXX escapes, never as invalid UTF-8
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class Cache:
    def __init__(self, directory: Path | None, header: tuple, *, owned: bool = False):
        """``directory`` None disables the cache. ``owned``: the directory is the default
        ``.si-lint-cache`` (it may be adopted even when it has no ``CACHEDIR.TAG`` yet)."""
        self.directory = directory
        self.header = [MAGIC, __version__, code_fingerprint()] + [
            _jsonable_header(h) for h in header
        ]
        self.note: str | None = None  # why the cache is not used (for --verbose)
        if directory is not None:
            why = _unusable(directory, owned)
            if why is not None:
                self.note = f"cache directory {directory} not used: {why}"
                self.directory = None
        self.files: dict[str, Any] = {}
        self.memo: dict[str, Any] = {}
        self._used_files: dict[str, Any] = {}
        self._used_memo: dict[str, Any] = {}
        self._memo_values: dict[str, Any] = {}
        self.dirty = False
        self._loaded = self.directory is None
        self._run: tuple | None = None

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _read(self) -> None:
        """Read the per-file table on first use (a reused run never needs it)."""
        if self._loaded:
            return
        self._loaded = True
        obj = _verified_json(self.directory / FILENAME)
        if not (
            type(obj) is dict
            and obj.get("header") == self.header
            and type(obj.get("files")) is dict
            and type(obj.get("memo")) is dict
        ):
            self.dirty = True
            return
        self.files, self.memo = obj["files"], obj["memo"]

    # whole runs ------------------------------------------------------------------------
    def get_run(self, key: str):
        """The value :meth:`put_run` stored for ``key`` — ``(findings as plain data, files,
        skipped, reported)`` — when nothing it depended on has changed, or None. The
        shape is checked here; the caller decodes the findings (``pipeline.data.finding_from_data``)."""
        if self.directory is None:
            return None
        obj = _verified_json(self.directory / RUN_FILENAME)
        if not (type(obj) is dict and obj.get("header") == self.header and obj.get("key") == key):
            return None
        value = obj.get("value")
        if not (type(value) is list and len(value) == 4):
            return None
        findings, nfiles, skipped, reported = value
        if (
            type(findings) is not list
            or type(nfiles) is not int
            or type(skipped) is not list
            or type(reported) is not list
        ):
            return None
        if not all(type(s) is str for s in skipped) or not all(type(r) is str for r in reported):
            return None
        return findings, nfiles, skipped, reported

    def put_run(self, key: str, value: tuple) -> None:
        """Store a whole run's result: plain JSON data (findings as ``pipeline.data.finding_to_data``)."""
        findings, nfiles, skipped, reported = value
        self._run = (key, [list(findings), nfiles, list(skipped), list(reported)])

    # per-file results -------------------------------------------------------------------
    def get_file(self, sha: str, relpath: str, decode: Callable[[Any], Any] | None = None):
        """The entry stored for this content and path (plain JSON data), or None. With
        ``decode``, the decoded entry; an entry ``decode`` rejects (any exception) is a miss."""
        self._read()
        k = _file_key(sha, relpath)
        hit = self.files.get(k)
        if hit is None:
            return None
        if decode is not None:
            try:
                value = decode(hit)
            except Exception:
                self.files.pop(k, None)
                self.dirty = True
                return None
            if value is None:
                return None
            self._used_files[k] = hit
            return value
        self._used_files[k] = hit
        return hit

    def put_file(self, sha: str, relpath: str, entry) -> None:
        """Store an entry: plain JSON data (an entry that is not is simply not stored)."""
        self._used_files[_file_key(sha, relpath)] = entry
        self.dirty = True

    # cross-file memo --------------------------------------------------------------------
    def memoize(self, key, compute, encode: Callable | None = None, decode: Callable | None = None):
        """``compute()``'s value, from the cache when ``key`` (a tuple of strings) was seen.
        The value is stored as ``encode(value)`` and read back with ``decode`` (default:
        a list of :class:`~si_lint.findings.Diag`)."""
        from .codec import diags_from_json, diags_to_json

        encode = encode or diags_to_json
        decode = decode or diags_from_json
        k = _dumps(list(key) if isinstance(key, (tuple, list)) else key).decode()
        if k in self._memo_values:
            return self._memo_values[k]
        self._read()
        if k in self.memo:
            try:
                value = decode(self.memo[k])
                self._used_memo[k] = self.memo[k]
                self._memo_values[k] = value
                return value
            except Exception:
                self.memo.pop(k, None)
        value = compute()
        try:
            self._used_memo[k] = encode(value)
        except Exception:
            pass  # not storable: computed again next time
        self._memo_values[k] = value
        self.dirty = True
        return value

    def save(self) -> None:
        """Write what this run used (stale entries are dropped), atomically."""
        if self.directory is None:
            return
        if self._run is not None:
            key, value = self._run
            self._write(RUN_FILENAME, [("", {"header": self.header, "key": key, "value": value})])
        if not self._loaded:
            return
        if (
            not self.dirty
            and len(self._used_files) == len(self.files)
            and len(self._used_memo) == len(self.memo)
        ):
            return
        self._write(FILENAME, None)

    def _chunks(self):
        """The per-file table as JSON text, one entry at a time (no second copy of the
        whole cache in memory; 40,000 files). An entry that is not JSON data is left out."""
        yield b'{"header":' + _dumps(self.header) + b',"files":{'
        for table, close in ((self._used_files, b'},"memo":{'), (self._used_memo, b"}}")):
            first = True
            for key, value in table.items():
                try:
                    piece = _dumps(key) + b":" + _dumps(value)
                except (TypeError, ValueError, RecursionError):
                    continue
                yield piece if first else b"," + piece
                first = False
            yield close

    def _write(self, name: str, items) -> None:
        from .fsutil import atomic_writer

        try:
            self._prepare()
            mac = hmac.new(_secret(), digestmod=hashlib.sha256)
            with atomic_writer(self.directory / name, mode=0o600) as fh:
                if items is None:
                    chunks = self._chunks()
                else:
                    chunks = (_dumps(obj) for _name, obj in items)
                for chunk in chunks:
                    fh.write(chunk)
                    mac.update(chunk)
                fh.write(_MAC_SEP + mac.hexdigest().encode() + b"\n")
        except (OSError, TypeError, ValueError, RecursionError):
            pass  # a read-only tree still lints; it just isn't cached

    def _prepare(self) -> None:
        """Make the cache directory (or check it is still one) and its two marker files."""
        from .fsutil import atomic_write, read_regular

        d = self.directory
        try:
            os.mkdir(d, 0o755)
        except FileExistsError:
            pass
        why = _unusable(d, True)
        if why is not None:
            raise OSError(why)
        for name, text in ((".gitignore", "*\n"), ("CACHEDIR.TAG", CACHEDIR_TAG)):
            raw, _ = read_regular(d / name, 4096, follow=False)
            if raw != text.encode():
                atomic_write(d / name, text.encode())  # replaces a symlink, never follows it
        for name in LEGACY:
            try:
                if os.path.lexists(d / name):
                    os.unlink(d / name)  # unlinks a symlink itself, not its target
            except OSError:
                pass


def _file_key(sha: str, relpath: str) -> str:
    return f"{sha}:{relpath}"


def _jsonable_header(value: Any) -> Any:
    return value if isinstance(value, (str, bool, int)) or value is None else str(value)


def _unusable(directory: Path, owned: bool) -> str | None:
    """Why ``directory`` cannot be the cache directory, or None. It must be a real
    directory (not a symbolic link); one that is not a si-lint cache already
    (no ``CACHEDIR.TAG``, not empty) is used only when it is the default ``.si-lint-cache``."""
    try:
        st = os.lstat(directory)
    except FileNotFoundError:
        return None  # made when first written
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if owned:
        return None
    from .fsutil import read_regular

    raw, _ = read_regular(directory / "CACHEDIR.TAG", 4096, follow=False)
    if raw is not None and raw.startswith(CACHEDIR_TAG.encode()[:43]):
        return None
    try:
        if not any(os.scandir(directory)):
            return None
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return "it is not empty and not a si-lint cache (no CACHEDIR.TAG)"


def cache_dir_for(root: Path, options) -> Path | None:
    if not options.use_cache:
        return None
    if options.cache_dir:
        return Path(options.cache_dir).resolve()
    env = os.environ.get("SI_LINT_CACHE_DIR")
    if env:
        return Path(env).resolve()
    return root / ".si-lint-cache"


def open_cache(root: Path, options, header: tuple) -> Cache:
    """The cache for a run at ``root`` (disabled under ``--no-cache``)."""
    directory = cache_dir_for(root, options)
    owned = (
        directory is not None and not options.cache_dir and not os.environ.get("SI_LINT_CACHE_DIR")
    )
    return Cache(directory, header, owned=owned)
