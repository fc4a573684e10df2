"""Read a YAML stream or a JSON document into plain data and positions per document.

The events are libyaml's (PyYAML's C binding); a file libyaml rejects (it rejects some
valid YAML 1.2), or any file where PyYAML has no C extension, is read by ruamel's
pure-Python parser before a parse error is reported. Nothing here raises on bad input:
every problem is a finding (:mod:`.diags`)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from ..findings import Diag
from ..limits import MAX_BYTES
from . import diags, shorten
from .builder import Builder, mark
from .diags import CODES
from .documents import Loaded, PosMap
from .scalars import resolve_plain


@cache
def _c_parser() -> Any:
    """libyaml's parser (PyYAML's C binding), or None; imported when a first text is parsed
    (PyYAML, ~12 ms: a warm run parses nothing)."""
    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML built without its C extension
        return None
    return CParser


__all__ = ["CODES", "MAX_BYTES", "PosMap", "load_bytes", "load_text", "resolve_plain"]


def _line_col(before: str) -> tuple[int, int]:
    """The 1-based line and column of what follows ``before``."""
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def load_bytes(raw: bytes) -> Loaded:
    """Read a stream of documents from UTF-8 bytes (a BOM allowed)."""
    if len(raw) > MAX_BYTES:
        return Loaded(failed=True, findings=[diags.too_large()])
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:  # SI006 at the first bad byte
        where = _line_col(raw[: exc.start].decode("utf-8", "replace"))
        return Loaded(failed=True, findings=[diags.not_utf8(raw[exc.start], exc.start, *where)])
    out = load_text(text)
    out.text = text
    return out


def load_text(text: str) -> Loaded:
    """Read a stream of documents from text (a JSON text is YAML 1.2 too); SI001 when
    both parsers reject it."""
    first_error: Any = None
    c_parser = _c_parser()
    if c_parser is not None:
        try:
            return Builder(c_parser(text).get_event, text).build()
        except Exception as exc:  # libyaml rejected it: ask the pure parser
            first_error = exc
    # ruamel.yaml (50 ms to import) only for a text libyaml rejects
    from ruamel.yaml.error import MarkedYAMLError

    if first_error is not None:  # most likely an error: found in the shortened text
        found = _short_answer(text)
        if found is not None:
            return found
    try:
        return Builder(_pure_events(text), text).build()
    except MarkedYAMLError as exc:
        return Loaded(failed=True, findings=[_marked_error(exc)])
    except Exception as exc:  # the pure parser fails in odd ways too (assertions)
        marked = hasattr(first_error, "problem_mark") and hasattr(first_error, "problem")
        err = first_error if marked else exc
        return Loaded(failed=True, findings=[_parser_failure(err, text)])


def _short_answer(text: str) -> Loaded | None:
    """The parse error ruamel's pure parser stops on in ``text``, found in the shortened
    text (:mod:`.shorten`), at its place in ``text``; None when it cannot be told that way."""
    from ruamel.yaml.error import MarkedYAMLError  # see load_text

    short = shorten.shorten(text)
    if short is None:
        return None
    try:
        Builder(_pure_events(short.text), short.text).build()
    except MarkedYAMLError as exc:
        if shorten.holds_a_run(exc.problem, exc.context):
            return None
        for name in ("problem_mark", "context_mark"):
            where = copy.copy(getattr(exc, name, None))
            if where is not None and not short.moved(where):
                return None
            setattr(exc, name, where)
        return Loaded(failed=True, findings=[_marked_error(exc)])
    except Exception:  # anything but a parse error with marks: the whole text says
        return None
    return None  # read: the whole text's answer is the answer


def _marked_error(exc) -> Diag:
    """SI001 for a parse error that says where it is (a ``MarkedYAMLError``)."""
    where = exc.problem_mark or exc.context_mark
    line, col = mark(where) if where is not None else (1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        problem = f"{exc.problem} ({exc.context})"
    return diags.invalid_yaml(problem, line, col)


def _parser_failure(err: Exception, text: str) -> Diag:
    """SI001 for any other parser failure, at its mark or character offset if it has one."""
    where = getattr(err, "problem_mark", None)
    line, col = mark(where) if where is not None else (1, 1)
    position = getattr(err, "position", None)  # ReaderError: a character offset
    if where is None and isinstance(position, int) and 0 <= position <= len(text):
        line, col = _line_col(text[:position])
    msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return diags.invalid_yaml(msg, line, col)


def _pure_events(text: str):
    """The next event of ruamel's pure-Python parser (the CParser's ``get_event``)."""
    from ruamel.yaml import YAML  # see load_text

    return YAML(typ="safe", pure=True).parse(text).__next__
