"""The corpus: its documents, classified by kind (SPEC §1), and the reference graph."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .config import Config
from .loader import PosMap
from .model import evidence_scenario

if TYPE_CHECKING:
    import networkx as nx

    from .graph.builder import RefGraph

KINDS = ("scenario", "fixture", "evidence", "eio-module", "eio-input", "registry", "template")

#: the bulk of a corpus, which the corpus stages read only through
#: :meth:`Document.artifact_refs` (kept in a cache entry's head)
ARTIFACT_KINDS = frozenset(("fixture", "evidence"))


def classify(data: Any) -> str | None:
    """SPEC §1: the document kind by top-level keys."""
    if not isinstance(data, dict):
        return None
    if ("id" in data) + ("classification" in data) + ("scoring" in data) >= 2:
        return "scenario"  # a missing one of the three is SI601
    if "events" in data or "final_answer" in data or "actions" in data:
        # transcript form (events) or oasisctl's artifact form (SPEC §4.1)
        return "fixture" if "expect" in data else "evidence"
    if "eio" in data:
        return "eio-module"
    if "context_artifacts" in data:
        return "eio-input"
    if "primitives" in data:
        return "registry"
    if "template" in data and "table" in data:
        return "template"
    return None


def artifact_refs(data: Any) -> tuple:
    """``(scenario id the graph links to, that key's path, scenario id the dry runs group
    under)`` of a fixture or evidence document; an id that is not a string is None."""
    from .evaluator.evidence import named_scenario  # (the evaluator: loaded on first use)

    sid, spath = evidence_scenario(data)
    named = named_scenario(data)
    return (
        sid if isinstance(sid, str) else None,
        spath if isinstance(sid, str) else None,
        named if isinstance(named, str) else None,
    )


# --------------------------------------------------------------------------------------
# documents


@dataclass(frozen=True)
class Document:
    """One YAML document: a file holds one or more (a YAML stream, SPEC §1).

    A frozen value. Its lazy values are its own cache, as ``functools.cached_property``
    keeps one: ``data`` of a document read from a cache entry or a worker (decoded from
    ``content`` on first read, :meth:`__getattr__`) and the ``refs`` memo are set once in
    the instance ``__dict__`` by :meth:`_keep`, the only write after construction."""

    relpath: str  # relative to the current directory, '/'-separated
    abspath: str
    kind: str | None
    data: Any
    sha: str = ""  # the file's content hash
    #: loader findings (SI001…SI008) of this document (file-level ones on the first)
    load_findings: list = field(default_factory=list)
    #: the file's suppression comments: (line, col, kind, codes) — kind 'line'|'above'|'file'
    suppressions: list = field(default_factory=list)
    profile_asset: bool = False
    index: int = 0
    ndocs: int = 1  # (non-empty) documents in the file
    #: what the corpus stages read of ``data``, kept in a cache entry's head so that they
    #: need not decode its body: :func:`artifact_refs`, or a scenario's ``(id,)``
    refs: tuple | None = field(default=None, repr=False, compare=False)
    #: ``pipeline.data.Content``, shared by the file's documents: where ``data`` (of a
    #: document made by :meth:`unread`) and the positions (when not given) come from
    content: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def unread(
        cls,
        relpath: str,
        abspath: str,
        kind: str | None,
        content: Any,
        *,
        sha: str,
        suppressions: list,
        profile_asset: bool,
        index: int,
        ndocs: int,
        refs: tuple | None,
    ) -> Document:
        """A document whose ``data`` stays in ``content`` until first read (every document
        of a warm re-check). Its fields are set in its ``__dict__`` as :meth:`_keep` sets
        a lazy one: the ``__init__`` of a frozen dataclass (``object.__setattr__`` per
        field) would cost a warm re-check of 4,000 files 12% more instructions."""
        doc = cls.__new__(cls)
        doc.__dict__.update(
            load_findings=[],
            relpath=relpath,
            abspath=abspath,
            kind=kind,
            content=content,
            sha=sha,
            suppressions=suppressions,
            profile_asset=profile_asset,
            index=index,
            ndocs=ndocs,
            refs=refs,
        )
        return doc

    def _keep(self, name: str, value: Any) -> Any:
        self.__dict__[name] = value
        return value

    def __getattr__(self, name: str):  # only called for an attribute that is not set
        content = self.__dict__.get("content")
        if name != "data" or content is None:
            raise AttributeError(name)
        return self._keep("data", content.data_of(self.index))

    def artifact_refs(self) -> tuple:
        if self.refs is None:
            return self._keep("refs", artifact_refs(self.data))
        return self.refs

    def detach(self) -> None:
        """Decode its cache entry (the language server keeps documents, not the cache)."""
        if self.content is not None:
            self.content.fill()

    def scenario_id(self) -> str | None:
        if self.kind != "scenario":
            return None
        if self.refs is None:
            sid = self.data.get("id") if isinstance(self.data, dict) else None
            return self._keep("refs", (sid if isinstance(sid, str) else None,))[0]
        return self.refs[0]

    @property
    def multi(self) -> bool:
        return self.ndocs > 1

    @property
    def label(self) -> str:
        return f"{self.relpath}#{self.index}" if self.ndocs > 1 else self.relpath

    @property
    def pos(self) -> PosMap:
        """Documents from the cache or a worker carry no positions (they are large):
        :attr:`content` gives them for the few a cross-file finding points into."""
        return self.content.pos(self) if self.content is not None else PosMap()

    def __repr__(self) -> str:  # keep tracebacks short
        return f"Document({self.label!r}, kind={self.kind!r})"


class Corpus:
    def __init__(self, documents: list[Document], profile, config: Config):
        self.documents = sorted(documents, key=lambda d: (d.relpath, d.index))
        self.profile = profile
        self.config = config
        self._by_kind: dict[str | None, list[Document]] = {}
        self.by_path: dict[tuple[str, int | None], Document] = {
            (d.relpath, d.index): d for d in self.documents
        }
        self.by_file: dict[str, list[Document]] = {}  # relpath -> its documents, in order
        for d in self.documents:
            self._by_kind.setdefault(d.kind, []).append(d)
            self.by_file.setdefault(d.relpath, []).append(d)
        #: filled in by the read stage (SPEC §1): each file's directory's OASIS profile
        #: directory (or None), and what each one's Markdown documents define
        self.profile_dirs: dict[str, str | None] = {}
        self.profile_docs: dict = {}

    def profile_docs_for(self, doc: Document):
        pdir = self.profile_dirs.get(os.path.abspath(os.path.dirname(doc.abspath)))
        return self.profile_docs.get(pdir) if pdir is not None else None

    def doc(self, relpath: str | None, index: int | None = None) -> Document | None:
        """With ``index`` None (or not in the file), the file's first document."""
        if relpath is None:
            return None
        hit = self.by_path.get((relpath, index))  # (an index None is no key)
        if hit is not None:
            return hit
        docs = self.by_file.get(relpath)
        return docs[0] if docs else None

    def of_kind(self, kind: str | None) -> list[Document]:
        return self._by_kind.get(kind, [])

    @cached_property
    def scenarios(self) -> dict[str, Document]:
        """Scenario documents by id (the first in (path, index) order wins a duplicate)."""
        out: dict[str, Document] = {}
        for d in self.of_kind("scenario"):
            sid = d.scenario_id()
            if sid is not None:
                out.setdefault(sid, d)
        return out

    @cached_property
    def ref_graph(self) -> RefGraph:
        from .graph.builder import build_ref_graph  # (a re-check the cache answers builds none)

        return build_ref_graph(self)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        return self.ref_graph.networkx()

    def drop_graph(self) -> None:
        """``check`` drops it once the corpus checks have run (built again on next use)."""
        self.__dict__.pop("graph", None)
        self.__dict__.pop("ref_graph", None)
