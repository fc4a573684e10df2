"""Progress on stderr: only on a terminal, only after a second, never for JSON/SARIF."""

from __future__ import annotations

import io

from si_lint.progress import Progress


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _run(stream, *, seconds_per_file: float, allowed: bool = True, files: int = 20) -> Progress:
    clock = Clock()
    shown = False
    with Progress(files, "checking", allowed=allowed, stream=stream, clock=clock) as p:
        for _ in range(files):
            clock.t += seconds_per_file
            p.advance()
            shown = shown or p.shown
    p.was_shown = shown
    return p


def test_long_run_on_a_terminal_shows_a_bar_that_goes_away():
    stream = Tty()
    p = _run(stream, seconds_per_file=0.2)
    assert p.was_shown
    out = stream.getvalue()
    assert "checking" in out and "/20" in out
    assert not p.shown  # stopped (transient) at the end of the stage


def test_short_run_shows_nothing():
    stream = Tty()
    p = _run(stream, seconds_per_file=0.01)  # 0.2 s in all
    assert (p.was_shown, stream.getvalue()) == (False, "")


def test_not_a_terminal_shows_nothing():
    stream = io.StringIO()
    p = _run(stream, seconds_per_file=0.5)
    assert (p.was_shown, stream.getvalue()) == (False, "")


def test_json_and_sarif_never_show_progress():
    stream = Tty()
    p = _run(stream, seconds_per_file=0.5, allowed=False)
    assert (p.was_shown, stream.getvalue()) == (False, "")


def test_check_json_keeps_stderr_clean(tmp_path):
    from conftest import run_cli

    (tmp_path / "a.yaml").write_text("title: x\n", encoding="utf-8")
    code, out, err = run_cli(["check", "--format", "json", "--no-cache"], tmp_path)
    assert (code, err) == (0, "")
    assert out.startswith("{")


def test_a_bar_rich_cannot_show_is_left_out_and_the_run_goes_on(monkeypatch):
    """rich failing to start the bar (here: its console) leaves the run without a bar:
    no exception, nothing written, every file still counted."""
    import rich.console

    def broken(*args, **kwargs):
        raise OSError("no console")

    monkeypatch.setattr(rich.console, "Console", broken)
    stream = Tty()
    p = _run(stream, seconds_per_file=0.5)
    assert (p.was_shown, p.done, stream.getvalue()) == (False, 20, "")
