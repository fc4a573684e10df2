"""The one output writer: reports, baselines and ``--diff`` go through :func:`write`, and a
report streams through :func:`report_sink`.

``--output FILE`` is written atomically (temporary file + rename); an ``OSError`` (missing
directory, permission, a directory in the way) is a usage error with the reason, exit 2 --
never an internal error."""

from __future__ import annotations

from contextlib import contextmanager

from ..errors import OutputError
from .ansi import echo, unstyle

#: a report is handed on in pieces of about this many characters
CHUNK = 1 << 16


def write_file(path: str, data: bytes, what: str = "report") -> None:
    from ..fsutil import atomic_write

    try:
        atomic_write(path, data)
    except OSError as exc:
        raise output_error(path, exc) from None


def output_error(path: str, exc: OSError) -> OutputError:
    reason = exc.strerror or type(exc).__name__
    return OutputError(f"cannot write {path}: {reason}")


def write(
    text: str, output: str | None = None, *, err: bool = False, color: bool | None = False
) -> None:
    """``text`` to ``output`` (a path), or to stdout (stderr with ``err``). ``color``:
    True keeps ANSI styles, False strips them, None keeps them on a terminal only."""
    if output:
        write_file(output, (text if color else unstyle(text)).encode("utf-8"))
    elif text:
        echo(text, err=err, color=color)


class Sink:
    """Where a report streams to (``write(str)``): the pieces are gathered into chunks of
    about :data:`CHUNK` characters, each handed to ``emit`` — without ANSI styles unless
    ``color`` (each piece holds whole styles, so no style is cut in two)."""

    def __init__(self, emit, *, color: bool = False) -> None:
        self._emit = emit
        self._color = color
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if not self._parts:
            return
        chunk = "".join(self._parts)
        self._parts.clear()
        self._size = 0
        if not self._color:
            chunk = unstyle(chunk)
        self._emit(chunk)


@contextmanager
def report_sink(output: str | None, *, err: bool = False, color: bool = False):
    """A :class:`Sink` to ``output`` (a path, written atomically: the file appears whole
    when the report is complete, and not at all when it fails) or to stdout (stderr with
    ``err``), flushed when the block ends."""
    if not output:
        sink = Sink(lambda s: echo(s, err=err, color=color), color=color)
        yield sink
        sink.flush()
        return
    from ..fsutil import atomic_writer

    def emit(text: str) -> None:
        try:
            fh.write(text.encode("utf-8"))
        except OSError as exc:
            raise output_error(output, exc) from None

    try:
        with atomic_writer(output) as fh:
            sink = Sink(emit, color=color)
            yield sink
            sink.flush()
    except OSError as exc:
        raise output_error(output, exc) from None
