"""Plain data and positions from a parser's event stream, built here so that the safety
limits hold while reading (nesting depth, node count, alias expansion), duplicate keys and
non-core tags are findings with their positions, and scalars resolve under the YAML 1.2
core schema. A finding that stops the reading (:class:`Abort`) fails the file."""

from __future__ import annotations

import re
import sys
from typing import Any

from ..findings import Diag
from ..limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_NODES
from . import diags, scalars
from .documents import Loaded, LoadedDoc, PosMap

# the kinds of event: their class names (PyYAML's and ruamel's events are named alike)
_SCALAR, _ALIAS, _STREAM_END = "ScalarEvent", "AliasEvent", "StreamEndEvent"
_MAP_START, _SEQ_START = "MappingStartEvent", "SequenceStartEvent"
_MAP_END, _SEQ_END = "MappingEndEvent", "SequenceEndEvent"

_GLUED_HEADER = re.compile(r"[|>][0-9+-]*#")


class Abort(Exception):
    """A finding (``args[0]``) that stops reading the file."""


def mark(m) -> tuple[int, int]:
    return (m.line + 1, m.column + 1)


class Builder:
    def __init__(self, get_event, text: str):
        self._lines = text.split("\n")
        self.kpos: dict = {}
        self.vpos: dict = {}
        self.findings: list[Diag] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.expanded = 0  # over the whole stream: the alias limit is per file
        self.total = 0
        self._next = get_event
        self.quiet_spans: list = []
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
            if ev is None or type(ev).__name__ == _STREAM_END:
                break
            # DocumentStart: anchors and positions are per document
            if index and not self._end_explicit and self._line(ev.start_mark.line).startswith("%"):
                # a directive after a document needs `...` first (9HCY, EB22, RHX7, MUS6)
                diag = diags.diag("directive_after_document", ev.start_mark.line + 1)
                return Loaded(failed=True, findings=self.findings + [diag])
            starts.append(ev.start_mark.line)
            self.kpos, self.vpos, self.anchors = {}, {}, {}
            first = len(self.findings)
            root, cls = self._event()
            try:
                data = self._node(root, cls, (), 0)
            except Abort as ab:
                return Loaded(failed=True, findings=[*self.findings, ab.args[0]])
            end = self._next()  # DocumentEnd
            self._end_explicit = bool(getattr(end, "explicit", True))
            self.findings[first:] = [d._replace(document=index) for d in self.findings[first:]]
            # an empty or comment-only document is skipped
            if cls != _SCALAR or data is not None or root.value or root.tag or root.anchor:
                documents.append(LoadedDoc(index, data, PosMap(self.kpos, self.vpos)))
            index += 1
        return Loaded(
            documents=documents, findings=self.findings, quiet_spans=self.quiet_spans, starts=starts
        )

    def _event(self) -> tuple[Any, str]:
        ev = self._next()
        return ev, type(ev).__name__

    def _node(self, ev, cls: str, path: tuple, depth: int) -> Any:
        start = ev.start_mark
        self.vpos[path] = mark(start)
        self.total += 1
        if self.total > MAX_NODES:
            raise Abort(diags.diag("too_many_nodes", *mark(start)))
        anchor = ev.anchor
        if cls == _SCALAR:
            value = self._scalar(ev)
            if anchor:
                self.anchors[anchor] = (value, 1)
            return value
        if cls == _ALIAS:
            return self._alias(ev)
        if cls != _MAP_START and cls != _SEQ_START:  # not a node: no parser sends one here
            raise Abort(diags.invalid_yaml("unexpected event", *mark(start)))
        if ev.tag is not None:
            self._tag_kind(ev)  # SI007 for a non-core tag; the node is built as usual
        if depth >= MAX_DEPTH:
            raise Abort(diags.diag("too_deep", *mark(start)))
        before = self.total - 1
        flow = bool(getattr(ev, "flow_style", False))
        self._flow += flow
        container: dict | list
        if cls == _MAP_START:
            container = {}
            ev, cls = self._event()
            while cls != _MAP_END:
                at = self._key(ev, cls, container, path)
                ev, cls = self._event()
                if at is None:  # the value of a complex or duplicate key: dropped
                    self._skip_node(cls)
                else:
                    container[at[-1]] = self._node(ev, cls, at, depth + 1)
                ev, cls = self._event()
        else:
            container = []
            ev, cls = self._event()
            while cls != _SEQ_END:
                container.append(self._node(ev, cls, path + (len(container),), depth + 1))
                ev, cls = self._event()
        if flow:
            self._flow -= 1
            if self._hash:
                self._glued(ev.end_mark)
        if anchor is not None:
            self.anchors[anchor] = (container, self.total - before)
        return container

    def _alias(self, ev) -> Any:
        """The value an alias names (counted as the nodes it expands to)."""
        self.total -= 1
        if ev.anchor not in self.anchors:
            raise Abort(diags.diag("unknown_alias", *mark(ev.start_mark), anchor=ev.anchor))
        value, size = self.anchors[ev.anchor]
        self.total += size
        self.expanded += size
        if self.expanded > MAX_ALIAS_NODES:
            raise Abort(diags.diag("alias_bomb", *mark(ev.start_mark)))
        return value

    def _key(self, ev, cls: str, container: dict, parent: tuple) -> tuple | None:
        """The path of the key's value; None when it is dropped (complex or duplicate key)."""
        start = ev.start_mark
        key: str | None = None
        if cls == _SCALAR:
            if ev.tag is not None:
                self._tag_kind(ev)
            self._note_span(ev)
            key = sys.intern(self._encodable(ev))
            if ev.anchor:  # an anchor on a key (`&a a: b`) names the key's scalar
                plain = ev.style in (None, "") and (ev.implicit is None or ev.implicit[0])
                self.anchors[ev.anchor] = (scalars.resolve_plain(key) if plain else key, 1)
        elif cls == _ALIAS:
            val = self.anchors.get(ev.anchor, (None, 1))[0]
            if not isinstance(val, (dict, list)):
                key = "" if val is None else str(val)
        if key is None:
            self._note("complex_key", ev)
            self._skip_node(cls)
            return None
        path = parent + (key,)
        if key in container:
            self.findings.append(diags.duplicate_key(key, self.kpos.get(path), *mark(start)))
            return None
        self.kpos[path] = mark(start)
        return path

    def _skip_node(self, cls: str) -> None:
        """Consume a node's events without building it (still bounded by the depth limit)."""
        if cls == _SCALAR or cls == _ALIAS:
            return
        level = 1
        while level:
            ev = self._next()
            c = type(ev).__name__
            if c == _MAP_START or c == _SEQ_START:
                level += 1
                if level > MAX_DEPTH:
                    raise Abort(diags.diag("too_deep", *mark(ev.start_mark)))
            elif c == _MAP_END or c == _SEQ_END:
                level -= 1

    def _scalar(self, ev) -> Any:
        kind = None if ev.tag is None else self._tag_kind(ev)
        if self._hash:
            if ev.style in ('"', "'") or (not ev.style and self._flow):
                self._glued(ev.end_mark)
            elif ev.style in ("|", ">"):  # a block scalar's header: ``>#x`` is invalid (X4QW)
                start = ev.start_mark
                header = self._line(start.line)[start.column :]
                if _GLUED_HEADER.match(header):
                    col = start.column + header.index("#") + 1
                    raise Abort(diags.diag("glued_header", start.line + 1, col))
        value = self._encodable(ev)
        self._note_span(ev)
        if "---" in value and ev.start_mark.line != ev.end_mark.line:
            # SI008: a line whose trimmed text is exactly ``---`` inside a scalar: YAML reads
            # it as text, oasisctl splits the stream there. A ``---`` at column 0 always is
            # a real document marker for YAML, so only indented ones are looked at.
            for n in range(ev.start_mark.line, ev.end_mark.line + 1):
                line = self._line(n)
                if line.strip() == "---" and not line.startswith("---"):
                    kind = "block scalar" if ev.style in ("|", ">") else "multi-line scalar"
                    where = n + 1, line.index("-") + 1
                    self.findings.append(diags.diag("marker_in_scalar", *where, kind=kind))
        if kind is not None:
            return self._tagged(ev, kind, value)
        if ev.style in (None, "") and (ev.implicit is None or ev.implicit[0]):  # plain
            value = self._resolve(ev, value)
        if type(value) is str and len(value) <= scalars.INTERN_MAX:
            value = sys.intern(value)
        return value

    def _tagged(self, ev, kind: str, value: str) -> Any:
        """A core-tagged scalar's value when it fits the tag, else SI007 and its text."""
        if kind == "str":
            return value
        resolved = self._resolve(ev, value)
        # an integer past the digit limit (SI005), or !!map / !!seq on a scalar
        if (resolved is value and scalars.is_int(value)) or kind not in scalars.KIND_TYPES:
            return value
        if type(resolved) in scalars.KIND_TYPES[kind]:
            return float(resolved) if kind == "float" else resolved
        self._note("tag_mismatch", ev, value=value, kind=kind)
        return value

    def _resolve(self, ev, text: str) -> Any:
        value = scalars.resolve_plain(text)
        if value is text and len(text) > scalars.HUGE_MIN and scalars.is_int(text):
            self._note("huge_int", ev, digits=len(text))
        return value

    def _note(self, name: str, ev, **fields) -> None:
        self.findings.append(diags.diag(name, *mark(ev.start_mark), **fields))

    def _tag_kind(self, ev) -> str | None:
        tag = ev.tag
        if not isinstance(tag, str):  # ruamel Tag object
            tag = getattr(tag, "value", None) or str(tag)
        kind = scalars.CORE_TAGS.get(tag)
        if kind is None:
            if tag.startswith(scalars.CORE):
                tag = "!!" + tag[len(scalars.CORE) :]
            self._note("non_core_tag", ev, tag=tag)
            return None
        return kind

    def _note_span(self, ev) -> None:
        if self._quiet and "si-lint:" in ev.value:
            self.quiet_spans.append((mark(ev.start_mark), mark(ev.end_mark)))

    def _encodable(self, ev) -> str:
        value, changed = scalars.encodable(ev.value)
        if changed:
            self._note("lone_surrogate", ev)
        return value

    def _line(self, n: int) -> str:
        return self._lines[n] if 0 <= n < len(self._lines) else ""

    def _glued(self, end) -> None:
        """A comment must be separated from what precedes it by white space: ``"a"#x``,
        ``]#x``, ``[a,#x]`` are invalid YAML that libyaml reads as a comment (the YAML
        test suite's SU5Z, 9JBA, CVW2). SI001 at the ``#``."""
        # the two characters after the token only: the rest of the line, for every scalar
        # of a one-line JSON document, would be quadratic in its length
        after = self._line(end.line)[end.column : end.column + 2]
        if after[:1] == "#" or after == ",#":
            raise Abort(
                diags.diag("glued_comment", end.line + 1, end.column + after.index("#") + 1)
            )
