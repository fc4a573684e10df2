"""Fixing the text of a file: one document (:func:`fix_text`) or a stream of them
(:func:`fix_stream`). The round trip of the original and the one with the fixes (YAML: the
indentation that reproduces the original best; JSON: the original's indent) differ where
:mod:`.patch` changes the original; the result must load to exactly the fixed data, or the
file stays as it was (:class:`~si_lint.fix.FixError`)."""

from __future__ import annotations

import copy
import difflib
import io
import json
import re
from typing import TypeGuard

from ..loader import load_bytes
from ..source import token_end
from . import Fix, FixError
from .apply import apply_to, ordered, plain, resolve
from .patch import patch

#: loader findings that mean the text cannot be rewritten safely
_UNCLEAN = ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007")

_INDENTS = ((2, 2, 0), (2, 4, 2), (4, 4, 2), (4, 4, 0), (2, 3, 1), (4, 6, 4), (3, 3, 0), (4, 5, 3))


def _yaml(indent):
    from ruamel.yaml import YAML  # (ruamel, ~10 ms: only when a fix is written)

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return y


def _dump(y, data) -> str:
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


def yaml_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    """(round trip of the original, round trip with the fixes, fixes applied)."""
    best: tuple | None = None
    for indent in _INDENTS:
        y = _yaml(indent)
        try:
            data = y.load(text)
            base = _dump(y, data)
        except Exception as exc:
            raise FixError(f"cannot round-trip the file ({type(exc).__name__})") from exc
        diff = difflib.ndiff(text.splitlines(), base.splitlines())
        score = sum(1 for line in diff if line[:1] in "+-")
        if best is None or score < best[0]:
            best = (score, y, data, base)
        if score == 0:
            break
    assert best is not None  # _INDENTS is not empty: the first indent sets it
    _, y, data, base = best
    if text.lstrip().startswith("---"):
        y.explicit_start = True
        base = _dump(y, data)
    applied = [f for f in fixes if apply_to(data, f)]
    return base, _dump(y, data), applied


def json_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FixError("cannot parse the JSON file") from exc
    lines = text.splitlines()[1:]
    indent = next(
        (len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip(" ") and ln[0] == " "), 2
    )
    base = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    applied = [f for f in fixes if apply_to(data, f)]
    return base, json.dumps(data, indent=indent, ensure_ascii=False) + "\n", applied


def _substitute_scalars(body: str, loaded, fixes: list[Fix], plain_style: bool) -> str | None:
    """Fallback for scalar-for-scalar fixes in parts of a file the round trip would
    reformat: replace each old scalar's text (one line) by the new value in the old style."""
    lines = body.split("\n")
    edits = []
    for f in fixes:
        if f.op != "set":
            return None
        found = resolve(loaded.data, f.path)
        if found is None:
            return None
        parent, key = found
        old = parent[key]
        if isinstance(old, (dict, list)) or isinstance(f.value, (dict, list, tuple)):
            return None
        line, col = loaded.pos.value(f.path)
        if not 1 <= line <= len(lines):
            return None
        src = lines[line - 1]
        if (
            isinstance(old, str)
            and old
            and src[col - 1 : col] not in ("'", '"')
            and src[col - 1 :].startswith(old)
        ):
            end = col + len(old)  # a plain scalar is its own text
        else:
            end = token_end(src, col)
        old_text, value = src[col - 1 : end - 1], f.value
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif value is None:
            text = "null"
        elif isinstance(value, (int, float)):
            text = repr(value)
        elif not isinstance(value, str):
            return None
        elif old_text.startswith("'"):
            text = "'" + value.replace("'", "''") + "'"
        elif old_text.startswith('"') or not plain_style:
            text = json.dumps(value, ensure_ascii=False)
        else:
            text = value
        edits.append((line, col, end, text))
    for line, col, end, text in sorted(edits, reverse=True):
        src = lines[line - 1]
        lines[line - 1] = src[: col - 1] + text + src[end - 1 :]
    return "\n".join(lines)


def fix_text(text: str, fixes: list[Fix], *, json_file: bool = False) -> tuple[str, list[Fix]]:
    """(new text, fixes applied) of one document; FixError when it cannot be done safely."""
    fixes = ordered(fixes)
    if not fixes:
        return text, []
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    crlf = "\r\n" in body and body.count("\r\n") == body.count("\n")
    if crlf:
        body = body.replace("\r\n", "\n")
    before = load_bytes(body.encode("utf-8"))
    if not _clean(before):
        raise FixError("the file does not load cleanly")
    if len(before.starts) > 1:
        raise FixError("the text holds more than one document (see fix_stream)")
    base, mod, applied = (json_versions if json_file else yaml_versions)(body, fixes)
    if not applied or base == mod:
        return text, []
    # the result must load to exactly the fixed data, or the file stays as it was
    expected = _fixed_data(before.data, applied)
    if expected is None:
        raise FixError("the fix does not apply to the loaded data")
    # the first candidate that loads to exactly that: the round trip's changed lines carried
    # into ``body`` (comments realigned, then not), else each scalar replaced where it stands
    new: str | None = None
    problem = "the rewritten file would not hold exactly the fixed data"
    for realign in (True, False):
        try:
            candidate = patch(body, base, mod, realign)
        except FixError as exc:
            problem = str(exc)
            break
        if _holds(candidate, before, [expected]):
            new = candidate
            break
    if new is None:
        new = _substituted(body, before, applied, before, [expected])
    if new is None:
        raise FixError(problem)
    if crlf:
        new = new.replace("\n", "\r\n")
    return bom + new, applied


def _fixed_data(data, fixes: list[Fix]):
    """A fixed copy of ``data``; None when a fix does not apply."""
    data = copy.deepcopy(data)
    for f in fixes:
        if not apply_to(data, Fix(f.op, f.path, plain(f.value))):
            return None
    return data


def _clean(loaded) -> bool:
    return not loaded.failed and not any(d.code in _UNCLEAN for d in loaded.findings)


def _substituted(text: str, loaded, fixes: list[Fix], before, expected: list) -> str | None:
    """``text`` with each scalar fix made in place, plain, then quoted, loading to ``expected``."""
    for plain_style in (True, False):
        candidate = _substitute_scalars(text, loaded, fixes, plain_style)
        if _holds(candidate, before, expected):
            return candidate
    return None


def _holds(candidate: str | None, before, expected: list) -> TypeGuard[str]:
    """Whether ``candidate`` loads cleanly (SI008 aside) to ``expected``, document for document."""
    if candidate is None:
        return False
    after = load_bytes(candidate.encode("utf-8"))
    return (
        not after.failed
        and all(d.code == "SI008" for d in after.findings)
        and len(after.starts) == len(before.starts)
        and len(after.documents) == len(expected)
        # compared as JSON text: types count (``1 == True`` must not hide a change)
        and all(
            json.dumps(a.data, default=repr) == json.dumps(e, default=repr)
            for a, e in zip(after.documents, expected)
        )
    )


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` with their ``\\n`` (only ``\\n`` ends one, as for the loader's marks)."""
    return re.findall(r"[^\n]*\n|[^\n]+", text)


def fix_stream(text: str, fixes: dict, *, json_file: bool = False) -> tuple[str, list[tuple]]:
    """(new text, the (document, fix) pairs applied); ``fixes`` maps a document index (None:
    the file's only document) to its fixes. Each document's piece of the file (from its
    ``---``; the header stays with the first) is fixed on its own, so every other document,
    comment and ``---`` is kept byte for byte."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    loaded = load_bytes(text[len(bom) :].encode("utf-8"))
    wanted = {k: v for k, v in fixes.items() if v}
    if json_file or len(loaded.starts) <= 1:
        new, done = fix_text(text, [f for v in wanted.values() for f in v], json_file=json_file)
        return new, [(key, f) for f in done for key in wanted if f in wanted[key]][: len(done)]
    if loaded.failed:
        raise FixError("the file does not load cleanly")
    lines = lines_of(text[len(bom) :])
    starts = list(loaded.starts)
    starts[0] = 0
    bounds = starts + [len(lines)]
    pieces = ["".join(lines[bounds[k] : bounds[k + 1]]) for k in range(len(starts))]
    applied: list[tuple] = []
    for index, doc_fixes in wanted.items():
        # None: the file's only document (perhaps after an empty one)
        k = index if index is not None else (loaded.documents[0].index if loaded.documents else 0)
        if not 0 <= k < len(pieces):
            continue
        new, done = fix_text(pieces[k], doc_fixes)
        pieces[k] = new
        applied.extend((index, f) for f in done)
    if not applied:
        return text, []
    out = "".join(pieces)
    after = load_bytes(out.encode("utf-8"))
    if after.failed or len(after.starts) != len(loaded.starts):
        raise FixError("the rewritten file would not hold the same documents")
    return bom + out, applied


def fix_scalars_in_place(text: str, document: int | None, fixes: list[Fix]) -> str | None:
    """The quick way to the edit ``--fix`` makes when scalar-for-scalar ``set`` fixes of
    ``document`` (None: the first) change no structure (``--format json``'s ``fix``). None
    when they are not, the file does not load cleanly (or has a BOM or CRLF line ends), or
    the result would not load to the fixed data: then :func:`fix_stream` is the way."""
    if text.startswith("\ufeff") or "\r" in text or not fixes:
        return None
    before = load_bytes(text.encode("utf-8"))
    docs = before.documents
    if not _clean(before) or not docs:
        return None
    target = (
        next((d for d in docs if d.index == document), None) if document is not None else docs[0]
    )
    fixed = _fixed_data(target.data, fixes) if target is not None else None
    if fixed is None:
        return None
    expected = [fixed if d is target else d.data for d in docs]
    return _substituted(text, target, fixes, before, expected)
