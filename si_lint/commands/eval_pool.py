"""The lines of a large ``.jsonl`` evidence file scored in worker processes, in order.

``si-lint eval`` reads a ``.jsonl`` file line by line (:func:`.eval_input.jsonl_lines`);
when the file is large and the machine has several cores, batches of its lines go to
worker processes forked after the scenario is prepared (they inherit it, the profile and
any trusted implementation), which parse, score and render each line exactly as the
parent would (the one function :data:`_WORKER` holds), and the parent writes the texts
in line order. A batch travels as the offsets of its lines: the worker reads their bytes
from the file itself (the same file: device, inode and modification time checked, else
the parent scores the batch from the bytes it read). At most a few batches are in
flight, so memory stays bounded whatever the file's size. A pool that cannot be started
or breaks costs nothing but speed: the batches it did not answer are scored in the
parent.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from .eval_input import Line

if TYPE_CHECKING:  # the pool's module is imported when a pool starts
    from concurrent.futures import ProcessPoolExecutor

#: a ``.jsonl`` file smaller than this is scored in process (starting workers costs more)
POOL_BYTES = 2 << 20
#: a batch holds at least this many bytes of lines (or ``BATCH_LINES`` lines)
BATCH_BYTES = 1 << 20
BATCH_LINES = 128
#: the parent holds the lines of at most two batches per worker, and no more than this
#: many bytes of them (lines near the size limit: a few batches of one line)
PENDING_BYTES = 24 << 20
#: the default number of workers, at most (each is a process of 20 MB and more: the
#: memory goal of 150 MB holds on any machine; ``--jobs`` asks for more)
MAX_DEFAULT_JOBS = 4

#: (rendered text, whether the verdict is an error) of one line
Rendered = tuple[str, bool]
#: (the rendered texts of consecutive verdicts joined, how many are errors, how many)
Written = tuple[str, int, int]

#: what a forked worker runs: ``render(label, line number, bytes, problem)`` and the
#: ``joiner`` of its texts, set by the parent before the workers are forked (they
#: inherit them)
_WORKER: dict = {}


class _Changed(Exception):
    """The file is not the one the parent read (replaced, modified, truncated)."""


def _read(fd: int, offset: int, length: int) -> bytes:
    parts = []
    while length > 0:
        part = os.pread(fd, length, offset)
        if not part:
            raise _Changed("truncated")
        parts.append(part)
        offset += len(part)
        length -= len(part)
    return b"".join(parts) if len(parts) != 1 else parts[0]


def _joined(rendered: list[Rendered], joiner: str) -> Written:
    return joiner.join([t for t, _ in rendered]), sum(e for _, e in rendered), len(rendered)


def _work(task: tuple) -> Written:
    """A worker's batch: ``(path, identity, items)``, each item ``(label, line number,
    offset, length or -1, why it is not read)``; each line is read by itself (what lies
    between two lines, however long, is never read)."""
    path, ident, items = task
    render = _WORKER["render"]
    out = []
    fd = os.open(path, os.O_RDONLY)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino, st.st_mtime_ns) != ident:
            raise _Changed(path)
        for name, n, offset, length, problem in items:
            raw = None if length < 0 else _read(fd, offset, length)
            out.append(render(name, n, raw, problem))
    finally:
        os.close(fd)
    return _joined(out, _WORKER["joiner"])


def _task(path: str, ident: tuple, batch: list[Line]) -> tuple:
    items = [
        (name, n, offset, -1 if raw is None else len(raw), problem)
        for name, n, raw, problem, offset in batch
    ]
    return (path, ident, items)


def _bytes(batch: list[Line]) -> int:
    return sum(len(line[2] or b"") for line in batch)


def _batches(lines: Iterable[Line]) -> Iterator[list[Line]]:
    batch: list[Line] = []
    size = 0
    for line in lines:
        batch.append(line)
        size += len(line[2] or b"")
        if size >= BATCH_BYTES or len(batch) >= BATCH_LINES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def default_jobs() -> int:
    """The machine's cores (those this process may run on), at most MAX_DEFAULT_JOBS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        cores = os.cpu_count() or 1
    return min(cores, MAX_DEFAULT_JOBS)


class LinePool:
    """Worker processes for the lines of large ``.jsonl`` files, started on first use."""

    def __init__(self, render: Callable[..., Rendered], joiner: str, jobs: int) -> None:
        self.render = render
        self.joiner = joiner
        self.jobs = jobs
        self.executor: ProcessPoolExecutor | None = None
        self.broken = jobs < 2

    def wanted(self, size: int) -> bool:
        return not self.broken and size >= POOL_BYTES

    def _start(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        try:
            mp = multiprocessing.get_context("fork")
            _WORKER.update(render=self.render, joiner=self.joiner)
            self.executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=mp)
        except Exception:  # no fork on this platform, no processes left: score here
            self.broken = True

    def _submit(self, path: str, ident: tuple, batch: list[Line]):
        if self.executor is None and not self.broken:
            self._start()
        executor = self.executor
        if self.broken or executor is None:  # (not broken: _start made it)
            return None
        try:
            return executor.submit(_work, _task(path, ident, batch))
        except Exception:  # a broken pool: the parent scores the rest
            self.broken = True
            return None

    def _answer(self, batch: list[Line], future) -> Written:
        if future is not None:
            try:
                return future.result()
            except Exception:  # a worker died: score the batch here (the same function)
                self.broken = True
        rendered = [self.render(name, n, raw, why) for name, n, raw, why, _offset in batch]
        return _joined(rendered, self.joiner)

    def lines(self, path, lines: Iterable[Line]) -> Iterator[Written]:
        """The rendered verdicts of every line (read from ``path``), in order, a batch of
        lines at a time."""
        pending: deque = deque()
        held = 0  # bytes of the pending batches' lines
        ident: tuple | None = None
        for batch in _batches(lines):
            if ident is None:  # the file is open now: the one its lines are read from
                try:
                    st = os.stat(path)
                    ident = (st.st_dev, st.st_ino, st.st_mtime_ns)
                except OSError:
                    ident = ()
            pending.append((batch, self._submit(os.fspath(path), ident, batch)))
            held += _bytes(batch)
            while len(pending) > 2 * self.jobs or (held > PENDING_BYTES and len(pending) > 1):
                done = pending.popleft()
                held -= _bytes(done[0])
                yield self._answer(*done)
        while pending:
            yield self._answer(*pending.popleft())

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None
        _WORKER.clear()
