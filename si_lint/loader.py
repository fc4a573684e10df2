"""Read a YAML stream (one or more documents) or a JSON document into plain data plus a
position map per document.

The stream is read from ruamel.yaml's C parser *events* (libyaml); a file libyaml rejects
is read again by ruamel's pure-Python parser before a parse error is reported (libyaml
rejects some valid YAML 1.2). Building the data ourselves from events, iteratively, lets
us enforce the safety limits while reading (nesting depth, alias expansion), report
duplicate keys and non-core tags with their positions, and resolve scalars with the YAML
1.2 core schema. Nothing here raises on bad input: every problem is a :class:`Diag`.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from .findings import Diag
from .limits import MAX_ALIAS_NODES, MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, MAX_NODES

CODES = ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007", "SI008")

_CORE = "tag:yaml.org,2002:"
_CORE_TAGS = {
    _CORE + "str": "str",
    _CORE + "int": "int",
    _CORE + "float": "float",
    _CORE + "bool": "bool",
    _CORE + "null": "null",
    _CORE + "map": "map",
    _CORE + "seq": "seq",
    "!!str": "str",
    "!!int": "int",
    "!!float": "float",
    "!!bool": "bool",
    "!!null": "null",
    "!!map": "map",
    "!!seq": "seq",
    "!": "str",
}

_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))
_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")
# characters that make a plain scalar possibly non-string: fast path for the common case
_MAYBE_SPECIAL = frozenset("0123456789+-.~nNtTfF")


#: keys and short string values are interned: a corpus repeats them thousands of times
#: (``kind``, ``tool_call``, ``agent_response`` …), and marshal keeps interning across
#: processes, so a large corpus holds one copy of each
_intern = sys.intern
_INTERN_MAX = 40


_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> tuple[str, bool]:
    """``text`` with its lone surrogates (from ``\\ud800``-style escapes, which no UTF-8
    file can hold) replaced by U+FFFD, and whether there were any; an escaped surrogate
    *pair* becomes the one character it encodes. Every string the loader returns is
    encodable, so no report can fail on it (issue 11 item 5)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text, False
    out = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return out, out.count("\ufffd") > text.count("\ufffd")  # a pair alone: no finding


class HugeInt(ValueError):
    """An integer literal longer than ``limits.MAX_INT_DIGITS`` digits."""


def _int(text: str, base: int) -> int:
    digits = len(text.lstrip("+-"))
    # the decimal digits of the value: a base-8/16 literal has more than its length
    if (
        base == 10
        and digits > MAX_INT_DIGITS
        or base != 10
        and digits * {8: 0.904, 16: 1.205}[base] > MAX_INT_DIGITS
    ):
        raise HugeInt(text)
    return int(text, base)


def resolve_plain(text: str) -> Any:
    """Resolve an untagged plain scalar with the YAML 1.2 core schema. An integer of more
    than ``MAX_INT_DIGITS`` digits stays its text (the loader reports it: SI005)."""
    if not text:
        return None
    if text[0] not in _MAYBE_SPECIAL:
        return text
    if text in _NULL:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    try:
        if _INT10.match(text):
            return _int(text, 10)
        if _INT8.match(text):
            return _int(text[2:], 8)
        if _INT16.match(text):
            return _int(text[2:], 16)
    except HugeInt:
        return text
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text[0] == "-" else math.inf
    if _NAN.match(text):
        return math.nan
    return text


#: the shortest literal that can be over the digit limit (a hex one: 1.2 digits a character)
_HUGE_MIN = int(MAX_INT_DIGITS / 1.205)


def _is_int(text: str) -> bool:
    return bool(_INT10.match(text) or _INT8.match(text) or _INT16.match(text))


_GLUED_HEADER = re.compile(r"[|>][0-9+-]*#")


class PosMap:
    """Positions (1-based line, column) of keys and values, by document path."""

    __slots__ = ("k", "v")

    def __init__(self, k: dict | None = None, v: dict | None = None):
        self.k: dict[tuple, tuple[int, int]] = k if k is not None else {}
        self.v: dict[tuple, tuple[int, int]] = v if v is not None else {}

    def key(self, path: tuple) -> tuple[int, int]:
        """Where the node at ``path`` is named: its key, or the item itself in a list."""
        path = tuple(path)
        while True:
            hit = self.k.get(path)
            if hit is not None:
                return hit
            hit = self.v.get(path)
            if hit is not None:
                return hit
            if not path:
                return (1, 1)
            path = path[:-1]

    def value(self, path: tuple) -> tuple[int, int]:
        """Where the value node at ``path`` starts."""
        hit = self.v.get(tuple(path))
        if hit is not None:
            return hit
        return self.key(path)

    def to_blob(self) -> str:
        """Positions as one plain string (for the cache and worker processes): the JSON
        text of one ``[path, value line, value col, key line, key col]`` per node, the path
        a list of str/int parts (key line 0: a list item or the root, which has no key).
        A string, so that reading a cache entry costs nothing until the positions of that
        document are needed (only a cross-file finding pointing into it needs them)."""
        import json

        k = self.k
        out = []
        for path, (vl, vc) in self.v.items():
            kp = k.get(path)
            out.append([list(path), vl, vc, kp[0], kp[1]] if kp else [list(path), vl, vc, 0, 0])
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_blob(cls, blob: Any) -> PosMap | None:
        """Positions from :meth:`to_blob`; None for anything else (a cache entry written
        by someone else is checked item by item, never trusted)."""
        import json

        if isinstance(blob, str):
            try:
                blob = json.loads(blob)
            except ValueError:
                return None
        if not isinstance(blob, list):
            return None
        k: dict = {}
        v: dict = {}
        try:
            for item in blob:
                path, vl, vc, kl, kc = item
                if not (
                    isinstance(path, list)
                    and all(type(p) in (str, int) for p in path)
                    and all(type(n) is int for n in (vl, vc, kl, kc))
                ):
                    return None
                t = tuple(path)
                v[t] = (vl, vc)
                if kl:
                    k[t] = (kl, kc)
        except (TypeError, ValueError):
            return None
        return cls(k, v)

    def __getstate__(self):
        return (self.k, self.v)

    def __setstate__(self, state):
        self.k, self.v = state


@dataclass
class LoadedDoc:
    """One document of a stream."""

    #: 0-based index among the documents the parser yields (a comment-only prefix before
    #: the first ``---`` is no document; empty documents count, but are not kept)
    index: int
    data: Any
    pos: PosMap = field(default_factory=PosMap)


@dataclass
class Loaded:
    """A file read as a YAML stream: its non-empty documents, in order."""

    documents: list[LoadedDoc] = field(default_factory=list)
    #: every loader finding of the file; ``Diag.document`` names the document it is in
    #: (None: the file as a whole, e.g. SI001, SI005, SI006, SI008)
    findings: list[Diag] = field(default_factory=list)
    #: True when the text could not be read at all (SI001/SI005/SI006): no documents
    failed: bool = False
    text: str | None = None
    #: spans ((line, col), (line, col)), 1-based, of scalars whose text holds
    #: ``si-lint:`` — a suppression-looking text there is data, not a comment
    quiet_spans: list = field(default_factory=list)
    #: 0-based line where each document the parser yields starts (its ``---``, or its
    #: first node), empty ones included: where ``--fix`` cuts the file into documents
    starts: list = field(default_factory=list)

    @property
    def data(self) -> Any:
        """The first document's data (None for a file without documents): for callers
        that read a file holding one document (profile assets, ``eval``, ``eio``)."""
        return self.documents[0].data if self.documents else None

    @property
    def pos(self) -> PosMap:
        return self.documents[0].pos if self.documents else PosMap()


class _Abort(Exception):
    def __init__(self, diag: Diag):
        self.diag = diag


def _mark(m) -> tuple[int, int]:
    return (m.line + 1, m.column + 1)


def _too_deep(mark) -> Diag:
    line, col = _mark(mark)
    return Diag(
        "SI005",
        (),
        f"nesting deeper than {MAX_DEPTH} levels; not read",
        line=line,
        col=col,
        help="flatten the document",
    )


def decode(raw: bytes) -> tuple[str | None, Diag | None]:
    """UTF-8 (BOM allowed) or an SI006 finding at the first bad byte."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", "replace")
        line = good.count("\n") + 1
        col = len(good) - (good.rfind("\n") + 1) + 1
        return None, Diag(
            "SI006",
            (),
            f"file is not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start} cannot be decoded",
            line=line,
            col=col,
            help="re-encode the file as UTF-8",
        )


def load_bytes(raw: bytes) -> Loaded:
    """Read a stream of documents from raw bytes. Never raises on bad input."""
    if len(raw) > MAX_BYTES:
        return Loaded(
            failed=True,
            findings=[
                Diag(
                    "SI005",
                    (),
                    f"file is larger than the {MAX_BYTES:,}-byte safety limit; not read",
                    line=1,
                    col=1,
                    help="split the file; scenario documents are small",
                )
            ],
        )
    text, bad = decode(raw)
    if bad is not None:
        return Loaded(failed=True, findings=[bad])
    out = load_text(text)
    out.text = text
    return out


def load_text(text: str) -> Loaded:
    from ruamel.yaml.error import MarkedYAMLError

    try:
        from _ruamel_yaml import CParser as _C  # noqa: F401
        from ruamel.yaml.cyaml import CParser

        c_ok = True
    except Exception:  # pragma: no cover - clib missing
        c_ok = False
    first_error = None
    if c_ok:
        try:
            return _Builder(CParser(text), text).build()
        except Exception as exc:  # libyaml rejected it: ask the pure parser
            first_error = exc
    # libyaml rejected it (or is missing): ruamel's pure-Python parser decides
    try:
        return _Builder(_pure_events(text), text).build()
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _mark(mark) if mark is not None else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            problem = f"{exc.problem} ({exc.context})"
        return Loaded(
            failed=True,
            findings=[Diag("SI001", (), f"invalid YAML: {problem}", line=line, col=col)],
        )
    except Exception as exc:  # the pure parser fails in odd ways too (assertions)
        err = first_error if isinstance(first_error, MarkedYAMLError) else exc
        mark = getattr(err, "problem_mark", None)
        line, col = _mark(mark) if mark is not None else (1, 1)
        position = getattr(err, "position", None)  # ReaderError: a character offset
        if mark is None and isinstance(position, int) and 0 <= position <= len(text):
            before = text[:position]
            line = before.count("\n") + 1
            col = position - (before.rfind("\n") + 1) + 1
        msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return Loaded(
            failed=True, findings=[Diag("SI001", (), f"invalid YAML: {msg}", line=line, col=col)]
        )


class _PureEvents:
    """Adapter giving ruamel's pure-Python parser the CParser event interface."""

    def __init__(self, text: str):
        from ruamel.yaml import YAML

        self._it = YAML(typ="safe", pure=True).parse(text)
        self._next = None

    def get_event(self):
        if self._next is not None:
            ev, self._next = self._next, None
            return ev
        return next(self._it)

    def peek_event(self):
        if self._next is None:
            self._next = next(self._it, None)
        return self._next


def _pure_events(text: str) -> _PureEvents:
    return _PureEvents(text)


class _Builder:
    """Plain data and positions from a parser event stream, iteratively."""

    def __init__(self, parser, text: str = ""):
        self.p = parser
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

    def build(self) -> Loaded:
        from ruamel.yaml import events as E

        self._next()  # StreamStart
        documents: list[LoadedDoc] = []
        starts: list[int] = []
        index = 0
        while True:
            ev = self._next()
            if ev is None or isinstance(ev, E.StreamEndEvent):
                break
            # DocumentStart: anchors and positions are per document
            if index and not self._end_explicit and self._line(ev.start_mark.line).startswith("%"):
                # a directive after a document needs `...` first (9HCY, EB22, RHX7, MUS6)
                return Loaded(
                    failed=True,
                    findings=self.findings
                    + [
                        Diag(
                            "SI001",
                            (),
                            "invalid YAML: a directive after a document needs the document "
                            "end marker `...` before it",
                            line=ev.start_mark.line + 1,
                            col=1,
                            help="add a line `...` before the directive",
                        )
                    ],
                )
            starts.append(ev.start_mark.line)
            self.kpos, self.vpos, self.anchors = {}, {}, {}
            first = len(self.findings)
            try:
                data = self._document()
            except _Abort as ab:
                return Loaded(failed=True, findings=self.findings + [ab.diag])
            for i in range(first, len(self.findings)):
                self.findings[i] = replace(self.findings[i], document=index)
            if not self._root_empty:  # an empty or comment-only document is skipped
                documents.append(LoadedDoc(index, data, PosMap(self.kpos, self.vpos)))
            index += 1
        return Loaded(
            documents=documents, findings=self.findings, quiet_spans=self.quiet_spans, starts=starts
        )

    def _split_lines(self, ev) -> None:
        """SI008: a line whose trimmed text is exactly ``---`` inside a scalar (a block
        scalar, as a rule). YAML reads it as text; oasisctl, which splits the stream on
        such lines, ends the document there. A ``---`` at column 0 is always a real
        document marker for YAML, so only indented ones are looked at."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        lines = self._lines
        first, last = ev.start_mark.line, ev.end_mark.line
        for n in range(first, min(last, len(lines) - 1) + 1):
            line = lines[n]
            if line.strip() == "---" and not line.startswith("---"):
                col = line.index("-") + 1
                kind = "block scalar" if ev.style in ("|", ">") else "multi-line scalar"
                self.findings.append(
                    Diag(
                        "SI008",
                        (),
                        f"a line `---` inside a {kind}: oasisctl splits the file there, so "
                        "it reads this document differently than YAML does",
                        line=n + 1,
                        col=col,
                        help="reword the line (e.g. `- - -` or `───`), or indent it with other "
                        "text on the line",
                    )
                )

    # ------------------------------------------------------------------------------
    def _tag_kind(self, ev) -> str | None:
        """The core-schema kind an explicit tag asks for, or None; SI007 for others."""
        tag = getattr(ev, "tag", None)
        if tag is None:
            return None
        if not isinstance(tag, str):  # ruamel Tag object
            tag = getattr(tag, "value", None) or str(tag)
        kind = _CORE_TAGS.get(tag)
        if kind is None:
            if tag.startswith(_CORE):
                tag = "!!" + tag[len(_CORE) :]
            line, col = _mark(ev.start_mark)
            self.findings.append(
                Diag(
                    "SI007",
                    (),
                    f"YAML tag {tag!r} is outside the YAML 1.2 core schema and is not accepted",
                    line=line,
                    col=col,
                    help="remove the tag; si-lint reads plain data only",
                )
            )
            return None
        return kind

    def _note_span(self, ev) -> None:
        if "si-lint:" in ev.value:
            self.quiet_spans.append((_mark(ev.start_mark), _mark(ev.end_mark)))

    def _encodable(self, ev) -> str:
        value, changed = encodable(ev.value)
        if changed:
            line, col = _mark(ev.start_mark)
            self.findings.append(
                Diag(
                    "SI006",
                    (),
                    "string holds a lone surrogate (an escape such as `\\ud800`), which "
                    "is not a character and cannot be written as UTF-8; read as U+FFFD",
                    line=line,
                    col=col,
                    help="remove the escape, or write the character it stands for",
                )
            )
        return value

    def _huge(self, ev, text: str) -> None:
        line, col = _mark(ev.start_mark)
        self.findings.append(
            Diag(
                "SI005",
                (),
                f"integer literal of {len(text):,} characters is over the "
                f"{MAX_INT_DIGITS:,}-digit safety limit; read as a string",
                line=line,
                col=col,
                help="no scenario value needs an integer this long",
            )
        )

    def _line(self, n: int) -> str:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines[n] if 0 <= n < len(self._lines) else ""

    def _glued(self, mark) -> None:
        """A comment must be separated from what precedes it by white space: ``"a"#x``,
        ``]#x``, ``[a,#x]`` are invalid YAML that libyaml reads as a comment (the YAML
        test suite's SU5Z, 9JBA, CVW2). SI001 at the ``#``."""
        rest = self._line(mark.line)[mark.column :]
        if rest[:1] == "#" or rest[:2] == ",#":
            col = mark.column + rest.index("#") + 1
            raise _Abort(
                Diag(
                    "SI001",
                    (),
                    "invalid YAML: a comment needs white space before its `#`",
                    line=mark.line + 1,
                    col=col,
                    help="put a space before `#`",
                )
            )

    def _scalar(self, ev) -> Any:
        kind = self._tag_kind(ev)
        value = ev.value
        style = ev.style
        if style:
            if style == '"' or style == "'":
                self._glued(ev.end_mark)
            elif style == "|" or style == ">":  # the header: `>#x` is invalid (X4QW)
                header = self._line(ev.start_mark.line)[ev.start_mark.column :]
                if _GLUED_HEADER.match(header):
                    raise _Abort(
                        Diag(
                            "SI001",
                            (),
                            "invalid YAML: a comment needs white space before its `#`",
                            line=ev.start_mark.line + 1,
                            col=ev.start_mark.column + header.index("#") + 1,
                        )
                    )
        elif self._flow:
            self._glued(ev.end_mark)
        if not value.isascii():
            value = self._encodable(ev)
        if "si-lint:" in value:
            self._note_span(ev)
        if "---" in value and ev.start_mark.line != ev.end_mark.line:
            self._split_lines(ev)
        plain = ev.style in (None, "") and (ev.implicit is None or ev.implicit[0])
        if kind is None:
            if plain:
                text = value
                value = resolve_plain(value)
                if value is text and len(text) > _HUGE_MIN and _is_int(text):
                    self._huge(ev, text)
            if type(value) is str and len(value) <= _INTERN_MAX:
                value = _intern(value)
            return value
        if kind == "str":
            return value
        resolved = resolve_plain(value)
        if resolved is value and len(value) > _HUGE_MIN and _is_int(value):
            self._huge(ev, value)
            return value
        expected = {
            "int": int,
            "float": (float, int),
            "bool": bool,
            "null": type(None),
        }.get(kind)
        if expected is None:  # !!map / !!seq on a scalar
            return value
        if isinstance(resolved, expected) and not (
            kind in ("int", "float") and isinstance(resolved, bool)
        ):
            return float(resolved) if kind == "float" else resolved
        line, col = _mark(ev.start_mark)
        self.findings.append(
            Diag(
                "SI007",
                (),
                f"value {value!r} does not fit its tag !!{kind}",
                line=line,
                col=col,
            )
        )
        return value

    def _document(self) -> Any:
        from ruamel.yaml import events as E

        nxt = self._next
        root: list = [None]
        self._root_empty = False
        # frame: [container, path, is_map, pending_key, anchor, total_at_start]
        stack: list[list] = []
        depth = 0
        while True:
            ev = nxt()
            cls = type(ev)
            if cls is E.DocumentEndEvent:
                self._end_explicit = bool(getattr(ev, "explicit", True))
                return root[0]
            if cls is E.MappingEndEvent or cls is E.SequenceEndEvent:
                frame = stack.pop()
                depth -= 1
                if frame[6]:
                    self._flow -= 1
                    self._glued(ev.end_mark)
                if frame[4] is not None:
                    self.anchors[frame[4]] = (frame[0], self.total - frame[5])
                continue
            # a node: decide where it goes
            if stack:
                top = stack[-1]
                if top[2]:
                    if top[3] is None:
                        # this node is a key
                        self._key(ev, top, E)
                        continue
                    key = top[3]
                    if key is _KEY_SKIP:
                        # value of a complex/duplicate key: consume and drop
                        self._skip_node(ev, E)
                        top[3] = None
                        continue
                    path = top[1] + (key,)
                    top[3] = None
                    container = top[0]
                    setter = container.__setitem__
                    slot = key
                else:
                    container = top[0]
                    slot = len(container)
                    path = top[1] + (slot,)
                    container.append(None)
                    setter = container.__setitem__
            else:
                path = ()
                setter = root.__setitem__
                slot = 0
            start = ev.start_mark
            self.vpos[path] = (start.line + 1, start.column + 1)
            self.total += 1
            if self.total > MAX_NODES:
                line, col = _mark(start)
                raise _Abort(
                    Diag(
                        "SI005",
                        (),
                        f"more than {MAX_NODES:,} nodes (values, keys, list items) in one "
                        "file; not read",
                        line=line,
                        col=col,
                        help="split the file; scenario documents are small",
                    )
                )
            if cls is E.ScalarEvent:
                value = self._scalar(ev)
                setter(slot, value)
                if (
                    not path
                    and value is None
                    and ev.value == ""
                    and ev.tag is None
                    and ev.anchor is None
                ):
                    self._root_empty = True  # nothing in the document but comments
                if ev.anchor:
                    self.anchors[ev.anchor] = (value, 1)
            elif cls is E.AliasEvent:
                self.total -= 1
                value, size = self.anchors.get(ev.anchor, (None, 1))
                if ev.anchor not in self.anchors:
                    line, col = _mark(start)
                    raise _Abort(
                        Diag("SI001", (), f"unknown alias *{ev.anchor}", line=line, col=col)
                    )
                self.total += size
                self.expanded += size
                if self.expanded > MAX_ALIAS_NODES:
                    line, col = _mark(start)
                    raise _Abort(
                        Diag(
                            "SI005",
                            (),
                            f"alias expansion exceeds {MAX_ALIAS_NODES:,} nodes (an alias bomb?); not read",
                            line=line,
                            col=col,
                            help="avoid aliases that expand recursively",
                        )
                    )
                setter(slot, value)
            else:
                is_map = cls is E.MappingStartEvent
                self._tag_kind(ev)  # SI007 for a non-core tag; the node is built as usual
                depth += 1
                if depth > MAX_DEPTH:
                    raise _Abort(_too_deep(start))
                container = {} if is_map else []
                setter(slot, container)
                flow = bool(getattr(ev, "flow_style", False))
                if flow:
                    self._flow += 1
                stack.append([container, path, is_map, None, ev.anchor, self.total - 1, flow])

    def _key(self, ev, frame, E) -> None:
        cls = type(ev)
        start = ev.start_mark
        if cls is E.ScalarEvent:
            self._tag_kind(ev)
            self._note_span(ev)
            key = _intern(ev.value if ev.value.isascii() else self._encodable(ev))
            if ev.anchor:  # an anchor on a key (`&a a: b`) names the key's scalar
                plain = ev.style in (None, "") and (ev.implicit is None or ev.implicit[0])
                self.anchors[ev.anchor] = (resolve_plain(key) if plain else key, 1)
        elif cls is E.AliasEvent:
            val = self.anchors.get(ev.anchor, (None, 1))[0]
            if isinstance(val, (str, int, float, bool)) or val is None:
                key = "" if val is None else (val if isinstance(val, str) else str(val))
            else:
                key = None
        else:
            key = None
        if key is None:
            line, col = _mark(start)
            self.findings.append(
                Diag(
                    "SI003",
                    (),
                    "complex mapping key (a mapping or list used as a key) is not allowed",
                    line=line,
                    col=col,
                )
            )
            if cls is not E.AliasEvent and cls is not E.ScalarEvent:
                self._skip_node(ev, E)
            frame[3] = _KEY_SKIP
            return
        container = frame[0]
        path = frame[1] + (key,)
        if key in container:
            line, col = _mark(start)
            first = self.kpos.get(path)
            where = f" (first at line {first[0]}, column {first[1]})" if first else ""
            self.findings.append(
                Diag(
                    "SI002",
                    (),
                    f"duplicate mapping key {key!r}{where}",
                    line=line,
                    col=col,
                    help="remove one of the two keys; YAML readers disagree on which wins",
                )
            )
            frame[3] = _KEY_SKIP
            return
        self.kpos[path] = (start.line + 1, start.column + 1)
        frame[3] = key

    def _skip_node(self, ev, E) -> None:
        """Consume a node's events without building it (still bounded by the limits)."""
        cls = type(ev)
        if cls is E.ScalarEvent or cls is E.AliasEvent:
            return
        level = 1
        while level:
            ev = self._next()
            c = type(ev)
            if c is E.MappingStartEvent or c is E.SequenceStartEvent:
                level += 1
                if level > MAX_DEPTH:
                    raise _Abort(_too_deep(ev.start_mark))
            elif c is E.MappingEndEvent or c is E.SequenceEndEvent:
                level -= 1


_KEY_SKIP = object()
