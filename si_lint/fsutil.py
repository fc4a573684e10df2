"""File-system helpers of the reader, the cache, --fix and --output; ``rules/`` and
``schemas/`` are in ``si_lint/_data/`` in a wheel, beside the package in a checkout."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import BinaryIO

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISREG, "a regular file"),
)


def kind_of(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(
    path,
    limit: int,
    *,
    follow: bool = True,
    st: os.stat_result | None = None,
    opened: list | None = None,
) -> tuple[bytes | None, str | None]:
    """At most ``limit + 1`` bytes (so a caller sees it is over), or ``(None, reason)``.
    Only regular files are opened (a FIFO could block forever), checked again on the open
    descriptor (``O_NONBLOCK``: a file swapped for a FIFO meanwhile cannot hang a run).
    ``st``: the caller's fresh stat; ``opened`` gets the descriptor's ``fstat``."""
    try:
        st = os.stat(path, follow_symlinks=follow) if st is None or not follow else st
    except OSError as exc:
        return None, exc.strerror or type(exc).__name__
    except ValueError as exc:  # an embedded NUL
        return None, str(exc)
    if not stat.S_ISREG(st.st_mode):
        return None, f"not a regular file ({kind_of(st.st_mode)})"
    flags = os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | (0 if follow else _O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "not a regular file (a symbolic link)"
        return None, exc.strerror or type(exc).__name__
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):
            return None, f"not a regular file ({kind_of(fst.st_mode)})"
        if opened is not None:
            opened.append(fst)
        chunks = []
        left = limit + 1
        # the size fstat gives in one read (a file whose size says nothing, /proc's 0, is
        # read to its end); joining one chunk copies nothing
        want = max(fst.st_size + 1, 1 << 16)
        while left > 0 and (chunk := os.read(fd, min(left, want))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), None
    except OSError as exc:
        return None, exc.strerror or type(exc).__name__
    finally:
        os.close(fd)


def read_range(path, offset: int, length: int) -> bytes | None:
    """Exactly ``length`` bytes of a regular file (never through a link), or None."""
    if offset < 0 or length < 0:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | _O_NOFOLLOW)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.pread(fd, length, offset)
        return data if len(data) == length else None
    except (OSError, OverflowError):
        return None
    finally:
        os.close(fd)


class ReadOnlyFile(PermissionError):
    """The file to replace is read-only."""


@contextlib.contextmanager
def _terminate_cleanly() -> Iterator[None]:
    """Turn SIGTERM into an exception while a temporary file exists (main thread only),
    so the ``except`` below removes it; SIGINT already is one (KeyboardInterrupt)."""
    # signal, threading, tempfile and shutil (~4 ms) are imported where a file is written:
    # a warm run writes none
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, _frame):
        raise SystemExit(128 + signum)

    previous = signal.getsignal(signal.SIGTERM)
    installed = previous in (signal.SIG_DFL, None)
    if installed:
        signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def atomic_writer(
    path, *, follow_symlinks: bool = False, mode: int | None = None
) -> Iterator[BinaryIO]:
    """A handle whose contents replace ``path`` by a rename when the block ends (readers
    never see half); on an exception, SIGINT or SIGTERM ``path`` is untouched. The file
    keeps its permission bits (a new one: ``mode``, else 0666 minus the umask); a file
    with several hard links is rewritten in place, so every name keeps seeing it."""
    path = os.fspath(path)
    target = os.path.realpath(path) if follow_symlinks else os.path.abspath(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        st = None  # (a link or anything else is replaced as a new file would be)
    if st is not None and (
        not (st.st_mode & 0o222) or not os.access(target, os.W_OK, follow_symlinks=False)
    ):
        raise ReadOnlyFile(errno.EACCES, "the file is read-only", path)
    import tempfile  # (see _terminate_cleanly)

    with _terminate_cleanly():
        fd, tmp = tempfile.mkstemp(prefix=".si-lint-", suffix=".tmp", dir=os.path.dirname(target))
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
            if st is not None and st.st_nlink > 1:
                import shutil  # (see _terminate_cleanly)

                with open(tmp, "rb") as fin, open(target, "r+b") as fout:
                    shutil.copyfileobj(fin, fout)
                    fout.truncate()
                os.unlink(tmp)
            else:
                if st is not None:
                    bits = st.st_mode & 0o7777
                elif mode is not None:
                    bits = mode
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    bits = 0o666 & ~umask
                os.chmod(tmp, bits)
                os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def atomic_write(path, data: bytes, **kwargs) -> None:
    with atomic_writer(path, **kwargs) as fh:
        fh.write(data)


def inside(path: str, root: str) -> bool:
    """``path`` is ``root`` or under it (both absolute, normalised)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolves_inside(path, top) -> bool:
    """SPEC §9 "Trust boundaries": real paths compared; one that cannot be resolved is
    outside."""
    try:
        return inside(os.path.realpath(path), os.path.realpath(top))
    except (OSError, ValueError):
        return False


_PKG = os.path.dirname(os.path.realpath(__file__))


@cache
def data_dir(name: str) -> Path:
    for candidate in (os.path.join(_PKG, "_data", name), os.path.join(os.path.dirname(_PKG), name)):
        if os.path.isdir(candidate):
            return Path(candidate)
    return Path(_PKG, "_data", name)
