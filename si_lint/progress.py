"""A transient rich progress bar on stderr (gone when the stage ends, so the report is
unchanged), only on a terminal, after a second, and when ``allowed``."""

from __future__ import annotations

import contextlib
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
        self._stream = sys.stderr if stream is None else stream
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
            self._eligible = self._eligible and bool(self._stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._eligible = False
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self._eligible:
            return
        now = self._clock()
        if self._bar is None:
            if now - self._start <= DELAY_S or self.done >= self.total or not self._show():
                return
        if now - self._last >= _REFRESH_S or self.done >= self.total:
            self._bar.update(self._task, completed=self.done)
            self._bar.refresh()
            self._last = now

    def _show(self) -> bool:
        # rich is slow to import: only when a bar is shown
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        try:
            console = Console(file=self._stream, force_terminal=True)
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
        except Exception:
            self._eligible = False
            return False
        self._bar = bar
        return True

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            with contextlib.suppress(Exception):
                self._bar.stop()
            self._bar = None
