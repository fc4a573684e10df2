"""`si-lint check [PATHS]`."""

from __future__ import annotations

import os
import sys

import click

from ..findings import SEVERITY_RANK

FAIL_ON = ("error", "warning", "info")


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for v in values:
        out.extend(c.strip() for c in v.split(",") if c.strip())
    return tuple(out)


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "junit", "github"]),
    default=None,
    help="Output format (default: text; github under GITHUB_ACTIONS=true).",
)
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write the report to FILE.")
@click.option("--select", multiple=True, help="Only these codes or code prefixes (comma-separated).")
@click.option("--ignore", multiple=True, help="Skip these codes or code prefixes (comma-separated).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="error", show_default=True,
              help="Lowest severity that makes the exit status 1.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True, help="Print a count per code instead of each finding.")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (comments and layout survive).")
@click.option("--diff", is_flag=True, help="With --fix semantics, print the fixes as a diff; write nothing.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="SI_LINT_CACHE_DIR",
              help="Cache directory (default: .si-lint-cache/ at the corpus root).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes for per-file work (default: the machine's cores).")
@click.option("--trust-implementations", is_flag=True,
              help="Import and run the corpus profile's primitive implementations.")
@click.option("--profile", "profile", default=None, metavar="builtin|builtin:oasisctl|DIR",
              help="The profile to check under, replacing the configured `profile` (a "
                   "directory is relative to the current directory).")
@click.option("--verbose", "-v", is_flag=True, help="Show skipped files and internal tracebacks.")
def command(paths, fmt, output, select, ignore, fail_on, exit_zero, statistics, fix, diff,
            no_cache, cache_dir, jobs, trust_implementations, profile, verbose):
    """Lint files or directories: schemas, Form B rules, the reference graph, EIO rules
    and the dry run of every fixture. Findings are reported for the named paths only;
    cross-file checks always see the whole corpus under the corpus root."""
    from ..corpus import ConfigError
    from ..pipeline import Options, UsageError, run
    from ..report import needs_corpus, render

    if fmt is None:
        fmt = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    from ..profile import OASISCTL_NOTICE, is_builtin_name

    if profile is not None and not is_builtin_name(profile):
        if not os.path.isfile(os.path.join(profile, "registry.yaml")):
            click.echo(f"si-lint: --profile {profile}: not a shipped profile (builtin, "
                       "builtin:oasisctl) nor a profile directory (no registry.yaml)", err=True)
            sys.exit(2)
        profile = os.path.abspath(profile)
    options = Options(
        select=_codes(select),
        ignore=_codes(ignore),
        trust_implementations=trust_implementations,
        verbose=verbose,
        use_cache=not no_cache,
        reuse_run=not needs_corpus(fmt) and not (fix or diff),
        cache_dir=cache_dir,
        jobs=jobs,
        profile=profile,
    )
    options.progress = fmt not in ("json", "sarif")  # si_lint.progress: never with JSON/SARIF
    try:
        result = run(list(paths), options)
    except (UsageError, ConfigError) as exc:
        click.echo(f"si-lint: {exc}", err=True)
        sys.exit(2)

    if (profile or getattr(result.config, "profile", None)) == "builtin:oasisctl":
        click.echo(OASISCTL_NOTICE, err=True)
    if verbose:
        for note in result.notes:
            click.echo(f"si-lint: {note}", err=True)

    if fix or diff:
        from ..fix import apply_fixes

        # the diff goes to stdout unless stdout carries a machine-readable report
        diff_stream = sys.stderr if fmt in ("json", "sarif", "junit") and not output else sys.stdout
        result = apply_fixes(result, write=fix and not diff, show_diff=diff, diff_stream=diff_stream,
                             rerun=lambda: run(list(paths), options))

    text = render(result, fmt, verbose=verbose, statistics=statistics)
    if output:
        from ..fsutil import atomic_write

        try:
            atomic_write(output, text.encode("utf-8"))
        except OSError as exc:  # a missing directory, a read-only file: a usage error
            click.echo(f"si-lint: cannot write {output}: {exc.strerror or type(exc).__name__}", err=True)
            sys.exit(2)
    else:
        click.echo(text, nl=False, color=None if fmt == "text" else False)
    if exit_zero:
        sys.exit(0)
    threshold = SEVERITY_RANK[fail_on]
    failing = any(SEVERITY_RANK.get(f.severity, 0) <= threshold for f in result.findings)
    sys.exit(1 if failing else 0)
