"""Command-line entry point: :func:`main` runs the click group ``cli``
(:mod:`si_lint.commands.group`)."""

from __future__ import annotations

import sys
import traceback

from .commands.group import cli

__all__ = ["cli", "main"]


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        cli.main(args=args, prog_name="si-lint", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except BaseException as exc:  # last line of defence: never a bare traceback
        print(f"si-lint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if "--verbose" in args:
            traceback.print_exc()
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
