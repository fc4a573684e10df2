"""The configured profile as the corpus holds it: its implementations reviewed statically
(SI501–SI507, SPEC §2.1; only a profile directory of the corpus's own: the test-suite
reviews the built-ins), its matching constants (SI212, SI213) and a profile path that leads
outside its place (SI010, SPEC §9 "Trust boundaries": refused, never read, reported here)."""

from __future__ import annotations

import os
from pathlib import Path

from si_lint.checks.base import corpus_check, file_check
from si_lint.checks.primitive_review.profile_review import CODES, HELP, review_profile
from si_lint.findings import Diag
from si_lint.profile import BUILTIN_DIR, constants_problems

CONSTANTS_HELP = {
    "SI212": "`cooccurrence_radius` counts sentences either side of the identifier's: 0 (the "
    "seed: the same sentence), 1 (oasisctl), ...",
    "SI213": "`synonym_match: token | substring`, `echo_line: raw | trimmed`",
}
CONFIG_HELP = (
    "move the profile directory under the corpus root and name it relative to the root; "
    "a profile from elsewhere can only be chosen on the command line (`--profile DIR`)"
)


def _profile_relpath(registry_relpath: str, rel_in_profile: str) -> str:
    """The path of a profile file, relative to wherever ``registry_relpath`` is relative to."""
    base = os.path.dirname(registry_relpath.replace("\\", "/"))
    return os.path.normpath(os.path.join(base, rel_in_profile)).replace(os.sep, "/")


def _registry_document(corpus, profile):
    if profile.root is None:
        return None
    target = os.path.normcase(os.path.abspath(Path(profile.root) / "registry.yaml"))
    # a registry that failed to load has no kind
    for doc in (*corpus.of_kind("registry"), *corpus.documents):
        if os.path.normcase(os.path.abspath(doc.abspath)) == target:
            return doc
    return None


@corpus_check(*CODES, reads=("profile",))
def implementations(corpus, ctx):
    profile = ctx.profile
    if profile.root is None or os.path.abspath(profile.root) == os.path.abspath(BUILTIN_DIR):
        return
    doc = _registry_document(corpus, profile)
    if doc is None:
        return
    for f in review_profile(profile):
        if f.file is not None:
            at = {"file": _profile_relpath(doc.relpath, f.file), "line": f.line, "col": f.col}
        else:
            at = {"on": f.on, "file": doc.relpath, "document": doc.index}
        yield Diag(f.code, f.registry_path, f.message, help=HELP.get(f.code), **at)


@file_check("SI212", "SI213", kinds=("registry",))
def registry_constants(doc, ctx):
    for path, message in constants_problems(doc.data):
        code = "SI212" if path[-1] == "cooccurrence_radius" else "SI213"
        if path != ("constants",):  # not a mapping: SI003 (the schema) says so
            yield Diag(code, path, message, on="value", help=CONSTANTS_HELP[code])


@corpus_check("SI010", reads=("profile",))
def profile_paths(corpus, ctx):
    if ctx.config.profile_refused:
        where, line, col, message = ctx.config.profile_refused
        yield Diag("SI010", (), message, file=where, line=line, col=col, help=CONFIG_HELP)
    doc = _registry_document(corpus, ctx.profile) if ctx.profile.refused else None
    if doc is None:
        return
    for rel, why in ctx.profile.refused:
        path = _profile_relpath(doc.relpath, rel)
        help_ = "replace the link with the file itself, inside the profile directory"
        yield Diag("SI010", (), f"`{rel}` {why}: not read", file=path, line=1, col=1, help=help_)
