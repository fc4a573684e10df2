"""Signed data files: how the cache's files are read and written.

Each file is JSON (dicts, lists, strings, numbers and nothing else; :func:`dumps`)
followed by an HMAC-SHA256 of its body under a key kept outside the corpus, in the
user's cache directory (:func:`secret`). A file that is not a regular file, too big,
unsigned, signed with another key or not JSON reads as None — a miss, never a crash.
Writes are atomic (temporary file + rename)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the replay path)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: the largest cache file that is read (a bigger one is a miss)
MAX_CACHE_BYTES = 1 << 31
MAC_SEP = b"\n#mac "


def user_cache_home() -> str | None:
    """The user's cache directory (``$XDG_CACHE_HOME``, else ``~/.cache``), outside any
    corpus: where the key lives (and the replay memo, :mod:`si_lint.replay`)."""
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return base
    home = os.path.expanduser("~")
    return os.path.join(home, ".cache") if home and home != "~" else None


_SECRET: bytes | None = None


def secret() -> bytes:
    """The key cache files are signed with: ``si-lint/cache-key`` in the user's cache
    directory (0600, made once), outside any corpus — a cache file from someone else's
    machine (or a pull request) never verifies. When it cannot be read or made, a key for
    this process only: the cache then works within a run and is rebuilt by the next."""
    global _SECRET
    if _SECRET is not None:
        return _SECRET
    from ..fsutil import read_regular

    key = None
    home = user_cache_home()
    if home is not None:
        path = os.path.join(home, "si-lint", "cache-key")
        raw, _why = read_regular(path, 1024, follow=False)
        if raw is not None and len(raw) >= 32:
            key = raw
        else:
            fresh = os.urandom(32)
            try:
                os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
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


def mac(body: bytes) -> bytes:
    return hmac.new(secret(), body, hashlib.sha256).hexdigest().encode()


def verified_json(path, shape: Any = None) -> Any:
    """The JSON body of a signed cache file, or None (missing, not a regular file, too big,
    unsigned, signed with another key, not JSON, nested too deeply, a number too long).
    ``shape``: what msgspec decodes it as (see :func:`decode_json`)."""
    from ..fsutil import read_regular

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
    return decode_json(body, shape=shape)


def decode_json(body: bytes | memoryview, use_msgspec: bool = True, shape: Any = None) -> Any:
    """``json.loads(body)``, or None where it raises. msgspec decodes the same faster
    (the results table of a 4,000-file corpus: 20 MB, 0.25 -> 0.13 s); what it refuses
    and the stdlib reads (NaN and Infinity, which ``dumps`` writes for YAML's ``.nan``
    and ``.inf``; lone surrogates) goes to the stdlib, so the value is always its.
    ``shape`` (a ``TypedDict``) is the type msgspec decodes into: where it says
    ``msgspec.Raw``, msgspec checks the JSON text and leaves it undecoded (a value the
    shape does not fit goes to the stdlib, which decodes it all)."""
    if use_msgspec:
        try:
            import msgspec.json

            if shape is None:
                return msgspec.json.decode(body)
            return msgspec.json.decode(body, type=shape)
        except Exception:  # ImportError, DecodeError, ValidationError, RecursionError
            pass
    try:
        return json.loads(body if isinstance(body, (bytes, str)) else bytes(body))
    except Exception:  # ValueError, RecursionError, UnicodeDecodeError: a miss
        return None


#: ``json.dumps(value, ensure_ascii=True, separators=(",", ":"))``, made once: dumps with
#: arguments builds an encoder on every call (the memo keys of a 4,000-file run: 1,600)
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode

#: a non-finite float64 in msgpack as Python makes one: the marker, then a sign bit, an
#: all-ones exponent and a mantissa of 0 (infinity) or of the quiet bit alone (NaN:
#: ``float("nan")``, ``inf - inf``, NaN arithmetic). Any NaN bits would match strings
#: and integers too: a 40,000-file memo's ``stat`` numbers held them, so every memo went
#: to the stdlib (80 instead of 22 ms). Bytes that match send a value to the stdlib.
_NONFINITE = b"\xcb[\x7f\xff][\xf0\xf8]\x00{6}"


def dumps(value: Any) -> bytes:
    """``value`` (JSON data: what the loader and si-lint's own records hold) as compact
    JSON text. msgspec's encoder writes it 10-40x faster (the corpus key of 4,000 files:
    10.7 -> 0.3 ms) and what it writes decodes to what the stdlib's text decodes to,
    except where it cannot: a lone surrogate (it raises), an integer past 64 bits (its
    msgpack raises), and NaN and Infinity, which it writes as ``null`` -- a text with a
    ``null`` in it is checked for them in the value's msgpack (:data:`_NONFINITE`; a NaN
    with other bits, which only a bit-level cast makes and nothing si-lint reads holds,
    stays ``null``). Those go to the stdlib, which writes lone surrogates as
    ``\\udXXXX`` escapes, never as invalid UTF-8."""
    fast = _fast_encoders()
    if fast is not None:
        try:
            out = fast[0](value)
            if b"null" not in out or fast[2](fast[1](value)) is None:
                return out
        except Exception:  # TypeError, UnicodeEncodeError, OverflowError, RecursionError
            pass
    return _ENCODE(value).encode("ascii")


_FAST: list = []


def _fast_encoders():
    """(msgspec's JSON encoder, its msgpack encoder, a search for a non-finite float in
    msgpack), or None without msgspec."""
    if not _FAST:
        try:
            import re

            import msgspec

            search = re.compile(_NONFINITE).search
            _FAST.append((msgspec.json.Encoder().encode, msgspec.msgpack.Encoder().encode, search))
        except Exception:  # ImportError: the stdlib's encoder alone
            _FAST.append(None)
    return _FAST[0]


def write_signed(path, chunks: Iterable[bytes], *, mode: int = 0o600) -> None:
    """Write ``chunks`` (JSON text) and their signature to ``path`` atomically. Raises
    ``OSError`` (and whatever a chunk's producer raises) — the caller decides."""
    from ..fsutil import atomic_writer

    digest = hmac.new(secret(), digestmod=hashlib.sha256)
    with atomic_writer(path, mode=mode) as fh:
        for chunk in chunks:
            fh.write(chunk)
            digest.update(chunk)
        fh.write(MAC_SEP + digest.hexdigest().encode() + b"\n")
