"""The text report's terminal styles, and the writing of a report to a stream, without
importing click (the pre-commit path answers in ~0.1 s; importing click alone costs
~0.05 s). Both give what ``click.style``, ``click.unstyle`` and ``click.echo`` give on the
streams they handle (``tests/test_ansi.py`` compares them); :func:`write` leaves every
other stream (none, a Windows console, an ASCII-encoded stream) to ``click.echo``."""

from __future__ import annotations

import os
import re
import sys

#: the colours the reports use, as ``click.style`` codes them
_FG = {"red": 31, "yellow": 33, "blue": 34, "cyan": 36}
_RESET = "\033[0m"
#: an ANSI CSI sequence: what ``click.unstyle`` removes (the same expression)
_CSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")


def style(text: str, fg: str | None = None, bold: bool = False) -> str:
    """``click.style(text, fg=fg, bold=bold or None)``."""
    head = f"\033[{_FG[fg]}m" if fg is not None else ""
    if bold:
        head += "\033[1m"
    return head + text + _RESET


def unstyle(text: str) -> str:
    """``click.unstyle(text)``: the text without its ANSI styles."""
    return _CSI.sub("", text)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _plain(stream) -> bool:
    """A text stream ``click.echo`` writes to as it is: not Windows, with an encoding that
    is not ASCII and an error handler (click re-wraps other streams)."""
    if stream is None or sys.platform.startswith("win"):
        return False
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str) or getattr(stream, "errors", None) is None:
        return False
    import codecs

    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return False


def echo(text: str, *, err: bool = False, color: bool | None = None) -> None:
    """``click.echo(text, nl=False, err=err, color=color)``: ANSI styles are kept with
    ``color``, stripped without it, and under None kept only on a terminal."""
    stream = sys.stderr if err else sys.stdout
    if not _plain(stream):
        import click

        click.echo(text, nl=False, err=err, color=color)
        return
    keep = color if color is not None else _isatty(stream)
    if text:
        stream.write(text if keep else unstyle(text))
    stream.flush()


def use_color(mode: str, stream) -> bool:
    """Colour for ``stream``: ``--color always|never`` wins; under ``auto``, a non-empty
    ``NO_COLOR`` turns it off, a non-empty ``FORCE_COLOR`` on, else only on a terminal."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
