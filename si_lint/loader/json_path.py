"""The fast path for a JSON document: the stdlib's C parser reads the data, and the
positions are read from libyaml's events only when something asks for them.

Every JSON text is YAML 1.2 and reads as the same data (the core schema resolves JSON's
numbers, ``true``, ``false`` and ``null`` as JSON does), so this path is taken only where
it gives exactly what the event path gives, and declines (returns None) for every text
where the two could differ or the event path would have something to say:

- anything that is not one JSON value (a second document, a comment, YAML syntax);
- a duplicate key (SI002), an integer near the digit limit (SI005), an escaped surrogate
  (SI006's lone-surrogate finding), ``NaN``/``Infinity`` (strings to YAML);
- a character YAML does not allow or reads as a line break (C0/C1 controls, DEL,
  U+FFFE/U+FFFF, NEL, U+2028/U+2029);
- text that could pass the node or nesting limits (SI005), counted from an overestimate;
- ``si-lint:`` anywhere (a scalar that looks like a suppression comment is noted);
- a tab before the document's first bracket (valid YAML 1.2, which libyaml refuses).

``tests/test_loader_json.py`` compares the two paths on the YAML test suite's JSON inputs
and on generated JSON in many layouts: the same data, findings, positions and starts."""

from __future__ import annotations

import json
import re
import sys
from functools import cache

from ..limits import MAX_DEPTH, MAX_NODES, depth_of
from .documents import Loaded, LoadedDoc, PosMap
from .scalars import HUGE_MIN, INTERN_MAX

#: what a JSON text starts with (after its white space)
_START = re.compile(r"[ \t\r\n]*[\[{]")


@cache
def _unsafe() -> re.Pattern:
    """What YAML refuses, or reads as a line break, anywhere in a stream; compiled on first
    use (6 ms: a run that loads no JSON text never needs it)."""
    return re.compile(
        "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
    )


#: an escaped UTF-16 surrogate (a lone one is a finding on the event path)
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")

_intern = sys.intern  # keys and short strings, as the event path does (INTERN_MAX)


class _Decline(ValueError):
    """The event path must read this text."""


def _pairs(pairs: list) -> dict:
    out = {
        _intern(k): (_intern(v) if type(v) is str and len(v) <= INTERN_MAX else v) for k, v in pairs
    }
    if len(out) != len(pairs):
        raise _Decline("duplicate key")
    return out


def _int(text: str) -> int:
    if len(text) >= HUGE_MIN:
        raise _Decline("a huge integer")
    return int(text)


def _constant(text: str):
    raise _Decline(text)


#: one decoder for every text: ``json.loads`` with hooks builds a decoder and its scanner
#: on every call (3 us, 0.1 s over the 36,000 artifacts of the 40,000-file bench corpus)
_DECODE = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_int=_int, parse_constant=_constant
).decode


def load_json(text: str) -> Loaded | None:
    """``text`` read as one JSON document, with lazy positions; None when the event path
    must read it (see the module's docstring)."""
    start = _START.match(text)
    if start is None or "si-lint:" in text or _unsafe().search(text) is not None:
        return None
    if "\t" in start.group():  # a tab before the document: libyaml refuses it (6CA3, Q5MG)
        return None
    if "\\u" in text and _ESCAPED_SURROGATE.search(text) is not None:
        return None
    if text.count(",") + text.count("[") + text.count("{") + 1 >= MAX_NODES:
        return None
    try:
        data = _DECODE(text)
    except (ValueError, RecursionError):  # not JSON, or _Decline
        return None
    if type(data) is str and len(data) <= INTERN_MAX:
        data = _intern(data)
    if depth_of(data, MAX_DEPTH) >= MAX_DEPTH:  # the events decide at the limit
        return None
    before = text[: start.end() - 1]  # white space: the lines before, as YAML counts them
    line = before.count("\n") + before.count("\r") - before.count("\r\n")
    return Loaded(
        documents=[LoadedDoc(0, data, LazyPosMap(text))], findings=[], quiet_spans=[], starts=[line]
    )


class LazyPosMap(PosMap):
    """The positions of a document the JSON path read: read from libyaml's events when
    first asked for (a finding in the document, ``--fix``, the language server). Until
    then :meth:`to_blob` is None: a cache entry keeps none, and the file is read again
    if they are needed (``corpus.Document.pos``)."""

    __slots__ = ("_text",)

    def __init__(self, text: str):  # k and v stay unset until first asked for
        self._text: str | None = text

    def __getattr__(self, name: str):
        if name not in ("k", "v") or self._text is None:
            raise AttributeError(name)
        from . import load_events

        docs = load_events(self._text).documents
        pos = docs[0].pos if len(docs) == 1 else PosMap()
        self.k, self.v = pos.k, pos.v
        self._text = None
        return getattr(self, name)

    def to_blob(self, data) -> str | None:
        return None if self._text is not None else super().to_blob(data)
