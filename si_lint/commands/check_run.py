"""What `si-lint check [PATHS]` does with its parsed command line (:func:`run`). Click
parses it in :mod:`.check`."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from ..findings import SEVERITY_RANK
from ..report.output import use_color, write

FAIL_ON = ("error", "warning", "info")
COLOR = ("auto", "always", "never")


def failing(findings, fail_on: str) -> list:
    """The findings that make the exit status 1 under ``--fail-on`` (JUnit counts the same)."""
    threshold = SEVERITY_RANK[fail_on]
    return [f for f in findings if SEVERITY_RANK.get(f.severity, 0) <= threshold]


def split_codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--select``/``--ignore`` values: each may hold several comma-separated codes or
    prefixes, in any case (``si1`` is ``SI1``: every code is upper case, as in ``rule``)."""
    out: list[str] = []
    for v in values:
        out.extend(c.strip().upper() for c in v.split(",") if c.strip())
    return tuple(out)


@dataclass
class CheckArgs:
    """The command line of ``si-lint check``, as click parsed it (every field given, by
    keyword)."""

    paths: tuple[str, ...]
    fmt: str  # --format, or its default: :func:`default_format`
    output: str | None
    config_file: str | None
    isolated: bool
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    extend_select: tuple[str, ...]
    extend_ignore: tuple[str, ...]
    fail_on: str
    exit_zero: bool
    exit_non_zero_on_fix: bool
    statistics: bool
    quiet: bool
    silent: bool
    color_mode: str
    fix: bool
    fix_only: bool
    unsafe_fixes: bool
    diff: bool
    show_fixes: bool
    baseline_file: str | None
    write_baseline: str | None
    sarif_file: str | None
    automation_id: str | None
    junit_passing: bool | None  # None: the format's default (given only with junit)
    stdin_filename: str | None
    no_cache: bool
    cache_dir: str | None
    jobs: int | None
    trust_implementations: bool
    profile: str | None
    verbose: bool
    show_settings: bool
    show_files: bool
    watch: bool


def default_format() -> str:
    """``--format`` when none is given: github under GITHUB_ACTIONS=true, else text."""
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def run(a: CheckArgs) -> int:
    """The check command: returns its exit status, raises :class:`si_lint.errors.SiLintError`."""
    _check_settings(a)
    if not a.silent:
        return _dispatch(a)
    import contextlib

    # --silent: nothing on stdout nor stderr but an error (printed by the command group,
    # outside this block); --output FILE is still written
    with open(os.devnull, "w", encoding="utf-8") as null:
        with contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            return _dispatch(a)


def _dispatch(a: CheckArgs) -> int:
    """--show-settings/--show-files print and exit, --watch loops, else one check."""
    if a.show_settings or a.show_files:
        from .check_show import show

        return show(a, _options(a))
    if a.watch:
        from .check_watch import watch

        return watch(a, _options(a), run_once)
    return run_once(a)


def run_once(a: CheckArgs) -> int:
    """One check of the named paths, reported; returns the exit status."""
    paths, stdin = _paths_and_stdin(a)
    options = _options(a)
    result = _run(paths, options, stdin)
    _notes(a, result)
    if a.fix_only:
        return _fix_only(a, result)
    fixed, changed = [], 0
    if a.fix or a.diff:
        report = _apply_fixes(a, result)
        changed = len(report.files)
        if a.fix and not a.diff and report.files:
            result = _run(paths, options, stdin)  # the report shows what remains
        fixed = report.fixed
    if a.write_baseline:  # adopting: the findings go to the file, not to the terminal
        return _write_baseline(a, a.write_baseline, result)
    _baselines(a, result)
    _report(a, result, fixed)
    if a.exit_zero:
        return 0
    fixed_fails = a.exit_non_zero_on_fix and a.fix and not a.diff and changed
    return 1 if failing(result.findings, a.fail_on) or fixed_fails else 0


def _fix_only(a: CheckArgs, result) -> int:
    """--fix-only: the fixes written, and one line saying how many -- no finding reported
    (ruff's meaning); exit 0, or 1 under --exit-non-zero-on-fix when a file changed."""
    report = _apply_fixes(a, result)
    n, files = report.fixed_findings, len(report.files)
    line = f"Fixed {n} finding(s) in {files} file(s).\n" if n else "No fixes applied.\n"
    write(line, a.output)
    if a.show_fixes:
        _show_fixes(result, report.fixed, True, a.unsafe_fixes, a.output is None)
    return 1 if a.exit_non_zero_on_fix and files and not a.exit_zero else 0


def _paths_and_stdin(a: CheckArgs) -> tuple[list[str], bytes | None]:
    """The paths to check, and the bytes of stdin when the path is ``-``."""
    from ..errors import UsageError

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
    return [a.stdin_filename], stdin


def _check_settings(a: CheckArgs) -> None:
    """Options that cannot go together, and a ``--profile`` that is no profile."""
    from ..errors import UsageError

    _combinations(a)
    if a.automation_id is not None and a.fmt != "sarif" and not a.sarif_file:
        raise UsageError(
            "--automation-id is a SARIF setting (use it with --format sarif or --sarif-file)"
        )
    if a.junit_passing is not None and a.fmt != "junit":
        flag = "--junit-passing" if a.junit_passing else "--no-junit-passing"
        raise UsageError(f"{flag} is a JUnit setting (use it with --format junit)")
    if a.profile is None:
        return
    from ..profile import is_builtin_name

    if not is_builtin_name(a.profile):
        if not os.path.isfile(os.path.join(a.profile, "registry.yaml")):
            raise UsageError(
                f"--profile {a.profile}: not a shipped profile (builtin, "
                "builtin:oasisctl) nor a profile directory (no registry.yaml)"
            )
        a.profile = os.path.abspath(a.profile)


def _combinations(a: CheckArgs) -> None:
    """What the new ruff options imply and refuse: --fix-only implies --fix (--diff
    writes nothing, so not with it), --silent implies --quiet; --isolated reads no
    configuration file, so not with --config; --watch, --show-files and --show-settings
    take paths (not stdin), one at a time."""
    from ..errors import UsageError

    modes = [
        n
        for n, on in (
            ("--show-settings", a.show_settings),
            ("--show-files", a.show_files),
            ("--watch", a.watch),
            ("--write-baseline", a.write_baseline),
        )
        if on
    ]
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
    if a.silent:
        a.quiet = True


def _options(a: CheckArgs):
    from ..pipeline import Options

    options = Options(
        select=split_codes(a.select),
        ignore=split_codes(a.ignore),
        extend_select=split_codes(a.extend_select),
        extend_ignore=split_codes(a.extend_ignore),
        isolated=a.isolated,
        trust_implementations=a.trust_implementations,
        verbose=a.verbose,
        use_cache=not a.no_cache,
        cache_dir=a.cache_dir,
        jobs=a.jobs,
        config_file=a.config_file,
        profile=a.profile,
    )
    options.progress = a.fmt not in ("json", "sarif", "gitlab") and not a.quiet and not a.watch
    return options


def _notes(a: CheckArgs, result) -> None:
    """The compatibility notice of builtin:oasisctl; under --verbose, the run's notes."""
    if (a.profile or getattr(result.config, "profile", None)) == "builtin:oasisctl":
        if not a.quiet:
            from ..profile import OASISCTL_NOTICE

            _say(OASISCTL_NOTICE)
    for warning in getattr(result, "warnings", ()):  # always: checks left out (SPEC §9)
        _say(f"si-lint: {warning}")
    if a.verbose:  # the corpus root and how it was found, the configuration, skipped files
        for note in result.notes:
            _say(f"si-lint: {note}")


def _apply_fixes(a: CheckArgs, result):
    """--fix writes the fixes, --diff prints them; returns the fix report (``fixed``: the
    findings fixed, ``files``: the files changed, ``fixed_findings``: how many)."""
    from ..fix import fix_files

    report = fix_files(
        result,
        write=a.fix and not a.diff,
        diff_stream=sys.stdout if a.diff else None,
        unsafe=a.unsafe_fixes,
    )
    for relpath, reason in report.skipped:
        _say(f"si-lint: {relpath}: not fixed: {reason}")
    if not a.quiet and not a.fix_only and (report.files or a.diff):
        if a.fix and not a.diff:
            _say(
                f"si-lint: fixed {report.fixed_findings} finding(s) in {len(report.files)} file(s)"
            )
        else:
            _say(
                f"si-lint: {report.fixed_findings} finding(s) fixable in {len(report.files)} "
                "file(s) (--diff: nothing written)"
            )
    return report


def _write_baseline(a: CheckArgs, path: str, result) -> int:
    """--write-baseline FILE records every finding of the run in FILE and says how many on
    one line, on stderr (as ruff's ``--add-noqa`` says "Added N noqa directives.": stdout
    stays free for a ``--diff`` before it, and a script reads the file, not the count);
    no report, and the exit status is 0: recording today's findings is not a failure."""
    from ..baseline import render as render_baseline
    from ..report.output import write_file

    write_file(path, render_baseline(result).encode("utf-8"))
    if not a.quiet:
        n = len(result.findings)
        _say(f"Wrote {n} baseline entr{'y' if n == 1 else 'ies'} to {path}")
    return 0


def _baselines(a: CheckArgs, result) -> None:
    """--baseline hides the findings the file records."""
    if a.baseline_file:
        from ..baseline import apply, load

        applied = apply(result, load(a.baseline_file))
        result.findings = applied.findings
        if not a.quiet:
            _say(
                f"si-lint: baseline {a.baseline_file}: {applied.matched} finding(s) hidden, "
                f"{applied.stale} stale entr{'y' if applied.stale == 1 else 'ies'} "
                "(no longer found)"
            )


def _report(a: CheckArgs, result, fixed) -> None:
    """The report, on stdout (on stderr under --diff, whose patch is the output), written
    as it is made (SPEC §9 "Output is bounded"); with ``--sarif-file`` the same findings
    as SARIF too, written first (a file it cannot write prints no report)."""
    from ..report import write as write_report
    from ..report.output import report_sink

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
        _show_fixes(
            result,
            fixed,
            a.fix and not a.diff,
            a.unsafe_fixes,
            a.output is None and a.fmt == "text" and not a.diff,
        )


def _run(paths, options, stdin):
    from ..pipeline import run

    if stdin is None:
        return run(paths, options)
    # the buffer stands in for the named file in the read stage (the rest is read from disk)
    return run(paths, options, overrides={os.path.abspath(paths[0]): stdin})


def _show_fixes(result, fixed, written: bool, unsafe: bool, to_stdout: bool) -> None:
    from ..fix import fixable

    if written:
        items, title = fixed, "Fixed"
    else:
        items = fixed or [f for f in result.findings if fixable(f, unsafe)]
        title = "Would fix" if items else "Fixable"
    hidden = 0 if written or unsafe else sum(1 for f in result.findings if fixable(f, True))
    none = f"No fixes available ({hidden} hidden with --unsafe-fixes)." if hidden else None
    lines = [f"{title} {len(items)} finding(s):"] if items else [none or "No fixes available."]
    for f in sorted(items, key=lambda f: f.sort_key()):
        lines.append(f"  {f.path}:{f.line}:{f.column}: {f.code} {f.message}")
    write("\n".join(lines) + "\n", err=not to_stdout, color=None)


def _say(message: str) -> None:
    """A line on stderr (what ``click.echo(message, err=True)`` writes)."""
    write(message + "\n", err=True, color=None)
