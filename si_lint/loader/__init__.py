"""Read a YAML stream or a JSON document into plain data and positions per document: with
libyaml, and with ruamel's pure-Python parser where libyaml rejects the text (it rejects some
valid YAML 1.2). Nothing here raises on bad input: every problem is a finding (:mod:`.diags`)."""

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
    """libyaml's parser, or None; imported on first use (a warm run parses nothing)."""
    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML built without its C extension
        return None
    return CParser


__all__ = ["CODES", "MAX_BYTES", "PosMap", "load_bytes", "load_text", "resolve_plain"]


def _line_col(before: str) -> tuple[int, int]:
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def load_bytes(raw: bytes) -> Loaded:
    """Read a stream of documents from UTF-8 bytes (a BOM allowed)."""
    if len(raw) > MAX_BYTES:
        return Loaded(failed=True, findings=[diags.diag("too_large")])
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:  # SI006 at the first bad byte
        where = _line_col(raw[: exc.start].decode("utf-8", "replace"))
        diag = diags.diag("not_utf8", *where, byte=raw[exc.start], offset=exc.start)
        return Loaded(failed=True, findings=[diag])
    out = load_text(text)
    out.text = text
    return out


def load_text(text: str) -> Loaded:
    """SI001 when both parsers reject ``text`` (a JSON text is YAML 1.2 too)."""
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
        where = getattr(err, "problem_mark", None)
        line, col = mark(where) if where is not None else (1, 1)
        position = getattr(err, "position", None)  # ReaderError: a character offset
        if where is None and isinstance(position, int) and 0 <= position <= len(text):
            line, col = _line_col(text[:position])
        msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return Loaded(failed=True, findings=[diags.invalid_yaml(msg, line, col)])


def _short_answer(text: str) -> Loaded | None:
    """The parse error of ``text``, found in its shortened text (:mod:`.shorten`); None
    when it cannot be told that way."""
    from ruamel.yaml.error import MarkedYAMLError  # see load_text

    short = shorten.shorten(text)
    if short is None:
        return None
    try:
        Builder(_pure_events(short.text), short.text).build()
    except MarkedYAMLError as exc:
        if any(m and shorten.LETTERS.search(m) for m in (exc.problem, exc.context)):
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
    where = exc.problem_mark or exc.context_mark
    line, col = mark(where) if where is not None else (1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        problem = f"{exc.problem} ({exc.context})"
    return diags.invalid_yaml(problem, line, col)


def _pure_events(text: str):
    from ruamel.yaml import YAML  # see load_text

    return YAML(typ="safe", pure=True).parse(text).__next__
