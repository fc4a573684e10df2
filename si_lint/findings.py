"""Findings: what checks yield (:class:`Diag`) and what reports print (:class:`Finding`)."""

from __future__ import annotations

import difflib
import functools
from collections import namedtuple
from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

Path_ = tuple  # a document path: tuple of str (mapping keys) and int (list indexes)

SEVERITIES = ("error", "warning", "info")
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}


def value_object(*ignored: str):
    """Class decorator for a named tuple's subclass (flake8's value objects): ``==``,
    ``!=`` and ``hash`` over its fields but ``ignored``, only ever equal to its own class;
    ordering stays the tuple's."""

    def wrap(cls):
        key = itemgetter(*(i for i, f in enumerate(cls._fields) if f not in ignored))

        def __eq__(self, other):
            return other.__class__ is self.__class__ and key(self) == key(other)

        def __ne__(self, other):
            return not __eq__(self, other)

        def __hash__(self):
            return hash(key(self))

        cls.__eq__, cls.__ne__, cls.__hash__ = __eq__, __ne__, __hash__
        return cls

    return wrap


_TYPE_NAMES = (
    (bool, "a boolean"),
    (int, "an integer"),
    (float, "a float"),
    (str, "a string"),
    (list, "a list"),
    (dict, "a mapping"),
)


def type_name(value: Any) -> str:
    """A value's YAML type as messages name it: ``an integer``, ``null``."""
    if value is None:
        return "null"
    name = next((n for t, n in _TYPE_NAMES if isinstance(value, t)), None)
    if name is None:
        name = type(value).__name__
        name = ("an " if name[:1] in "aeiou" else "a ") + name
    return name


def format_path(path: Path_) -> str:
    """``scoring.bindings.channels[1]``"""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out or "<root>"


@value_object()
class Related(NamedTuple):
    """Another location of a cross-file finding; ``document``: ``Document.index`` (None:
    the file's first document)."""

    file: str
    path: Path_ | None = None
    message: str = ""
    on: str = "key"  # "key" or "value"
    line: int | None = None
    col: int | None = None
    document: int | None = None


# (made by namedtuple(), like Finding: its constructor takes any optional field by keyword)
@value_object()
class Diag(
    namedtuple(
        "Diag",
        "code path message on help related severity file line col fix document detail",
        defaults=("key", None, (), None, None, None, None, None, None, None),
    )
):
    """A finding as a check yields it: ``severity`` None is the rule's; ``file``/``line``/
    ``col`` for corpus checks that point into another file, or at a place no path names."""

    __slots__ = ()
    if TYPE_CHECKING:
        code: str
        path: Path_
        message: str
        on: Literal["key", "value"]
        help: str | None
        related: tuple[Related, ...]
        severity: str | None
        file: str | None
        line: int | None
        col: int | None
        fix: Any
        document: int | None
        detail: str | None


@value_object()
class Location(NamedTuple):
    """Another place a finding points at (a cross-file finding's ``related``)."""

    path: str
    line: int
    column: int
    message: str = ""


# (made by namedtuple(), so that its constructor takes any optional field by keyword from
# a dict, as pipeline/data.py does)
@value_object("fix")
class Finding(
    namedtuple(
        "Finding",
        "path line column code severity message help doc_path related end_line end_column "
        "detail fix document",
        defaults=(None, None, (), None, None, None, None, None),
    )
):
    """A finding with a resolved location, ready for a report."""

    __slots__ = ()
    if TYPE_CHECKING:
        path: str  # relative to the current directory, '/'-separated
        line: int
        column: int
        code: str
        severity: str
        message: str
        help: str | None
        doc_path: str | None  # the JSON path inside the document, when there is one
        related: tuple[Location, ...]
        end_line: int | None
        end_column: int | None
        detail: str | None  # e.g. the traceback of SI000, shown under --verbose
        fix: Any  # not compared, not hashed
        document: int | None  # 0-based, only in files holding more than one document

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def as_json(self) -> dict:
        out = {
            "code": self.code,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
        if self.document is not None:
            out["document"] = self.document
        if self.doc_path is not None:
            out["json_path"] = self.doc_path
        if self.help:
            out["help"] = self.help
        if self.related:
            out["related"] = [
                {"path": r.path, "line": r.line, "column": r.column, "message": r.message}
                for r in self.related
            ]
        return out


#: how alike (difflib's ratio of the folded names) a known name must be to be suggested
NEAREST_CUTOFF = 0.75
#: names longer than this are neither suggested nor given a suggestion (a name is a few
#: dozen characters; comparing long hostile texts would cost quadratic time)
NEAREST_MAX_CHARS = 200
#: folded alike: case, ``-``/``_``, and the characters a reader mistakes for one another
_LOOKALIKE = str.maketrans({"l": "1", "i": "1", "o": "0", "-": "_"})


def _fold(name: str) -> str:
    return name.casefold().translate(_LOOKALIKE)


def nearest(name: Any, known: Any) -> str | None:
    """The name of ``known`` that ``name`` misspells: one the same but for case, ``-``/``_``
    or a lookalike (``si113`` → ``SI113``), else the closest by difflib; ties go to the
    longer common prefix, then the first sorted (remembered: the server asks at every edit)."""
    if not isinstance(name, str) or not name or len(name) > NEAREST_MAX_CHARS:
        return None
    names = frozenset(k for k in known if isinstance(k, str) and 0 < len(k) <= NEAREST_MAX_CHARS)
    return _nearest(name, names)


@functools.lru_cache(maxsize=256)
def _nearest(name: str, names: frozenset) -> str | None:
    folded: dict[str, str] = {}
    for k in sorted(names - {name}):
        folded.setdefault(_fold(k), k)
    key = _fold(name)
    if key in folded:
        return folded[key]
    close = difflib.get_close_matches(key, list(folded), n=5, cutoff=NEAREST_CUTOFF)
    if not close:
        return None

    def rank(c: str) -> tuple:
        prefix = next((i for i, (a, b) in enumerate(zip(c, key)) if a != b), min(len(c), len(key)))
        return (-difflib.SequenceMatcher(None, c, key).ratio(), -prefix, folded[c])

    return folded[min(close, key=rank)]


def did_you_mean(name: Any, known: Any) -> str | None:
    """SI303's help line."""
    best = nearest(name, known)
    return None if best is None else f"did you mean `{best}`?"


def nearest_scenario(name: Any, scenarios: Mapping[str, Any]) -> tuple[str | None, tuple]:
    """A dangling reference's nearest scenario id and a Related at it (SPEC §9 "Cross-file
    scope": renaming a scenario reports the references it left behind)."""
    best = nearest(name, scenarios)
    if best is None:
        return None, ()
    d = scenarios[best]
    return best, (
        Related(d.relpath, ("id",), "the nearest scenario id", "value", document=d.index),
    )
