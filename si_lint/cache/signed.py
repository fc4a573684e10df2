"""The cache directory and its signed files: JSON followed by an HMAC-SHA256 of the body
under the key :func:`secret`. A file that is not a regular file, too big, unsigned,
signed with another key or not JSON reads as None: a miss, never a crash. A cache
directory is never a symbolic link, and one that is not a si-lint cache already
(``--cache-dir .``) is not used at all."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from ..fsutil import atomic_write, atomic_writer, inside, read_regular
from ..root import git_top

#: the largest cache file that is read (a bigger one is a miss)
MAX_CACHE_BYTES = 1 << 31
MAC_SEP = b"\n#mac "


_SECRET: bytes | None = None
#: the real path of :data:`_SECRET`'s file (None: a key of this process only, or none yet)
_KEY_FILE: str | None = None
#: real paths no key is trusted inside (:func:`distrust`)
_UNTRUSTED: set[str] = set()
_O_KEY = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_O_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def secret() -> bytes:
    """``si-lint/cache-key`` in the user's cache directory (0600): a cache file from another
    machine (or a pull request) never verifies. Trusted only as a regular file of this
    user's no one else may read or write, in a directory no one else may write, inside no
    path :func:`distrust` was given (SPEC §9 "Trust boundaries"): a committed key signs
    nothing si-lint reads. An untrusted one is replaced; where none can be kept the key is
    this process's only (the cache works within a run)."""
    global _SECRET, _KEY_FILE
    if _SECRET is not None:
        return _SECRET
    home = os.environ.get("XDG_CACHE_HOME")
    if not (home and os.path.isabs(home)):
        home = os.path.expanduser("~")
        home = os.path.join(home, ".cache") if home and home != "~" else None
    kept = _user_key(os.path.join(home, "si-lint")) if home is not None else None
    _SECRET, _KEY_FILE = kept if kept is not None else (os.urandom(32), None)
    return _SECRET


def distrust(paths: Iterable[str | os.PathLike]) -> None:
    """No key inside any of ``paths`` (a directory itself, and the git work tree holding
    each) is trusted from now on; a key in use that lies in one is dropped. A run calls it
    before it reads any signed file."""
    global _SECRET, _KEY_FILE
    found: set[str] = set()
    dirs: set[str] = set()  # (a file: its directory; pre-commit names many in a few)
    for p in paths:
        if os.path.isdir(p):
            found.add(os.path.realpath(p))
            dirs.add(os.path.realpath(p))
        else:
            dirs.add(os.path.dirname(os.path.abspath(p)))
    found |= {str(top) for d in dirs if (top := git_top(Path(d))) is not None}
    added = [d for d in found if d not in _UNTRUSTED]
    _UNTRUSTED.update(added)
    if _KEY_FILE is not None and any(inside(_KEY_FILE, d) for d in added):
        _SECRET = _KEY_FILE = None


def _user_key(directory: str) -> tuple[bytes, str] | None:
    """(the key, its file's real path) in ``directory``, made there when it has none it
    can trust; None where no key may be kept (nothing is written then)."""
    if any(inside(os.path.realpath(directory), d) for d in _UNTRUSTED):
        return None  # never a key made inside a corpus
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        real = os.path.realpath(directory)
        st = os.stat(real)
    except (OSError, ValueError):
        return None
    euid = os.geteuid() if hasattr(os, "geteuid") else st.st_uid
    if any(inside(real, d) for d in _UNTRUSTED) or st.st_uid != euid or st.st_mode & 0o022:
        return None
    path = os.path.join(real, "cache-key")
    key = _read_key(path, euid)
    if key is None:
        key = _new_key(path, euid)
    return None if key is None else (key, path)


def _read_key(path: str, euid: int) -> bytes | None:
    """The key in ``path`` when it is a regular file (not a link) of ``euid`` that no one
    else may read or write, of 32 to 1,024 bytes; else None."""
    try:
        fd = os.open(path, _O_KEY | _O_CLOEXEC)
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != euid or st.st_mode & 0o066:
            return None
        raw = fh.read(1025)
    return raw if 32 <= len(raw) <= 1024 else None


def _new_key(path: str, euid: int) -> bytes | None:
    """A fresh key in ``path`` (0600), replacing one not trusted; a key another run made
    meanwhile is taken instead."""
    fresh = os.urandom(32)
    tmp = f"{path}.{os.getpid()}.{fresh[:4].hex()}.tmp"
    try:
        fd = os.open(tmp, _O_NEW | _O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(fresh)
        try:
            os.link(tmp, path)  # there was none: the key whole, or the other run's
        except FileExistsError:
            theirs = _read_key(path, euid)
            if theirs is not None:
                return theirs
            os.replace(tmp, path)
        except OSError:  # a file system without hard links
            os.replace(tmp, path)
        return fresh
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def mac(body: bytes | memoryview) -> bytes:
    return hmac.new(secret(), body, hashlib.sha256).hexdigest().encode()


def verified_json(path, header: list, shape: Any = None) -> Any:
    """The JSON object of a signed cache file written under ``header``, or None (see the
    module docstring; also nested too deeply, a number too long)."""
    raw, _why = read_regular(path, MAX_CACHE_BYTES, follow=False)
    if raw is None:
        return None
    cut = raw.rfind(MAC_SEP)
    if cut < 0:
        return None
    # a view, not a copy: the results table of a large corpus is hundreds of MB
    body, signature = memoryview(raw)[:cut], raw[cut + len(MAC_SEP) :].rstrip(b"\n")
    if not hmac.compare_digest(signature, mac(body)):
        return None
    obj = decode_json(body, shape=shape)
    return obj if type(obj) is dict and obj.get("header") == header else None


def decode_json(body: bytes | memoryview, shape: Any = None) -> Any:
    """``json.loads(body)``, or None where it raises. What msgspec refuses and the stdlib
    reads (NaN, Infinity, lone surrogates) goes to the stdlib, so the value is always its.
    ``shape``: a ``TypedDict`` msgspec decodes into (``msgspec.Raw``: left undecoded)."""
    try:
        return msgspec.json.decode(body, type=Any if shape is None else shape)
    except Exception:  # DecodeError, ValidationError, RecursionError
        pass
    try:
        return json.loads(body if isinstance(body, (bytes, str)) else bytes(body))
    except Exception:  # ValueError, RecursionError, UnicodeDecodeError: a miss
        return None


#: made once: ``json.dumps`` with arguments builds an encoder on every call
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode

#: a non-finite float64 in msgpack as Python makes one: the marker, then a sign bit, an
#: all-ones exponent and a mantissa of 0 (infinity) or of the quiet bit alone (NaN). Any
#: NaN bits would match strings and integers too, sending large tables to the stdlib.
_NONFINITE = re.compile(b"\xcb[\x7f\xff][\xf0\xf8]\x00{6}").search

_JSON = msgspec.json.Encoder().encode
_MSGPACK = msgspec.msgpack.Encoder().encode


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON text, decoding to what the stdlib's text decodes to. msgspec
    cannot write a lone surrogate or an integer past 64 bits (it raises) and writes NaN
    and Infinity as ``null`` (a text with ``null`` is checked: :data:`_NONFINITE`): those
    go to the stdlib, which escapes lone surrogates, never writing invalid UTF-8."""
    try:
        out = _JSON(value)
        if b"null" not in out or _NONFINITE(_MSGPACK(value)) is None:
            return out
    except Exception:  # TypeError, UnicodeEncodeError, OverflowError, RecursionError
        pass
    return _ENCODE(value).encode("ascii")


def write_signed(directory: Path, name: str, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` (JSON text) and their signature atomically (0600) to ``name`` in the
    cache ``directory``; on an error nothing is written (a read-only tree still lints)."""
    digest = hmac.new(secret(), digestmod=hashlib.sha256)
    with contextlib.suppress(OSError, TypeError, ValueError, RecursionError):
        prepare(directory)
        with atomic_writer(directory / name, mode=0o600) as fh:
            for chunk in chunks:
                fh.write(chunk)
                digest.update(chunk)
            fh.write(MAC_SEP + digest.hexdigest().encode() + b"\n")


#: files of earlier versions (pickle): removed when the cache is rewritten, never read
LEGACY = ("results.pickle", "run.pickle")
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by si-lint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


class CacheDirUnusable(OSError):
    """The reason is the message."""


def check_usable(directory: Path, owned: bool) -> None:
    """Raise :class:`CacheDirUnusable` when ``directory`` cannot be the cache directory; a
    non-empty one with no ``CACHEDIR.TAG`` is used only when it is the default
    ``.si-lint-cache`` (``owned``). A missing one is made when first written."""
    try:
        st = os.lstat(directory)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CacheDirUnusable(exc.strerror or type(exc).__name__) from None
    if stat.S_ISLNK(st.st_mode):
        raise CacheDirUnusable("it is a symbolic link")
    if not stat.S_ISDIR(st.st_mode):
        raise CacheDirUnusable("it is not a directory")
    if owned:
        return
    raw, _ = read_regular(directory / "CACHEDIR.TAG", 4096, follow=False)
    if raw is not None and raw.startswith(CACHEDIR_TAG.encode()[:43]):
        return
    try:
        if not any(os.scandir(directory)):
            return
    except OSError as exc:
        raise CacheDirUnusable(exc.strerror or type(exc).__name__) from None
    raise CacheDirUnusable("it is not empty and not a si-lint cache (no CACHEDIR.TAG)")


def prepare(directory: Path) -> None:
    """Make the cache directory (or check it is still one) and its marker files; remove
    those of earlier versions. Raises ``OSError``."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory, 0o755)
    check_usable(directory, True)
    for name, text in ((".gitignore", "*\n"), ("CACHEDIR.TAG", CACHEDIR_TAG)):
        raw, _ = read_regular(directory / name, 4096, follow=False)
        if raw != text.encode():
            atomic_write(directory / name, text.encode())  # replaces a symlink, never follows it
    for name in LEGACY:
        with contextlib.suppress(OSError):
            if os.path.lexists(directory / name):
                os.unlink(directory / name)  # unlinks a symlink itself, not its target
