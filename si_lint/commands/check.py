"""`si-lint check [PATHS]`: its command line, as click declares and parses it. What the
command does is :func:`.check_run.run`."""

from __future__ import annotations

from types import SimpleNamespace

import click

from ..report import FORMATS
from . import options
from .check_run import COLOR, FAIL_ON, run

FILE = click.Path(dir_okay=False)


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "--output-format",
    "fmt",
    type=options.FormatChoice(FORMATS),
    envvar="SI_LINT_OUTPUT_FORMAT",
    show_envvar=True,
    help="Output format (default: text; github under GITHUB_ACTIONS=true). concise: one "
    "line per finding. ruff's `full` is text.",
)
@click.option("--output", "--output-file", "-o", type=FILE, help="Write the report to FILE.")
@click.option(
    "--config",
    "config_file",
    type=FILE,
    help="Use this si-lint.toml or pyproject.toml; its directory is the corpus root.",
)
@options.flag("--isolated", help="Ignore every configuration file.")
@options.select
@options.ignore
@options.extend_select
@options.extend_ignore
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="error",
    show_default=True,
    help="Lowest severity that makes the exit status 1.",
)
@options.flag("--exit-zero", "-e", help="Exit 0 even when there are findings.")
@options.flag(
    "--exit-non-zero-on-fix", help="Exit 1 when --fix changed a file, even if no finding remains."
)
@options.flag("--statistics", help="Print a count per code instead of each finding.")
@options.flag("--quiet", "-q", help="Print the findings only (no summary, no notes).")
@options.flag(
    "--silent",
    "-s",
    help="Print nothing (but errors): the exit status says it all (--output is still written).",
)
@click.option(
    "--color",
    "color_mode",
    type=click.Choice(COLOR),
    default="auto",
    show_default=True,
    help="Colour the text output (auto: only on a terminal; NO_COLOR/FORCE_COLOR respected).",
)
@options.flag(
    "--fix/--no-fix",
    help="Apply the safe fixes in place (comments and layout survive); --no-fix overrides.",
)
@options.flag(
    "--fix-only",
    help="Apply the fixes and print only how many (implies --fix; exit 0 unless "
    "--exit-non-zero-on-fix).",
)
@options.flag(
    "--unsafe-fixes/--no-unsafe-fixes",
    help="With --fix/--diff, also apply the fixes that change what a scenario means.",
)
@options.flag(
    "--diff",
    help="Print the fixes as a unified diff on stdout (the findings on stderr); write nothing.",
)
@options.flag(
    "--show-fixes/--no-show-fixes", help="List the findings that were (or would be) fixed."
)
@click.option(
    "--baseline",
    "baseline_file",
    type=FILE,
    help="Report only findings that are not in this baseline file.",
)
@click.option(
    "--write-baseline",
    type=FILE,
    help="Record the current findings in FILE (for --baseline), say how many, exit 0.",
)
@click.option(
    "--sarif-file",
    type=FILE,
    help="Also write the SARIF report to FILE (with --format github: annotations and "
    "code scanning from one run).",
)
@click.option(
    "--automation-id", help="SARIF runs[].automationDetails.id (code scanning's category)."
)
@click.option(
    "--junit-passing/--no-junit-passing",
    default=None,
    help="With --format junit: a passing testcase per rule that ran clean on each file "
    "(default), or only the findings' testcases.",
)
@click.option(
    "--stdin-filename", help="With PATH `-`: the path the text read from stdin stands for."
)
@options.flag("--no-cache", "-n", help="Do not read or write the cache.")
@options.cache_dir
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Worker processes for per-file work and dry runs (default: one below 10,000 "
    "files, the machine's cores from there).",
)
@options.trust_implementations
@options.profile(
    "The profile to check under, replacing the configured `profile` (a "
    "directory is relative to the current directory).",
    dest="profile",
)
@options.flag(
    "--verbose",
    "-v",
    help="Show each corpus root and how it was found, skipped files and internal tracebacks.",
)
@options.flag(
    "--show-settings",
    help="Print the effective configuration of each named path's corpus root, exit 0.",
)
@options.flag("--show-files", help="Print the files that would be checked, exit 0.")
@options.flag(
    "--watch",
    "-w",
    help="Check again whenever a checked file or the configuration changes (Ctrl-C stops).",
)
@options.ruff_refused
def command(**kwargs):
    """Lint files or directories: schemas, Form B rules, the reference graph, EIO rules
    and the dry run of every fixture. Findings are reported for the named paths only;
    cross-file checks always see the whole corpus under the corpus root, found for each
    named path (--config's directory, the nearest si-lint.toml or [tool.si-lint], an OASIS
    profile layout, the git work tree). Paths under no corpus of a work tree that has
    configured ones are skipped and counted.

    The options of `ruff check` have their ruff meaning (docs/cli.md maps them, and
    yamllint's); SI_LINT_OUTPUT_FORMAT sets the format.

    Exit status: 0 no finding at or above --fail-on, 1 such findings (or a file fixed,
    under --exit-non-zero-on-fix), 2 usage error."""
    return run(SimpleNamespace(**kwargs))
