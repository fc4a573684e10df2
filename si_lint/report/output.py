"""The one output writer: reports, baselines and ``--diff`` go through :func:`write`.

``--output FILE`` is written atomically (temporary file + rename); an ``OSError`` (missing
directory, permission, a directory in the way) is a usage error with the reason, exit 2 --
never an internal error."""

from __future__ import annotations

from ..errors import OutputError
from .ansi import echo, unstyle


def write_file(path: str, data: bytes, what: str = "report") -> None:
    from ..fsutil import atomic_write

    try:
        atomic_write(path, data)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OutputError(f"cannot write {path}: {reason}") from None


def write(
    text: str, output: str | None = None, *, err: bool = False, color: bool | None = False
) -> None:
    """``text`` to ``output`` (a path), or to stdout (stderr with ``err``). ``color``:
    True keeps ANSI styles, False strips them, None keeps them on a terminal only."""
    if output:
        write_file(output, (text if color else unstyle(text)).encode("utf-8"))
    elif text:
        echo(text, err=err, color=color)
