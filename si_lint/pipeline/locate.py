"""Stage 6, locate: each :class:`Diag` becomes a :class:`Finding` at a line:col; then the
configuration, the suppression comments and the reported files are applied."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..catalogue import codes as catalogue_codes
from ..catalogue import severity_of
from ..corpus import Corpus, Document
from ..discovery import relpath_of
from ..findings import Diag, Finding, Location, did_you_mean, format_path
from ..limits import MAX_BYTES, MAX_FINDINGS_PER_FILE
from .context import State
from .read import raw_of


def _position(doc: Document | None, path, on: str) -> tuple[int, int]:
    if doc is None or path is None:
        return 1, 1
    return doc.pos.value(path) if on == "value" else doc.pos.key(path)


def _finding(diag: Diag, path: str, target: Document | None, related: tuple) -> Finding:
    if diag.line is not None:
        line, col = diag.line, diag.col or 1
    else:
        line, col = _position(target, diag.path, diag.on)
    return Finding(
        path=path,
        line=line,
        column=col,
        code=diag.code,
        severity=diag.severity or severity_of(diag.code),
        message=diag.message,
        help=diag.help,
        doc_path=format_path(diag.path) if diag.path and diag.line is None else None,
        related=related,
        detail=diag.detail,
        fix=diag.fix,
        document=target.index if target is not None and target.multi else None,
    )


def locate_in(diag: Diag, doc: Document) -> Finding:
    """A per-file check's Diag (a related location with ``file=""`` is in ``doc``'s file)."""
    related = tuple(
        Location(r.file or doc.relpath, r.line if r.line is not None else 1, r.col or 1, r.message)
        if r.line is not None or (r.file or doc.relpath) != doc.relpath
        else Location(doc.relpath, *_position(doc, r.path, r.on), r.message)
        for r in diag.related
    )
    if diag.file is not None and diag.file != doc.relpath:
        return _finding(diag, diag.file, None, related)
    return _finding(diag, doc.relpath, doc, related)


def located(corpus: Corpus, sel, diags: Iterable[Diag]) -> list[Finding]:
    """The corpus checks' findings (a Diag that names no file: at the corpus root)."""
    root_rel = sel.relpath(sel.root)
    out = []
    for diag in diags:
        related = tuple(
            Location(r.file, r.line, r.col or 1, r.message)
            if r.line is not None
            else Location(
                r.file, *_position(corpus.doc(r.file, r.document), r.path, r.on), r.message
            )
            for r in diag.related
        )
        target = corpus.doc(diag.file, diag.document)
        out.append(_finding(diag, diag.file or root_rel, target, related))
    return out


def walk_findings(sel) -> list[Finding]:
    """SI001 for each path the walk could not read (a directory, a name not UTF-8)."""
    return [
        Finding(sel.relpath(p), 1, 1, "SI001", severity_of("SI001"), f"cannot be read: {why}")
        for p, why in sel.walk_problems
    ]


def apply_suppressions(
    findings: list[Finding], files: dict[str, list[Document]], config
) -> list[Finding]:
    """Drop suppressed findings; SI009 for suppressions that suppressed nothing. A file's
    suppressions cover its lines whatever document a line is in."""
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.path, []).append(f)
    with_sups = {p for p, docs in files.items() if docs and docs[0].suppressions}
    out: list[Finding] = []
    for path in sorted(set(by_file) | with_sups):
        items = by_file.get(path, [])
        docs = files.get(path, [])
        sups = docs[0].suppressions if docs else []
        if not sups:
            out.extend(items)
            continue
        used = [False] * len(sups)
        # codes are upper case (SPEC §7); a lower-case one works as in `--select`
        upper = [tuple(c.upper() for c in codes) for _line, _col, _kind, codes in sups]
        for f in items:
            # a finding on the comment's line ("line"), the next one ("above"), any ("file")
            hits = [
                i
                for i, (line, _col, kind, _codes) in enumerate(sups)
                if any(f.code.startswith(c) for c in upper[i])
                and (kind == "file" or f.line == line + (kind == "above"))
            ]
            for i in hits:
                used[i] = True
            if not hits:
                out.append(f)
        if config.enabled("SI009", path):
            found = (_useless_suppression(path, s, used[i], docs) for i, s in enumerate(sups))
            out += [f for f in found if f is not None]
    return out


def _useless_suppression(path: str, sup: tuple, used: bool, docs) -> Finding | None:
    """SI009 for a suppression that suppressed nothing or names no rule (with the nearest
    code: ``SI1133`` → ``SI113``)."""
    line, col, kind, codes = sup
    known = catalogue_codes()
    unknown = [c for c in codes if not any(k.startswith(c.upper()) for k in known)]
    if used and not unknown:
        return None
    what = "disable-file" if kind == "file" else "disable"
    message = f"suppression `si-lint: {what}={','.join(codes)}`"
    message += "" if used else " suppresses nothing"
    hints = [(c, did_you_mean(c.upper(), known)) for c in unknown]
    if unknown:
        names = ", ".join(f"`{c}`" for c in unknown)
        message += f": {names} {'is no rule' if len(unknown) == 1 else 'are no rules'}"
    if len(hints) == 1 and hints[0][1]:
        help_text = hints[0][1]
    elif any(h for _c, h in hints):
        help_text = "; ".join(f"for `{c}`: {h}" for c, h in hints if h)
    else:
        help_text = "remove the comment" if not used else f"remove {names} from the comment"
    return Finding(
        path=path,
        line=line,
        column=col,
        code="SI009",
        severity=severity_of("SI009"),
        message=message,
        help=help_text,
        document=_document_at(docs, line),
    )


def _document_at(docs: list[Document], line: int) -> int | None:
    """The last document of a multi-document file that starts at or before ``line``."""
    if not docs or not docs[0].multi:
        return None
    best = docs[0]
    for d in docs:
        if min((v[0] for v in d.pos.v.values()), default=line + 1) <= line:
            best = d
    return best.index


#: codes that say a reference resolves to nothing, with the kind of document that could
#: define it: such a finding depends on every document of that kind (a renamed scenario
#: leaves its fixtures dangling), so it is reported when one of them is named
UNRESOLVED = {"EIO102": "eio-module", "EIO117": "eio-module"}
# (SI303 relates to the scenario with the nearest id instead: SPEC §9 "Cross-file scope")


#: codes reported whatever paths are named: a profile refused (SI010) changes the findings
#: of every file checked, and nothing else says that it was not used
EVERY_RUN = frozenset({"SI010"})


def concerns_named(f: Finding, sel, named_kinds: set[str]) -> bool:
    """Whether a finding belongs in a report on the named paths only (SPEC §9): it is in a
    named file, or one of its related locations is (a staged duplicate id that sorts
    first: SI301 sits on the unstaged file), or it is an unresolved reference and a
    document of a kind that could resolve it is named, or it is :data:`EVERY_RUN`'s."""
    paths = [f.path, *(r.path for r in f.related)]
    if f.code in EVERY_RUN or any(sel.reports(sel.absolute(p)) for p in paths):
        return True
    return UNRESOLVED.get(f.code) in named_kinds


# Knock-on findings held back (SPEC §9 "Cross-file scope"): a reference (SI303, SI613) to
# an id a file that failed to read could define (its text holds the id, or could not be
# read whole) is not reported as missing: the file's own finding is the one to fix first.
FAILED = ("SI001", "SI005", "SI006", "SI007")
#: the missing-reference findings, and the id each names
REFERENCES = {
    "SI303": re.compile(r"names an unknown scenario `(.*)`$"),
    "SI613": re.compile(r"companion scenario `(.*)` is no scenario in the corpus$"),
}


def failed_texts(per_file: dict, absolute, overrides: dict) -> list[str | None]:
    """The text of each file of ``per_file`` that failed to read (None: it could not be
    read whole)."""
    failed = [rel for rel, fs in sorted(per_file.items()) if any(f.code in FAILED for f in fs)]
    raws = [raw_of(absolute(rel), overrides) for rel in failed]
    return [None if r is None or len(r) > MAX_BYTES else r.decode("utf-8", "replace") for r in raws]


def held_back_by(findings: list[Finding], texts: list[str | None]) -> list[Finding]:
    """``findings`` without the references to ids one of ``texts`` could define."""
    kept = []
    for f in findings:
        pattern = REFERENCES.get(f.code)
        match = pattern.search(f.message) if pattern is not None else None
        if match is not None and any(t is None or match.group(1) in t for t in texts):
            continue
        kept.append(f)
    return kept


def locate_stage(state: State) -> None:
    sel = state.selection
    corpus = state.corpus
    assert corpus is not None  # the corpus stage ran
    findings = [f for doc_findings in state.per_file.values() for f in doc_findings]
    findings += located(corpus, sel, state.diags) + walk_findings(sel)
    findings = configured(findings, corpus.by_file, sel.config, sel.absolute)
    named_kinds = {
        kind
        for kind in set(UNRESOLVED.values())
        if any(sel.reports(d.abspath) for d in corpus.of_kind(kind))
    }
    findings = [f for f in findings if concerns_named(f, sel, named_kinds)]
    if any(f.code in REFERENCES for f in findings):  # a failed read could resolve them
        texts = failed_texts(state.per_file, sel.absolute, state.overrides)
        findings = held_back_by(findings, texts)
    state.findings = ordered(findings)


def configured(findings: list[Finding], files: dict, config, absolute) -> list[Finding]:
    """The configuration's ``select``/``ignore``/``per-file-ignores``, then the
    suppression comments (the language server's findings too)."""
    findings = [
        f for f in findings if config.enabled(f.code, relpath_of(absolute(f.path), config.root))
    ]
    return apply_suppressions(findings, files, config)


def sorted_unique(findings: list[Finding]) -> list[Finding]:
    """The report order (stable), repeats dropped."""
    unique: dict[tuple, Finding] = {}
    for f in sorted(findings, key=Finding.sort_key):
        unique.setdefault((f.path, f.document, f.line, f.column, f.code, f.message), f)
    return list(unique.values())


def ordered(findings: list[Finding]) -> list[Finding]:
    """The report order, at most :data:`MAX_FINDINGS_PER_FILE` findings per file, then one
    SI005 at the first one left out."""
    findings = sorted_unique(findings)
    counts = Counter(f.path for f in findings)
    out: list[Finding] = []
    seen: dict[str, int] = {}
    limit = MAX_FINDINGS_PER_FILE
    for f in findings:
        n = seen[f.path] = seen.get(f.path, 0) + 1
        if n <= limit:
            out.append(f)
        elif n == limit + 1:
            more = counts[f.path] - limit
            message = f"{more:,} more findings suppressed (at most {limit:,} are reported per file)"
            out.append(
                Finding(
                    f.path,
                    f.line,
                    f.column,
                    "SI005",
                    severity_of("SI005"),
                    message,
                    help="fix the findings above, then run again",
                )
            )
    return out
