"""SI501–SI507: the configured profile's primitive implementations, reviewed statically
(SPEC §2.1 "Static review, pinned"; §7), only when the corpus configures a profile
directory of its own (the built-ins are reviewed by the test-suite). Findings in an
implementation are at line:col of its ``.py`` file; SI501/SI507 at the registry entry."""

from __future__ import annotations

import os
from pathlib import Path

from si_lint.checks.base import corpus_check
from si_lint.checks.primitive_review.profile_review import CODES, HELP, review_profile
from si_lint.findings import Diag
from si_lint.profile import BUILTIN_DIR


def _profile_relpath(registry_relpath: str, rel_in_profile: str) -> str:
    """The path of a profile file, relative to wherever ``registry_relpath`` is relative to."""
    base = os.path.dirname(registry_relpath.replace("\\", "/"))
    joined = (
        os.path.normpath(os.path.join(base, rel_in_profile))
        if base
        else os.path.normpath(rel_in_profile)
    )
    return joined.replace(os.sep, "/")


def _registry_document(corpus, root: Path):
    target = os.path.normcase(os.path.abspath(root / "registry.yaml"))
    # a registry that failed to load has no kind
    for doc in (*corpus.of_kind("registry"), *corpus.documents):
        if os.path.normcase(os.path.abspath(doc.abspath)) == target:
            return doc
    return None


def profile_file_relpath(corpus, profile, rel: str) -> str | None:
    """The path findings show for the file ``rel`` of ``profile``'s directory: beside its
    registry in the corpus (None when the registry is not in the corpus)."""
    root = getattr(profile, "root", None)
    doc = _registry_document(corpus, Path(root)) if root is not None else None
    return None if doc is None else _profile_relpath(doc.relpath, rel)


@corpus_check(*CODES, reads=("profile",))
def implementations(corpus, ctx):
    profile = ctx.profile
    root = getattr(profile, "root", None)
    if root is None:
        return
    root = Path(root)
    if os.path.abspath(root) == os.path.abspath(BUILTIN_DIR):
        return
    doc = _registry_document(corpus, root)
    if doc is None:
        return
    for f in review_profile(profile):
        if f.file is not None:
            at = {"file": _profile_relpath(doc.relpath, f.file), "line": f.line, "col": f.col}
        else:
            at = {"on": f.on, "file": doc.relpath, "document": doc.index}
        yield Diag(f.code, f.registry_path, f.message, help=HELP.get(f.code), **at)
