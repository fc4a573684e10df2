"""Command-line entry point. :func:`main` first asks the replay memo
(:mod:`si_lint.replay`: the same ``check`` command line over an unchanged corpus prints
what it printed, before click or the pipeline is imported); otherwise it runs the click
group (:mod:`si_lint.commands.group`), whose sub-commands are imported only when they run."""

from __future__ import annotations

import sys


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        from . import replay

        hit = replay.answer(args)
        if hit is not None:
            text, code = hit
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()
            sys.exit(code)
        replay.ARGV = args  # the check command records its output for the next run
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
