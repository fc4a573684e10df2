"""`si-lint check [PATHS]`: its command line, and what the command does with it (``a``
holds the options by their click names)."""

from __future__ import annotations

import contextlib
import os
import sys
from types import SimpleNamespace

import click

from ..baseline import apply, load
from ..baseline import render as render_baseline
from ..errors import UsageError
from ..findings import SEVERITY_RANK
from ..fix.files import fix_files, fixable
from ..pipeline import Options
from ..pipeline import run as run_pipeline
from ..profile import OASISCTL_NOTICE, is_builtin_name
from ..report import FORMATS
from ..report import write as write_report
from ..report.output import report_sink, use_color, write, write_file
from . import options
from .check_show import say, show, watch
from .options import FILE, MANY, choice, profile_spec, split_codes

ENV_FORMAT = "SI_LINT_OUTPUT_FORMAT"
FAIL_ON = ("error", "warning", "info")
#: the options that make check do something else than check (one at a time)
MODES = ("show_settings", "show_files", "watch", "write_baseline")


#: check's options in --help order (:func:`.options.declare`)
OPTIONS: tuple[tuple, ...] = (
    (
        "--format --output-format fmt",
        "Output format (default: text; github under GITHUB_ACTIONS=true). concise: one "
        "line per finding. ruff's `full` is text.",
        {"type": options.FormatChoice(FORMATS), "envvar": ENV_FORMAT, "show_envvar": True},
    ),
    ("--output --output-file -o", "Write the report to FILE.", FILE),
    (
        "--config config_file",
        "Use this si-lint.toml or pyproject.toml; its directory is the corpus root.",
        FILE,
    ),
    ("--isolated", "Ignore every configuration file."),
    options.SELECT,
    options.IGNORE,
    (
        "--extend-select",
        "Like --select, but add these codes or prefixes to the selected ones.",
        MANY,
    ),
    ("--extend-ignore", "Like --ignore: skip these codes or prefixes too (ruff's name).", MANY),
    ("--fail-on", "Lowest severity that makes the exit status 1.", choice(FAIL_ON)),
    ("--exit-zero -e", "Exit 0 even when there are findings."),
    ("--exit-non-zero-on-fix", "Exit 1 when --fix changed a file, even if no finding remains."),
    ("--statistics", "Print a count per code instead of each finding."),
    ("--quiet -q", "Print the findings only (no summary, no notes)."),
    (
        "--silent -s",
        "Print nothing (but errors): the exit status says it all (--output is still written).",
    ),
    (
        "--color color_mode",
        "Colour the text output (auto: only on a terminal; NO_COLOR/FORCE_COLOR respected).",
        choice(("auto", "always", "never")),
    ),
    (
        "--fix/--no-fix",
        "Apply the safe fixes in place (comments and layout survive); --no-fix overrides.",
    ),
    (
        "--fix-only",
        "Apply the fixes and print only how many (implies --fix; exit 0 unless "
        "--exit-non-zero-on-fix).",
    ),
    (
        "--unsafe-fixes/--no-unsafe-fixes",
        "With --fix/--diff, also apply the fixes that change what a scenario means.",
    ),
    (
        "--diff",
        "Print the fixes as a unified diff on stdout (the findings on stderr); write nothing.",
    ),
    ("--show-fixes/--no-show-fixes", "List the findings that were (or would be) fixed."),
    ("--baseline baseline_file", "Report only findings that are not in this baseline file.", FILE),
    (
        "--write-baseline",
        "Record the current findings in FILE (for --baseline), say how many, exit 0.",
        FILE,
    ),
    (
        "--sarif-file",
        "Also write the SARIF report to FILE (with --format github: annotations and "
        "code scanning from one run).",
        FILE,
    ),
    ("--automation-id", "SARIF runs[].automationDetails.id (code scanning's category).", {}),
    (
        "--junit-passing/--no-junit-passing",
        "With --format junit: a passing testcase per rule that ran clean on each file "
        "(default), or only the findings' testcases.",
        {"default": None},
    ),
    ("--stdin-filename", "With PATH `-`: the path the text read from stdin stands for.", {}),
    ("--no-cache -n", "Do not read or write the cache."),
    options.CACHE_DIR,
    (
        "--jobs -j",
        "Worker processes for per-file work and dry runs (default: one below 10,000 "
        "files, the machine's cores from there).",
        {"type": click.IntRange(min=1)},
    ),
    options.TRUST,
    options.profile(
        "The profile to check under, replacing the configured `profile` (a "
        "directory is relative to the current directory).",
        dest="profile",
    ),
    (
        "--verbose -v",
        "Show each corpus root and how it was found, skipped files and internal tracebacks.",
    ),
    (
        "--show-settings",
        "Print the effective configuration of each named path's corpus root, exit 0.",
    ),
    ("--show-files", "Print the files that would be checked, exit 0."),
    (
        "--watch -w",
        "Check again whenever a checked file or the configuration changes (Ctrl-C stops).",
    ),
)


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@options.declare(*OPTIONS)
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
    a = SimpleNamespace(**kwargs)
    a.fmt = a.fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    _combinations(a)
    with contextlib.ExitStack() as stack:
        if a.silent:
            # an error is printed by the command group, outside this block
            null = stack.enter_context(open(os.devnull, "w", encoding="utf-8"))
            stack.enter_context(contextlib.redirect_stdout(null))
            stack.enter_context(contextlib.redirect_stderr(null))
        if a.show_settings or a.show_files:
            return show(a, _options(a))
        if a.watch:
            return watch(a, _options(a), run_once)
        return run_once(a)


def failing(findings, fail_on: str) -> list:
    """The findings that make the exit status 1 under ``--fail-on`` (JUnit counts the same)."""
    threshold = SEVERITY_RANK[fail_on]
    return [f for f in findings if SEVERITY_RANK.get(f.severity, 0) <= threshold]


def run_once(a) -> int:
    paths, overrides = _paths_and_stdin(a)
    options = _options(a)
    result = run_pipeline(paths, options, overrides=overrides)
    # the notice of builtin:oasisctl, the run's warnings (SPEC §9), under --verbose its notes
    profile = a.profile or getattr(result.config, "profile", None)
    if profile == "builtin:oasisctl" and not a.quiet:
        say(OASISCTL_NOTICE)
    for note in [*result.warnings, *(result.notes if a.verbose else ())]:
        say(f"si-lint: {note}")
    if a.fix_only:
        return _fix_only(a, result)
    fixed, changed = [], 0
    if a.fix or a.diff:
        report = _apply_fixes(a, result)
        changed = len(report.files)
        if a.fix and not a.diff and report.files:
            result = run_pipeline(paths, options)  # the report shows what remains
        fixed = report.fixed
    if a.write_baseline:  # adopting: the findings go to the file, not to the terminal
        write_file(a.write_baseline, render_baseline(result).encode("utf-8"))
        if not a.quiet:  # on stderr: stdout stays free for a --diff before it
            n = len(result.findings)
            say(f"Wrote {n} baseline entr{'y' if n == 1 else 'ies'} to {a.write_baseline}")
        return 0
    if a.baseline_file:
        applied = apply(result, load(a.baseline_file))
        result.findings = applied.findings
        if not a.quiet:
            stale = f"{applied.stale} stale entr{'y' if applied.stale == 1 else 'ies'}"
            say(
                f"si-lint: baseline {a.baseline_file}: {applied.matched} finding(s) hidden, "
                f"{stale} (no longer found)"
            )
    _report(a, result, fixed)
    if a.exit_zero:
        return 0
    fixed_fails = a.exit_non_zero_on_fix and a.fix and not a.diff and changed
    return 1 if failing(result.findings, a.fail_on) or fixed_fails else 0


def _fix_only(a, result) -> int:
    """--fix-only as ruff means it: the fixes written, no finding reported."""
    report = _apply_fixes(a, result)
    n, files = len(report.fixed), len(report.files)
    write(f"Fixed {n} finding(s) in {files} file(s).\n" if n else "No fixes applied.\n", a.output)
    if a.show_fixes:
        _show_fixes(result, report.fixed, True, a.unsafe_fixes, a.output is None)
    return 1 if a.exit_non_zero_on_fix and files and not a.exit_zero else 0


def _paths_and_stdin(a) -> tuple[list[str], dict[str, bytes] | None]:
    """The paths to check, and for the path ``-`` the bytes of stdin, which stand in for
    the file named by --stdin-filename in the read stage."""
    paths = list(a.paths)
    if "-" not in paths:
        if a.stdin_filename:
            raise UsageError("--stdin-filename is used with the path `-` only")
        return paths, None
    if paths != ["-"]:
        raise UsageError("`-` (read stdin) cannot be combined with other paths")
    if not a.stdin_filename:
        raise UsageError("`-` (read stdin) needs --stdin-filename PATH (the file it stands for)")
    if a.fix or a.diff:
        raise UsageError("--fix and --diff work on files, not on stdin")
    stdin = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    return [a.stdin_filename], {os.path.abspath(a.stdin_filename): stdin}


def _combinations(a) -> None:
    modes = [f"--{n.replace('_', '-')}" for n in MODES if getattr(a, n)]
    if len(modes) > 1:
        raise UsageError(f"{modes[0]} and {modes[1]} cannot be used together")
    if modes and modes[0] != "--write-baseline" and "-" in a.paths:
        raise UsageError(f"{modes[0]} works on files, not on stdin (`-`)")
    if a.isolated and a.config_file:
        raise UsageError("--isolated ignores every configuration file: leave out --config")
    if a.config_file and "=" in a.config_file and not os.path.lexists(a.config_file):
        raise UsageError(
            f"--config {a.config_file!r}: --config names a file; ruff's `--config KEY = VALUE` "
            "has no equivalent: --select, --ignore, --extend-select, --extend-ignore and "
            "--profile on the command line, anything else in si-lint.toml"
        )
    if a.fix_only:
        if a.diff:
            raise UsageError("--fix-only writes the fixes, --diff writes nothing: use one")
        a.fix = True
    a.quiet = a.quiet or a.silent
    for k in CODES:
        setattr(a, k, split_codes(getattr(a, k)))
    if a.automation_id is not None and a.fmt != "sarif" and not a.sarif_file:
        raise UsageError(
            "--automation-id is a SARIF setting (use it with --format sarif or --sarif-file)"
        )
    if a.junit_passing is not None and a.fmt != "junit":
        flag = "--junit-passing" if a.junit_passing else "--no-junit-passing"
        raise UsageError(f"{flag} is a JUnit setting (use it with --format junit)")
    if a.profile is not None and not is_builtin_name(profile_spec(a.profile)):
        a.profile = os.path.abspath(a.profile)


#: the :class:`Options` fields given as the options of their name (the codes split)
AS_GIVEN = ("isolated", "trust_implementations", "cache_dir", "jobs", "config_file", "profile")
CODES = ("select", "ignore", "extend_select", "extend_ignore")


def _options(a) -> Options:
    return Options(
        **{k: getattr(a, k) for k in AS_GIVEN + CODES},
        use_cache=not a.no_cache,
        progress=a.fmt not in ("json", "sarif", "gitlab") and not a.quiet and not a.watch,
    )


def _apply_fixes(a, result):
    report = fix_files(
        result,
        write=a.fix and not a.diff,
        diff_stream=sys.stdout if a.diff else None,
        unsafe=a.unsafe_fixes,
    )
    for relpath, reason in report.skipped:
        say(f"si-lint: {relpath}: not fixed: {reason}")
    n, files = len(report.fixed), len(report.files)
    if not a.quiet and not a.fix_only and (report.files or a.diff):
        if a.fix and not a.diff:
            say(f"si-lint: fixed {n} finding(s) in {files} file(s)")
        else:
            say(f"si-lint: {n} finding(s) fixable in {files} file(s) (--diff: nothing written)")
    return report


def _report(a, result, fixed) -> None:
    """The report, written as it is made (SPEC §9 "Output is bounded"); on stderr under
    --diff, whose patch is the output; a --sarif-file first (one it cannot write prints
    no report)."""
    report_err = a.diff and not a.output
    stream = sys.stderr if report_err else sys.stdout
    colour = a.fmt == "text" and not a.output and use_color(a.color_mode, stream)
    if a.sarif_file:
        with report_sink(a.sarif_file) as sink:
            write_report(result, "sarif", sink, automation_id=a.automation_id)
    with report_sink(a.output, err=report_err, color=colour) as sink:
        write_report(
            result,
            a.fmt,
            sink,
            verbose=a.verbose,
            statistics=a.statistics,
            quiet=a.quiet,
            unsafe_fixes=a.unsafe_fixes,
            automation_id=a.automation_id,
            fail_on=a.fail_on,
            junit_passing=a.junit_passing is not False,
        )
    if a.show_fixes:
        to_stdout = a.output is None and a.fmt == "text" and not a.diff
        _show_fixes(result, fixed, a.fix and not a.diff, a.unsafe_fixes, to_stdout)


def _show_fixes(result, fixed, written: bool, unsafe: bool, to_stdout: bool) -> None:
    if written:
        items, title = fixed, "Fixed"
    else:
        items = fixed or [f for f in result.findings if fixable(f, unsafe)]
        title = "Would fix" if items else "Fixable"
    hidden = 0 if written or unsafe else sum(1 for f in result.findings if fixable(f, True))
    none = f"No fixes available ({hidden} hidden with --unsafe-fixes)." if hidden else None
    lines = [f"{title} {len(items)} finding(s):"] if items else [none or "No fixes available."]
    items = sorted(items, key=lambda f: f.sort_key())
    lines += [f"  {f.path}:{f.line}:{f.column}: {f.code} {f.message}" for f in items]
    write("\n".join(lines) + "\n", err=not to_stdout, color=None)
