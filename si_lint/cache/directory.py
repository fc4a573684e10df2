"""The cache directory: whether a directory may be one, and making it one.

It must be a real directory (never a symbolic link), and one that already exists and is
not a si-lint cache (``--cache-dir .``) is not used at all; a cache directory holds a
``.gitignore`` (``*``) and a ``CACHEDIR.TAG``."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from ..fsutil import atomic_write, read_regular

#: files of earlier versions (pickle): removed when the cache is rewritten, never read
LEGACY = ("results.pickle", "run.pickle")
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by si-lint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


class CacheDirUnusable(OSError):
    """A directory that cannot be the cache directory (the reason is the message)."""


def check_usable(directory: Path, owned: bool) -> None:
    """Raise :class:`CacheDirUnusable` when ``directory`` cannot be the cache directory. It
    must be a real directory (not a symbolic link); one that is not a si-lint cache already
    (no ``CACHEDIR.TAG``, not empty) is used only when it is the default ``.si-lint-cache``
    (``owned``). A directory that does not exist yet is made when first written."""
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
    """Make the cache directory (or check it is still one) and its two marker files;
    remove the files of earlier versions. Raises ``OSError``."""
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
