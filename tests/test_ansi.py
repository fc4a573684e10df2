"""si_lint.report.ansi gives what click gives: the text report's styles (click.style),
their removal (click.unstyle) and the writing to stdout/stderr (click.echo), on every
stream it writes to itself; other streams go to click.echo."""

from __future__ import annotations

import io
import sys

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from si_lint.report import ansi

TEXT = st.text(st.sampled_from("ab \t\n\x1b[;?0123456789mK/é\u202e"), max_size=40)


@pytest.mark.parametrize("fg", [None, *ansi._FG])
@pytest.mark.parametrize("bold", [False, True])
@settings(max_examples=25, derandomize=True, deadline=None)
@given(text=TEXT)
def test_style_is_clicks(fg, bold, text):
    assert ansi.style(text, fg=fg, bold=bold) == click.style(text, fg=fg, bold=bold or None)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(text=TEXT)
def test_unstyle_is_clicks(text):
    styled = ansi.style(text, fg="red", bold=True) + text
    assert ansi.unstyle(styled) == click.unstyle(styled)
    assert ansi.unstyle(text) == click.unstyle(text)


class _Stream(io.TextIOWrapper):
    def __init__(self, tty: bool, encoding: str = "utf-8"):
        super().__init__(io.BytesIO(), encoding=encoding, errors="strict")
        self.tty = tty

    def isatty(self):
        return self.tty

    def written(self) -> bytes:
        self.flush()
        return self.buffer.getvalue()


@pytest.mark.parametrize("err", [False, True])
@pytest.mark.parametrize("tty", [False, True])
@pytest.mark.parametrize("color", [None, False, True])
def test_echo_writes_what_click_writes(monkeypatch, err, tty, color):
    text = ansi.style("x.yaml:1:2:", bold=True) + " SI001 é\n"
    name = "stderr" if err else "stdout"
    ours, theirs = _Stream(tty), _Stream(tty)
    monkeypatch.setattr(sys, name, ours)
    ansi.echo(text, err=err, color=color)
    monkeypatch.setattr(sys, name, theirs)
    click.echo(text, nl=False, err=err, color=color)
    assert ours.written() == theirs.written()


def test_an_ascii_stream_is_left_to_click(monkeypatch):
    """click writes UTF-8 (errors replaced) where the stream says ASCII."""
    ours, theirs = _Stream(False, encoding="ascii"), _Stream(False, encoding="ascii")
    assert not ansi._plain(ours)
    monkeypatch.setattr(sys, "stdout", ours)
    ansi.echo("é\n")
    monkeypatch.setattr(sys, "stdout", theirs)
    click.echo("é\n", nl=False)
    assert ours.written() == theirs.written() == b"\xc3\xa9\n"
