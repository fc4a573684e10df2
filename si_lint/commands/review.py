"""`si-lint review --base DIR|REV|builtin [--profile DIR]`."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path

import click

from ..config import load_config
from ..discovery import inside
from ..errors import UsageError
from ..pipeline import Options, build_corpus
from ..report.output import write
from ..review.reach import CorpusView
from ..review.render import render
from ..review.run import ReviewError, build_report, exit_status, resolve_base, resolve_head
from . import options


@click.command("review")
@click.argument("path", required=False, default=".", type=click.Path())
@options.declare(
    (
        "--base",
        "The profile to compare against: a profile directory, a git revision of the "
        "corpus's profile directory (copied into a temporary directory; entries that would "
        "land outside it, symbolic links and submodules are refused and reported), `builtin` "
        "(the shipped si 0.3.0-rc1) or `builtin:oasisctl` (the same registry with oasisctl's "
        "constants).",
        {"required": True, "metavar": "DIR|REV|builtin|builtin:oasisctl"},
    ),
    (
        "--profile",
        "The proposed profile: a directory or a shipped profile (default: the "
        "corpus's configured profile).",
        {"metavar": "DIR|builtin|builtin:oasisctl"},
    ),
    options.fmt(
        "text", "json", "markdown", help="Output format (markdown: for a pull-request review)."
    ),
    ("--output -o", "Write the report to FILE.", options.FILE),
    (
        "--trust-implementations",
        "Import and run the profiles' primitive implementations to recompute every "
        "verdict (otherwise the review is static).",
    ),
)
def command(path, base, profile, fmt, output, trust_implementations):
    """Review a registry/profile change: added, removed and changed primitives, parameters,
    channels, synonym lists, templates, ratified budgets, matching constants and promoted
    candidates; the
    templates, scenarios and fixtures each change reaches; the fixture verdicts that change;
    the `check` findings the change adds and removes (the corpus checked under both
    profiles); a warning when the content changed but `registry.version` did not; and a
    static review (SI501–SI507) of the proposed implementations.

    Exit status: 0, or 1 when the proposed implementations have an error-severity finding
    or entries of the base revision's tree were refused, 2 on a usage error."""
    cwd = Path.cwd().resolve()
    target = cwd / path
    if not target.exists():
        raise UsageError(f"{path}: no such file or directory")
    try:
        config = load_config(target if target.is_dir() else target.parent)
        head = resolve_head(profile, config, cwd, trust_implementations)
        with tempfile.TemporaryDirectory(prefix="si-lint-review-") as tmp:
            base_side = resolve_base(base, head, cwd, trust_implementations, Path(tmp))
            corpus, _sel = build_corpus([str(target)], Options(use_cache=False), cwd, config=config)
            top = head.directory and os.path.abspath(head.directory)
            docs = [
                replace(d, profile_asset=True)
                if top and inside(os.path.abspath(d.abspath), top)
                else d
                for d in corpus.documents
            ]
            view = CorpusView.from_documents(docs)
            report = build_report(base_side, head, view, cwd, trust_implementations, target)
    except ReviewError as exc:
        raise UsageError(str(exc)) from None
    write(render(report, fmt), output, color=None)
    return exit_status(report)
