"""Command-line entry point: the lazy click group of the sub-commands in si_lint/commands/."""

from __future__ import annotations

import gc
import importlib
import sys
import traceback

import click

from . import __version__
from .errors import SiLintError

COMMANDS = {
    "check": "Lint files or directories (default: the current directory).",
    "eval": "Score recorded evidence against one scenario.",
    "eio": "Evaluate EIO inputs against a module's criteria.",
    "graph": "Export the corpus reference graph.",
    "migrate": "Draft the Form B scoring block and fixtures of a Form A scenario.",
    "profile": "List a profile's vocabulary (templates, primitives, channels, ...), or start one.",
    "review": "Review a registry/profile change: what it does to templates, scenarios and verdicts.",
    "rule": "List the rules, or explain one with its examples.",
    "schema": "Print the JSON Schema of a document kind (for editors).",
    "server": "Run the Language Server (LSP over stdio) for editors.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        # the one lazy import of each sub-command: `si-lint check` imports no other's code
        return importlib.import_module(f"si_lint.commands.{name}").command

    def invoke(self, ctx):
        """Run the sub-command: the one place that prints an error and exits. A command
        returns its exit status (an int) or raises :class:`si_lint.errors.SiLintError`."""
        try:
            status = super().invoke(ctx)
        except SiLintError as exc:
            click.echo(f"si-lint: {exc}", err=True)
            ctx.exit(exc.exit_code)
        if isinstance(status, int) and not isinstance(status, bool):
            ctx.exit(status)
        return status

    def format_commands(self, ctx, formatter):
        with formatter.section("Commands"):
            formatter.write_dl(list(COMMANDS.items()))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="si-lint")
def cli():
    """si-lint — static analysis for SI scenario corpora and EIO criteria modules.

    Exit status: 0 no error-severity finding, 1 error-severity findings, 2 usage error,
    unreadable configuration or internal error.
    """


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    # si-lint builds many small containers and few cycles (documents, cache entries): the
    # cyclic GC's default gen-0 threshold (700) would traverse them dozens of times a run
    gc.set_threshold(200_000, 10, 10)
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
