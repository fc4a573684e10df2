"""The commands' options as tables (:func:`declare`); those several commands take are
declared once here (the same names, types and help everywhere they appear)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import click

from ..errors import UsageError
from ..profile import is_builtin_name

#: click settings: a flag (off unless given), a repeatable option, a file to write or read
FLAG = {"is_flag": True}
MANY = {"multiple": True}
FILE = {"type": click.Path(dir_okay=False)}

#: options several commands take, as :func:`declare` reads them
SELECT = ("--select", "Only these codes or code prefixes (comma-separated).", MANY)
IGNORE = ("--ignore", "Skip these codes or code prefixes (comma-separated).", MANY)
CACHE_DIR = (
    "--cache-dir",
    "Cache directory (default: .si-lint-cache/ at the corpus root).",
    {"type": click.Path(file_okay=False), "envvar": "SI_LINT_CACHE_DIR"},
)
TRUST = (
    "--trust-implementations",
    "Import and run the corpus profile's primitive implementations.",
)


def declare(*table: tuple):
    """A command's options in --help order, each ``(declarations, help[, click settings])``:
    click's declarations separated by spaces (a bare word names the parameter); an option
    without settings is a flag, off unless given."""

    def apply(f):
        for decls, help, *settings in reversed(table):
            f = click.option(*decls.split(), help=help, **(settings[0] if settings else FLAG))(f)
        return f

    return apply


def choice(choices):
    """A choice among ``choices``, the first the default (shown in --help)."""
    return {"type": click.Choice(choices), "default": choices[0], "show_default": True}


def fmt(*choices: str, help: str | None = "Output format."):
    """``--format`` of a command whose formats are ``choices`` (the first the default)."""
    return "--format fmt", help, choice(choices)


def profile(help: str, dest: str = "profile_opt"):
    return f"--profile {dest}", help, {"metavar": "builtin|builtin:oasisctl|DIR"}


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
#: instead: (names, space-separated; takes a value; the si-lint equivalent)
RUFF_REFUSED = (
    ("--target-version", True, "the profile decides: --profile or `profile` in si-lint.toml"),
    ("--line-length", True, "si-lint has no layout rules (yamllint checks layout)"),
    ("--preview --no-preview", False, "every si-lint rule is stable (`si-lint rule`)"),
    ("--extension", True, "`include` in si-lint.toml selects the files"),
    ("--add-noqa --add-ignore", False, "--write-baseline FILE, then --baseline FILE"),
    ("--ignore-noqa", False, "none: `# si-lint: disable=` comments always count"),
    ("--per-file-ignores --extend-per-file-ignores", True, "`per-file-ignores` in si-lint.toml"),
    (
        "--fixable --unfixable --extend-fixable",
        True,
        "--select/--ignore with --fix (the selected findings' fixes are applied)",
    ),
    ("--exclude --extend-exclude", True, "`exclude` in si-lint.toml"),
    ("--respect-gitignore --no-respect-gitignore", False, "none: .gitignore always counts"),
    (
        "--force-exclude --no-force-exclude",
        False,
        "none: a named file that `exclude` matches is always skipped",
    ),
    ("--no-fix-only", False, "leave out --fix-only"),
    ("--no-exit-zero", False, "leave out --exit-zero"),
)


def _refuse(name: str, equivalent: str, ctx, param, value):
    if value in (None, False, ()):
        return value
    raise UsageError(f"{name} is a ruff option with no meaning for si-lint: {equivalent}")


def ruff_refused(f):
    """Hidden options: ruff's that si-lint refuses, each naming its equivalent (exit 2)."""
    for names, takes_value, equivalent in RUFF_REFUSED:
        for name in names.split():
            f = click.option(
                name,
                "ruff_" + name.strip("-").replace("-", "_"),
                is_flag=not takes_value,
                multiple=takes_value,
                hidden=True,
                expose_value=False,
                callback=partial(_refuse, name, equivalent),
            )(f)
    return f
