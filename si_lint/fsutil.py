"""Small file-system helpers shared by the reader, the cache, --fix and --output.

- :func:`read_regular` reads a file only when it is a regular file: a FIFO, socket or
  device is never opened (it could block forever or have side effects), and the check is
  made again on the open descriptor (``O_NONBLOCK``), so a file swapped for a FIFO between
  the two cannot hang a run.
- :func:`atomic_writer` replaces a file atomically (temporary file + rename), keeping its
  permissions; it writes *through* a symbolic link to its target when asked to (``--fix``),
  keeps hard links (a file with several names is rewritten in place), refuses read-only
  files, and removes its temporary file on an exception, SIGINT or SIGTERM.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISREG(mode):
        return "a regular file"
    return "not a regular file"


def read_regular(
    path,
    limit: int,
    *,
    follow: bool = True,
    st: os.stat_result | None = None,
    opened: list | None = None,
) -> tuple[bytes | None, str | None]:
    """At most ``limit + 1`` bytes of ``path`` (so a caller sees that it is over the
    limit), or ``(None, reason)``. Only regular files are opened; with ``follow=False`` a
    symbolic link is not followed either (``O_NOFOLLOW``). ``st``: the ``os.stat`` of
    ``path`` the caller has just taken (following links), instead of a second one; the
    open descriptor is checked again either way; ``opened``: a list the descriptor's
    ``fstat`` is appended to (the stat of the very file the bytes were read from)."""
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
        if not stat.S_ISREG(fst.st_mode):  # swapped since the stat above
            return None, f"not a regular file ({kind_of(fst.st_mode)})"
        if opened is not None:
            opened.append(fst)
        chunks = []
        left = limit + 1
        # the size fstat gives in one read: one bytes object, no join copying a big file
        want = max(fst.st_size + 1, 1 << 16)
        while left > 0:
            asked = min(left, want)
            chunk = os.read(fd, asked)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            # a short read of all the bytes fstat announced is the end (one read(2) less
            # per file); a file whose size says nothing (/proc's 0) is read to its end
            if len(chunk) < asked and len(chunk) == fst.st_size:
                break
            want = 1 << 20
        return chunks[0] if len(chunks) == 1 else b"".join(chunks), None
    except OSError as exc:
        return None, exc.strerror or type(exc).__name__
    finally:
        os.close(fd)


def read_range(path, offset: int, length: int) -> bytes | None:
    """``length`` bytes of the regular file ``path`` from ``offset`` (never through a
    symbolic link), or None: not a regular file, fewer bytes there, or unreadable."""
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
    """The file to replace is read-only: it is left as it is."""


@contextmanager
def _terminate_cleanly() -> Iterator[None]:
    """Turn SIGTERM into an exception while a temporary file exists (main thread only),
    so the ``except`` below removes it; SIGINT already is one (KeyboardInterrupt)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, AttributeError):  # pragma: no cover
        yield
        return

    def handler(signum, frame):
        raise SystemExit(128 + signum)

    installed = previous in (signal.SIG_DFL, None)
    if installed:
        signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGTERM, previous)


@contextmanager
def atomic_writer(
    path, *, follow_symlinks: bool = False, mode: int | None = None
) -> Iterator[BinaryIO]:
    """A binary file handle whose contents replace ``path`` when the block ends: a
    temporary file in the same directory, then a rename (readers see the old file or the
    new one, never half). On an exception, SIGINT or SIGTERM ``path`` is untouched and the
    temporary file is removed.

    - ``follow_symlinks``: when ``path`` is a symbolic link, its target is replaced (the
      link stays a link); otherwise the link itself is replaced.
    - the new file keeps ``path``'s permission bits (``mode``, else 0644 minus the umask,
      when it is new); a read-only ``path`` is refused (:class:`ReadOnlyFile`).
    - a file with several hard links is rewritten in place (after the new contents are
      complete on disk), so every name keeps seeing it.
    """
    path = os.fspath(path)
    target = os.path.realpath(path) if follow_symlinks else os.path.abspath(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        if not (st.st_mode & 0o222) or not os.access(target, os.W_OK, follow_symlinks=False):
            raise ReadOnlyFile(errno.EACCES, "the file is read-only", path)
    directory = os.path.dirname(target)
    with _terminate_cleanly():
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix=".si-lint-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
            if st is not None and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                _copy_in_place(tmp, target)
                os.unlink(tmp)
            else:
                if st is not None and stat.S_ISREG(st.st_mode):
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
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _copy_in_place(src: str, dst: str) -> None:
    with open(src, "rb") as fin, open(dst, "r+b") as fout:
        while True:
            chunk = fin.read(1 << 20)
            if not chunk:
                break
            fout.write(chunk)
        fout.truncate()


def atomic_write(path, data: bytes, **kwargs) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path, **kwargs) as fh:
        fh.write(data)


def resolves_inside(path, top) -> bool:
    """``path`` lies in ``top`` once every symbolic link of both is followed (their real
    paths compared: a link inside ``top`` that leads out of it is outside). A path that
    cannot be resolved is outside (SPEC §9 "Trust boundaries")."""
    try:
        real, base = os.path.realpath(path), os.path.realpath(top)
    except (OSError, ValueError):
        return False
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)
