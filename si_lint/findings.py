"""Findings: what checks yield (:class:`Diag`) and what reports print (:class:`Finding`)."""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the pre-commit path)
if TYPE_CHECKING:
    from typing import Any, Literal

Path_ = tuple  # a document path: tuple of str (mapping keys) and int (list indexes)

SEVERITIES = ("error", "warning", "info")
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def type_name(value: Any) -> str:
    """A value's YAML type as messages name it, with its article: ``an integer``,
    ``a string``, ``a float``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    name = type(value).__name__
    return ("an " if name[:1] in "aeiou" else "a ") + name


def format_path(path: Path_) -> str:
    """Render a document path as ``scoring.bindings.channels[1]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out:
            out += "." + str(part)
        else:
            out = str(part)
    return out or "<root>"


@dataclass(frozen=True)
class Related:
    """Another location of a cross-file finding."""

    file: str
    path: Path_ | None = None
    message: str = ""
    on: Literal["key", "value"] = "key"
    line: int | None = None
    col: int | None = None
    #: the document of ``file`` (its ``Document.index``); None: the file's first document
    document: int | None = None


@dataclass(frozen=True)
class Diag:
    """A finding as a check yields it: a code and a path into a document."""

    code: str
    path: Path_
    message: str
    on: Literal["key", "value"] = "key"
    help: str | None = None
    related: tuple[Related, ...] = ()
    severity: str | None = None
    file: str | None = None
    line: int | None = None
    col: int | None = None
    fix: Any = None
    #: the document of ``file`` a corpus check points into (``Document.index``); None
    #: for per-file checks (the document checked) and for a file's first document
    document: int | None = None
    #: SI000: the traceback of the crash (shown under ``--verbose``)
    detail: str | None = None


@dataclass(frozen=True, order=True)
class Location:
    """Another place a finding points at (a cross-file finding's ``related``)."""

    path: str
    line: int
    column: int
    message: str = ""


@dataclass(frozen=True)
class Finding:
    """A finding with a resolved location, ready for a report."""

    path: str  # file path, relative to the current directory, '/'-separated
    line: int
    column: int
    code: str
    severity: str
    message: str
    help: str | None = None
    doc_path: str | None = None  # the JSON path inside the document, when there is one
    related: tuple[Location, ...] = ()
    end_line: int | None = None
    end_column: int | None = None
    detail: str | None = None  # e.g. the traceback of SI000, shown under --verbose
    fix: Any = field(default=None, compare=False, hash=False)
    #: 0-based index of the document in its file, only for files holding more than one
    #: document (SPEC §1: ``"document": N`` in JSON)
    document: int | None = None

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
