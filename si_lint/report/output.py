"""The one output writer: reports, baselines and ``--diff`` go through :func:`write`, and a
report streams through :func:`report_sink`. ``--output FILE`` is written atomically; an
``OSError`` there is a usage error with the reason (exit 2), never an internal error."""

from __future__ import annotations

import os
from contextlib import contextmanager

import click

from ..errors import OutputError
from ..fsutil import atomic_write, atomic_writer

#: a report is handed on in pieces of about this many characters
CHUNK = 1 << 16


def write_file(path: str, data: bytes) -> None:
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise output_error(path, exc) from None


def output_error(path: str, exc: OSError) -> OutputError:
    return OutputError(f"cannot write {path}: {exc.strerror or type(exc).__name__}")


def write(
    text: str, output: str | None = None, *, err: bool = False, color: bool | None = False
) -> None:
    """``color=None`` keeps ANSI styles on a terminal only."""
    with report_sink(output, err=err, color=color) as sink:
        sink.write(text)


def use_color(mode: str, stream) -> bool:
    """Colour for ``stream``: ``--color always|never`` wins; under ``auto``, a non-empty
    ``NO_COLOR`` turns it off, a non-empty ``FORCE_COLOR`` on, else only on a terminal."""
    if mode in ("always", "never"):
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Sink:
    """Gathers what is written into chunks of about :data:`CHUNK` characters for ``emit``."""

    def __init__(self, emit) -> None:
        self._emit = emit
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if self._parts:
            chunk = "".join(self._parts)
            self._parts.clear()
            self._size = 0
            self._emit(chunk)


@contextmanager
def report_sink(output: str | None, *, err: bool = False, color: bool | None = False):
    """A :class:`Sink` to ``output`` (written atomically: whole when the report is complete,
    else not at all; unstyled unless ``color``) or to stdout/stderr as ``click.echo``
    styles it. Each piece holds whole styles: none is cut in two."""
    if not output:
        sink = Sink(lambda s: click.echo(s, nl=False, err=err, color=color))
        yield sink
        sink.flush()
        return

    try:  # an OSError of the file, whether writing a chunk or renaming it into place
        with atomic_writer(output) as fh:
            sink = Sink(lambda s: fh.write((s if color else click.unstyle(s)).encode("utf-8")))
            yield sink
            sink.flush()
    except OSError as exc:
        raise output_error(output, exc) from None
