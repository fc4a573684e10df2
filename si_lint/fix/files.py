"""``--fix`` and ``--diff``: which fixes are applied (safe ones; unsafe ones with
``--unsafe-fixes``), and rewriting or diffing the files that have them."""

from __future__ import annotations

import difflib
import hashlib
import os
from dataclasses import dataclass, field

from ..fsutil import ReadOnlyFile, atomic_write, read_regular
from ..limits import MAX_BYTES
from . import FixError, fixes_of
from .text import fix_stream

#: fixes ``--fix`` applies: they keep what a scenario means (SPEC §9). Every other fix
#: (SI113, SI105, SI101–SI103, EIO106, EIO114, ...) changes what the scenario or module
#: scores, and is applied only with ``--unsafe-fixes``.
SAFE_FIX_CODES = frozenset({"SI117", "SI119"})
#: the codes whose checks attach an unsafe fix today (documentation: docs/rules/CODE.md)
UNSAFE_FIX_CODES = frozenset(
    {"SI101", "SI102", "SI103", "SI105", "SI113", "SI115", "EIO106", "EIO114"}
)


def is_safe(finding) -> bool:
    return finding.code in SAFE_FIX_CODES


def fixable(finding, unsafe: bool = False) -> bool:
    return bool(fixes_of(finding.fix)) and (unsafe or is_safe(finding))


@dataclass
class FixReport:
    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    fixed: list = field(default_factory=list)  # the findings fixed (or fixable, for --diff)


def fix_files(result, *, write: bool, diff_stream=None, unsafe: bool = False) -> FixReport:
    """Rewrite (``write=False``: only diff) each file with fixable findings, or skip it."""
    report = FixReport()
    plan: dict[str, list] = {}  # file -> [(finding, its fixes)]
    for f in result.findings:
        if fixable(f, unsafe):
            plan.setdefault(f.path, []).append((f, fixes_of(f.fix)))
    corpus = getattr(result, "corpus", None)
    for relpath, items in sorted(plan.items()):
        try:
            done = _fix_file(relpath, items, corpus, write=write, diff_stream=diff_stream)
        except FixError as exc:
            report.skipped.append((relpath, str(exc)))
            continue
        if done is None:
            continue
        report.fixed.extend(done)
        report.files.append(relpath)
    return report


def _fix_file(relpath: str, items, corpus, *, write: bool, diff_stream) -> list | None:
    """The findings fixed, None when nothing changes; FixError when the file is left alone."""
    abspath, text = read_text(relpath, corpus)
    fixes: dict = {}
    for f, fxs in items:
        fixes.setdefault(f.document, []).extend(fxs)
    try:
        new, applied = fix_stream(text, fixes, json_file=relpath.endswith(".json"))
    except FixError:
        raise
    except Exception as exc:
        raise FixError(f"internal error ({type(exc).__name__}: {exc})") from exc
    if new == text or not applied:
        return None
    applied_keys = {(d, f.op, f.path) for d, f in applied}
    done = [
        f for f, fxs in items if all((f.document, fx.op, fx.path) in applied_keys for fx in fxs)
    ]
    if diff_stream is not None:
        old_lines, new_lines = text.splitlines(keepends=True), new.splitlines(keepends=True)
        for line in difflib.unified_diff(
            old_lines, new_lines, fromfile=f"a/{relpath}", tofile=f"b/{relpath}"
        ):
            diff_stream.write(
                line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            )
    if write:
        # through a link to its target (discovery keeps only links inside the root), keeping
        # the mode and hard links; a read-only file is refused (its findings stay reported)
        try:
            atomic_write(abspath, new.encode("utf-8"), follow_symlinks=True)
        except ReadOnlyFile:
            raise FixError("the file is read-only; its findings stay reported") from None
        except OSError as exc:
            raise FixError(f"cannot write it ({exc.strerror or type(exc).__name__})") from None
    return done


def read_text(relpath: str, corpus, checked: bool = False) -> tuple[str, str]:
    """(absolute path, text): regular, bounded, UTF-8, and the bytes checked if ``checked``."""
    doc = corpus.doc(relpath) if corpus is not None else None
    abspath = doc.abspath if doc is not None else os.path.abspath(relpath)
    raw, why = read_regular(abspath, MAX_BYTES)
    if raw is None or len(raw) > MAX_BYTES:
        raise FixError(f"cannot read it ({why or 'over the size limit'})")
    sha = getattr(doc, "sha", "")
    if checked and sha and hashlib.sha256(raw).hexdigest() != sha:
        raise FixError("the file changed since it was checked")
    try:
        return abspath, raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FixError(f"cannot read it ({type(exc).__name__})") from None
