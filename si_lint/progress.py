"""Progress on stderr for long runs: a transient rich progress bar (gone when the stage
ends, so the report that follows is unchanged), shown only when the stream is a terminal
and the stage has run for more than a second; never when the caller passes
``allowed=False`` (JSON and SARIF reports), never on a pipe or in CI logs."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

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
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = max(int(total), 0)
        self.description = description
        self.done = 0
        self._stream = stream
        self._clock = clock
        self._eligible = allowed and self.total > 1
        self._start = self._last = 0.0
        self._bar: Any = None  # rich's Progress, while it is shown
        self._task: Any = None

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def __enter__(self) -> Progress:
        self._start = self._clock()
        try:
            stream = self._stream if self._stream is not None else sys.stderr
            self._eligible = self._eligible and bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._eligible = False
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self._eligible:
            return
        now = self._clock()
        if self._bar is None:
            if now - self._start <= DELAY_S or self.done >= self.total:
                return
            self._show()
            if self._bar is None:  # rich could not show it: no bar
                return
        if now - self._last >= _REFRESH_S or self.done >= self.total:
            self._bar.update(self._task, completed=self.done)
            self._bar.refresh()
            self._last = now

    def _show(self) -> None:
        # rich is slow to import: only when a bar is shown
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        try:
            stream = self._stream if self._stream is not None else sys.stderr
            console = Console(file=stream, force_terminal=True, stderr=self._stream is None)
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

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            try:
                self._bar.stop()
            except Exception:
                pass
            self._bar = None
