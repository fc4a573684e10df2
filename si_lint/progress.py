"""Progress on stderr for long runs (issue 5): a rich progress bar, shown only when stderr
is a terminal and the stage has already run for more than a second; never when the report
is JSON or SARIF (the caller passes ``allowed=False``), never on a pipe or in CI logs.

Usage (the per-file stage of the engine)::

    with Progress(len(files), "checking", allowed=options_progress) as progress:
        for f in files:
            ...
            progress.advance()

The bar is transient: it disappears when the stage ends, so the report that follows is
unchanged. ``rich`` is imported only when the bar is actually shown.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # rich is imported when the bar is shown
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

DELAY_S = 1.0
_REFRESH_S = 0.1


class Progress:
    def __init__(
        self,
        total: int,
        description: str = "checking",
        *,
        allowed: bool = True,
        stream: TextIO | None = None,
        delay: float = DELAY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = max(int(total), 0)
        self.description = description
        self.done = 0
        self._stream = stream
        self._delay = delay
        self._clock = clock
        self._allowed = allowed
        self._start = 0.0
        self._last = 0.0
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def _may_show(self) -> bool:
        if not self._allowed or self.total <= 1:
            return False
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def __enter__(self) -> Progress:
        self._start = self._clock()
        self._eligible = self._may_show()
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self._eligible:
            return
        now = self._clock()
        if self._bar is None:
            if now - self._start <= self._delay or self.done >= self.total:
                return
            self._show()
        bar, task = self._bar, self._task
        if bar is None or task is None:  # rich failed to show it: no bar
            return
        if now - self._last >= _REFRESH_S or self.done >= self.total:
            bar.update(task, completed=self.done)
            bar.refresh()
            self._last = now

    def _show(self) -> None:
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            console = Console(file=self.stream, force_terminal=True, stderr=self._stream is None)
            bar = RichProgress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
                auto_refresh=False,
            )
            self._task = bar.add_task(self.description, total=self.total, completed=self.done)
            bar.start()
            self._bar = bar
        except Exception:
            self._eligible = False
            self._bar = None

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            try:
                self._bar.stop()
            except Exception:
                pass
            self._bar = None
