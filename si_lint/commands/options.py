"""Options that several commands take, declared once (the same names, types and help
everywhere they appear)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..profile import is_builtin_name

select = click.option(
    "--select", multiple=True, help="Only these codes or code prefixes (comma-separated)."
)
ignore = click.option(
    "--ignore", multiple=True, help="Skip these codes or code prefixes (comma-separated)."
)
no_cache = click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
cache_dir = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="SI_LINT_CACHE_DIR",
    help="Cache directory (default: .si-lint-cache/ at the corpus root).",
)
trust_implementations = click.option(
    "--trust-implementations",
    is_flag=True,
    help="Import and run the corpus profile's primitive implementations.",
)
extend_select = click.option(
    "--extend-select",
    multiple=True,
    help="Like --select, but add these codes or prefixes to the selected ones.",
)
extend_ignore = click.option(
    "--extend-ignore",
    multiple=True,
    help="Like --ignore: skip these codes or prefixes too (ruff's name).",
)


def fmt(*choices: str, help: str | None = "Output format."):
    """``--format`` of a command whose formats are ``choices`` (the first the default)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=choices[0],
        show_default=True,
        help=help,
    )


def profile(help: str, dest: str = "profile_opt"):
    return click.option("--profile", dest, metavar="builtin|builtin:oasisctl|DIR", help=help)


def profile_spec(spec: str, base: str | Path = ".", shown: str | None = None) -> str:
    """``spec`` when it names a shipped profile or a profile directory (relative to
    ``base``), else a usage error that names it ``shown`` (default ``--profile SPEC``)."""
    if is_builtin_name(spec) or (Path(base, spec) / "registry.yaml").is_file():
        return spec
    raise UsageError(
        f"{shown or '--profile ' + spec}: not a shipped profile (builtin, builtin:oasisctl) "
        "nor a profile directory (no registry.yaml)"
    )


def split_codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--select``/``--ignore`` values: each may hold several comma-separated codes or
    prefixes, in any case (``si1`` is ``SI1``: every code is upper case, as in ``rule``)."""
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


class FormatChoice(click.Choice):
    """``--format``: si-lint's formats, ruff's ``full`` as ``text`` (the same report), and
    ruff's other formats refused with the si-lint format to use instead."""

    #: ruff's format names si-lint has no format for, and what to use
    RUFF = {
        "json-lines": "json (one object holding every finding)",
        "grouped": "text (findings sorted by path) or concise",
        "pylint": "concise (`path:line:col: CODE [severity] message`)",
        "rdjson": "json or sarif",
        "azure": "concise, or sarif for a code-scanning upload",
    }

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            low = value.lower()
            if low == "full":
                return "text"
            if low in self.RUFF:
                self.fail(
                    f"{value!r} is a ruff format si-lint does not write: use {self.RUFF[low]}"
                )
        return super().convert(value, param, ctx)


#: ruff's ``check`` options that mean nothing for a scenario corpus, and what to do
#: instead: (names, takes a value, the si-lint equivalent)
RUFF_REFUSED = (
    (("--target-version",), True, "the profile decides: --profile or `profile` in si-lint.toml"),
    (("--line-length",), True, "si-lint has no layout rules (yamllint checks layout)"),
    (("--preview", "--no-preview"), False, "every si-lint rule is stable (`si-lint rule`)"),
    (("--extension",), True, "`include` in si-lint.toml selects the files"),
    (("--add-noqa", "--add-ignore"), False, "--write-baseline FILE, then --baseline FILE"),
    (("--ignore-noqa",), False, "none: `# si-lint: disable=` comments always count"),
    (
        ("--per-file-ignores", "--extend-per-file-ignores"),
        True,
        "`per-file-ignores` in si-lint.toml",
    ),
    (
        ("--fixable", "--unfixable", "--extend-fixable"),
        True,
        "--select/--ignore with --fix (the selected findings' fixes are applied)",
    ),
    (("--exclude", "--extend-exclude"), True, "`exclude` in si-lint.toml"),
    (("--respect-gitignore", "--no-respect-gitignore"), False, "none: .gitignore always counts"),
    (
        ("--force-exclude", "--no-force-exclude"),
        False,
        "none: a named file that `exclude` matches is always skipped",
    ),
    (("--no-fix-only",), False, "leave out --fix-only"),
    (("--no-exit-zero",), False, "leave out --exit-zero"),
)


def _refuse(name: str, equivalent: str):
    def callback(ctx, param, value):
        if value in (None, False, ()):
            return value
        raise UsageError(f"{name} is a ruff option with no meaning for si-lint: {equivalent}")

    return callback


def ruff_refused(f):
    """Hidden options: ruff's that si-lint refuses, each naming its equivalent (exit 2)."""
    for names, takes_value, equivalent in RUFF_REFUSED:
        for name in names:
            f = click.option(
                name,
                "ruff_" + name.strip("-").replace("-", "_"),
                is_flag=not takes_value,
                multiple=takes_value,
                hidden=True,
                expose_value=False,
                callback=_refuse(name, equivalent),
            )(f)
    return f


def flag(*names: str, help: str):
    return click.option(*names, is_flag=True, help=help)
