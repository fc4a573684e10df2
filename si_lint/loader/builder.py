"""Plain data and positions from a parser's event stream, built iteratively.

Building the data ourselves from events lets the loader enforce the safety limits while
reading (nesting depth, node count, alias expansion), report duplicate keys and non-core
tags with their positions, and resolve scalars with the YAML 1.2 core schema. Bad input
is a finding (:mod:`si_lint.loader.diags`), never an exception: a finding that stops the
reading (:class:`Abort`) ends the file as ``Loaded(failed=True)``."""

from __future__ import annotations

import re
import sys
from typing import Any

from ..findings import Diag
from ..limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_NODES
from . import diags
from .documents import Loaded, LoadedDoc, PosMap
from .scalars import (
    CORE,
    CORE_TAGS,
    HUGE_MIN,
    INTERN_MAX,
    KIND_TYPES,
    encodable,
    fits,
    is_int,
    resolve_plain,
)

# the kinds of event, by class name: PyYAML's and ruamel's event classes have the same
# names and fields (both wrap libyaml's events); stream and document starts have none
_SCALAR, _ALIAS, _MAP_START, _SEQ_START, _MAP_END, _SEQ_END, _DOC_END, _STREAM_END = range(8)
_KIND = {
    "ScalarEvent": _SCALAR,
    "AliasEvent": _ALIAS,
    "MappingStartEvent": _MAP_START,
    "SequenceStartEvent": _SEQ_START,
    "MappingEndEvent": _MAP_END,
    "SequenceEndEvent": _SEQ_END,
    "DocumentEndEvent": _DOC_END,
    "StreamEndEvent": _STREAM_END,
}
_OTHER = -1


_intern = sys.intern  # keys and short strings (scalars.INTERN_MAX)

_GLUED_HEADER = re.compile(r"[|>][0-9+-]*#")

#: the pending key of a mapping frame whose next value is dropped (a complex or duplicate key)
_KEY_SKIP = object()


class Abort(Exception):
    """A finding (``args[0]``) that stops reading the file (a safety limit, invalid YAML)."""


def mark(m) -> tuple[int, int]:
    """A parser mark as (1-based line, 1-based column)."""
    return (m.line + 1, m.column + 1)


class Builder:
    """Reads one event stream (``parser.get_event``) into a :class:`Loaded`."""

    def __init__(self, parser, text: str = ""):
        self.text = text
        self._lines: list[str] | None = None
        self.kpos: dict = {}
        self.vpos: dict = {}
        self.findings: list[Diag] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.expanded = 0  # over the whole stream: the alias limit is per file
        self.total = 0
        self._next = parser.get_event
        self.quiet_spans: list = []
        self._root_empty = False
        self._flow = 0  # depth of flow collections
        self._end_explicit = True  # the last document ended with `...`
        # what only a text holding these can have: a comment glued to a token (``#``), a
        # scalar that quiets a suppression comment (``si-lint:``); most files have neither
        self._hash = "#" in text
        self._quiet = "si-lint:" in text

    def build(self) -> Loaded:
        self._next()  # StreamStart
        documents: list[LoadedDoc] = []
        starts: list[int] = []
        index = 0
        while True:
            ev = self._next()
            if ev is None or _KIND.get(type(ev).__name__) == _STREAM_END:
                break
            # DocumentStart: anchors and positions are per document
            if index and not self._end_explicit and self._line(ev.start_mark.line).startswith("%"):
                # a directive after a document needs `...` first (9HCY, EB22, RHX7, MUS6)
                diag = diags.directive_after_document(ev.start_mark.line + 1)
                return Loaded(failed=True, findings=self.findings + [diag])
            starts.append(ev.start_mark.line)
            self.kpos, self.vpos, self.anchors = {}, {}, {}
            first = len(self.findings)
            try:
                data = self._document()
            except Abort as ab:
                return Loaded(failed=True, findings=[*self.findings, ab.args[0]])
            for i in range(first, len(self.findings)):
                self.findings[i] = self.findings[i]._replace(document=index)
            if not self._root_empty:  # an empty or comment-only document is skipped
                documents.append(LoadedDoc(index, data, PosMap(self.kpos, self.vpos, marks=True)))
            index += 1
        return Loaded(
            documents=documents, findings=self.findings, quiet_spans=self.quiet_spans, starts=starts
        )

    # the nodes of one document ------------------------------------------------------
    def _document(self) -> Any:
        nxt = self._next
        kind_of = _KIND.get
        vpos = self.vpos
        root: list = [None]
        self._root_empty = False
        stack: list[list] = []  # frames (see _open)
        while True:
            ev = nxt()
            cls = kind_of(type(ev).__name__, _OTHER)
            if stack:  # a node (or the end of a collection): where it goes
                top = stack[-1]
                if cls == _MAP_END or cls == _SEQ_END:
                    self._close(stack.pop(), ev)
                    continue
                container = top[0]
                if top[2]:
                    path = top[3]
                    if path is None:  # this node is a key
                        self._key(ev, cls, top)
                        continue
                    top[3] = None
                    if path is _KEY_SKIP:  # the value of a complex/duplicate key: dropped
                        self._skip_node(cls)
                        continue
                    slot = path[-1]
                else:
                    slot = len(container)
                    path = top[1] + (slot,)
                    container.append(None)
            elif cls == _DOC_END:
                self._end_explicit = bool(getattr(ev, "explicit", True))
                return root[0]
            else:
                path, container, slot = (), root, 0
            vpos[path] = start = ev.start_mark
            self.total += 1
            if self.total > MAX_NODES:
                raise Abort(diags.too_many_nodes(*mark(start)))
            if cls == _SCALAR:
                container[slot] = value = self._scalar(ev)
                if ev.anchor or not path:
                    self._scalar_node(ev, value, path)
            elif cls == _ALIAS:
                container[slot] = self._alias(ev)
            else:
                container[slot] = self._open(ev, cls, path, stack)

    def _close(self, frame: list, ev) -> None:
        """The end of the collection of ``frame``."""
        if frame[6]:
            self._flow -= 1
            if self._hash:
                self._glued(ev.end_mark)
        if frame[4] is not None:
            self.anchors[frame[4]] = (frame[0], self.total - frame[5])

    def _scalar_node(self, ev, value: Any, path: tuple) -> None:
        """What an anchored scalar, or the root one, notes besides its value."""
        if not path and value is None and ev.value == "" and ev.tag is None:
            if ev.anchor is None:
                self._root_empty = True  # nothing in the document but comments
        if ev.anchor:
            self.anchors[ev.anchor] = (value, 1)

    def _alias(self, ev) -> Any:
        """The value an alias names (counted as the nodes it expands to)."""
        self.total -= 1
        if ev.anchor not in self.anchors:
            raise Abort(diags.unknown_alias(ev.anchor, *mark(ev.start_mark)))
        value, size = self.anchors[ev.anchor]
        self.total += size
        self.expanded += size
        if self.expanded > MAX_ALIAS_NODES:
            raise Abort(diags.alias_bomb(*mark(ev.start_mark)))
        return value

    def _open(self, ev, cls: int, path: tuple, stack: list) -> dict | list:
        """A new mapping or list at ``path``, pushed as the frame its items go into:
        ``[container, path, is_map, pending_key_path, anchor, total_at_start, flow]``
        (``pending_key_path``: the path of the value the key just read names)."""
        if cls != _MAP_START and cls != _SEQ_START:  # not a node: no parser sends one here
            raise Abort(diags.invalid_yaml("unexpected event", *mark(ev.start_mark)))
        if ev.tag is not None:
            self._tag_kind(ev)  # SI007 for a non-core tag; the node is built as usual
        if len(stack) >= MAX_DEPTH:
            raise Abort(diags.too_deep(*mark(ev.start_mark)))
        is_map = cls == _MAP_START
        container: dict | list = {} if is_map else []
        flow = bool(getattr(ev, "flow_style", False))
        if flow:
            self._flow += 1
        stack.append([container, path, is_map, None, ev.anchor, self.total - 1, flow])
        return container

    def _key(self, ev, cls: int, frame) -> None:
        start = ev.start_mark
        key: str | None = None
        if cls == _SCALAR:
            if ev.tag is not None:
                self._tag_kind(ev)
            if self._quiet:
                self._note_span(ev)
            key = _intern(ev.value if ev.value.isascii() else self._encodable(ev))
            if ev.anchor:  # an anchor on a key (`&a a: b`) names the key's scalar
                plain = ev.style in (None, "") and (ev.implicit is None or ev.implicit[0])
                self.anchors[ev.anchor] = (resolve_plain(key) if plain else key, 1)
        elif cls == _ALIAS:
            val = self.anchors.get(ev.anchor, (None, 1))[0]
            if not isinstance(val, (dict, list)):
                key = "" if val is None else str(val)
        if key is None:
            self.findings.append(diags.complex_key(*mark(start)))
            if cls != _ALIAS and cls != _SCALAR:
                self._skip_node(cls)
            frame[3] = _KEY_SKIP
            return
        path = frame[1] + (key,)
        if key in frame[0]:
            first = self.kpos.get(path)
            first = None if first is None else mark(first)
            self.findings.append(diags.duplicate_key(key, first, *mark(start)))
            frame[3] = _KEY_SKIP
            return
        self.kpos[path] = start
        frame[3] = path

    def _skip_node(self, cls: int) -> None:
        """Consume a node's events without building it (still bounded by the limits)."""
        if cls == _SCALAR or cls == _ALIAS:
            return
        level = 1
        while level:
            ev = self._next()
            c = _KIND.get(type(ev).__name__, _OTHER)
            if c == _MAP_START or c == _SEQ_START:
                level += 1
                if level > MAX_DEPTH:
                    raise Abort(diags.too_deep(*mark(ev.start_mark)))
            elif c == _MAP_END or c == _SEQ_END:
                level -= 1

    # scalars ---------------------------------------------------------------------------
    def _scalar(self, ev) -> Any:
        kind = None if ev.tag is None else self._tag_kind(ev)
        value = ev.value
        if self._hash:
            if ev.style:
                self._check_header(ev)
            elif self._flow:
                self._glued(ev.end_mark)
        if not value.isascii():
            value = self._encodable(ev)
        if self._quiet and "si-lint:" in value:
            self._note_span(ev)
        if "---" in value and ev.start_mark.line != ev.end_mark.line:
            self._split_lines(ev)
        if kind is not None:
            return self._tagged(ev, kind, value)
        if ev.style in (None, "") and (ev.implicit is None or ev.implicit[0]):  # plain
            text = value
            value = resolve_plain(value)
            if value is text and len(text) > HUGE_MIN and is_int(text):
                self.findings.append(diags.huge_int(text, *mark(ev.start_mark)))
        if type(value) is str and len(value) <= INTERN_MAX:
            value = _intern(value)
        return value

    def _tagged(self, ev, kind: str, value: str) -> Any:
        """A scalar with an explicit core tag: its value when it fits the tag (SI007 and
        its text when it does not)."""
        if kind == "str":
            return value
        resolved = resolve_plain(value)
        if resolved is value and len(value) > HUGE_MIN and is_int(value):
            self.findings.append(diags.huge_int(value, *mark(ev.start_mark)))
            return value
        if kind not in KIND_TYPES:  # !!map / !!seq on a scalar
            return value
        if fits(kind, resolved):
            return float(resolved) if kind == "float" else resolved
        self.findings.append(diags.tag_mismatch(value, kind, *mark(ev.start_mark)))
        return value

    def _tag_kind(self, ev) -> str | None:
        """The core-schema kind the explicit tag of ``ev`` asks for, or None; SI007 for
        others."""
        tag = ev.tag
        if not isinstance(tag, str):  # ruamel Tag object
            tag = getattr(tag, "value", None) or str(tag)
        kind = CORE_TAGS.get(tag)
        if kind is None:
            if tag.startswith(CORE):
                tag = "!!" + tag[len(CORE) :]
            self.findings.append(diags.non_core_tag(tag, *mark(ev.start_mark)))
            return None
        return kind

    def _note_span(self, ev) -> None:
        if "si-lint:" in ev.value:
            self.quiet_spans.append((mark(ev.start_mark), mark(ev.end_mark)))

    def _encodable(self, ev) -> str:
        value, changed = encodable(ev.value)
        if changed:
            self.findings.append(diags.lone_surrogate(*mark(ev.start_mark)))
        return value

    # the text around the events ----------------------------------------------------
    def _line(self, n: int) -> str:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines[n] if 0 <= n < len(self._lines) else ""

    def _glued(self, end) -> None:
        """A comment must be separated from what precedes it by white space: ``"a"#x``,
        ``]#x``, ``[a,#x]`` are invalid YAML that libyaml reads as a comment (the YAML
        test suite's SU5Z, 9JBA, CVW2). SI001 at the ``#``."""
        # the two characters after the token only: slicing the rest of the line for every
        # scalar of a one-line JSON document was quadratic in its length
        after = self._line(end.line)[end.column : end.column + 2]
        if after[:1] == "#" or after == ",#":
            raise Abort(diags.glued_comment(end.line + 1, end.column + after.index("#") + 1))

    def _check_header(self, ev) -> None:
        """After a quoted scalar, or in a block scalar's header (``>#x``: X4QW), a ``#``
        glued to the text is invalid YAML."""
        style = ev.style
        if style == '"' or style == "'":
            self._glued(ev.end_mark)
        elif style == "|" or style == ">":
            start = ev.start_mark
            header = self._line(start.line)[start.column :]
            if _GLUED_HEADER.match(header):
                col = start.column + header.index("#") + 1
                raise Abort(diags.glued_comment(start.line + 1, col, with_help=False))

    def _split_lines(self, ev) -> None:
        """SI008: a line whose trimmed text is exactly ``---`` inside a scalar (a block
        scalar, as a rule). YAML reads it as text; oasisctl, which splits the stream on
        such lines, ends the document there. A ``---`` at column 0 is always a real
        document marker for YAML, so only indented ones are looked at."""
        for n in range(ev.start_mark.line, ev.end_mark.line + 1):
            line = self._line(n)
            if line.strip() == "---" and not line.startswith("---"):
                kind = "block scalar" if ev.style in ("|", ">") else "multi-line scalar"
                self.findings.append(diags.marker_in_scalar(kind, n + 1, line.index("-") + 1))
