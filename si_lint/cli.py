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


def __getattr__(name: str):
    """``cli``, the click group (imported on first use: tests invoke it directly)."""
    if name == "cli":
        from .commands.group import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    main()
