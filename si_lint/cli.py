"""Command-line entry point: :func:`main` runs the click group
(:mod:`si_lint.commands.group`), whose sub-commands are imported only when they run."""

from __future__ import annotations

import sys


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        from .commands.group import cli

        cli.main(args=args, prog_name="si-lint", standalone_mode=True)
    except SystemExit:
        raise
    except BaseException as exc:  # last line of defence: never a bare traceback
        if isinstance(exc, KeyboardInterrupt):
            sys.exit(130)
        import traceback

        print(f"si-lint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if "--verbose" in args:
            traceback.print_exc()
        sys.exit(2)


def console() -> None:
    """The ``si-lint`` command: :func:`main`, then, once the output is flushed, the exit
    without the interpreter's teardown. A run's objects (the documents, the cache's
    tables) would otherwise be freed one by one after the answer is known: 30 ms of a
    4,000-file re-check (mypy exits the same way). Nothing is left to do then: the cache
    is written and the worker pools are closed before :func:`main` returns."""
    import os

    code: int | str | None
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message")
        sys.stderr.write(f"{code}\n")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the output was not all read
        code = code or 1
    os._exit(code)


def __getattr__(name: str):
    """``cli``, the click group (imported on first use: tests invoke it directly)."""
    if name == "cli":
        from .commands.group import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    console()
