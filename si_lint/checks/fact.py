"""A :class:`Fact`: one thing wrong with a document, found but not yet worded.

The walkers over scoring, decision tables and values (``document_facts``, ``table_facts``,
``value_facts``) return facts; the one check of each code (``rules/CODE.yaml`` names it)
turns the facts of its code into Diags, so a code's message is written in one place even
where several kinds of document (a template's table, a composite, a Form B binding) share
the rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from si_lint.findings import Diag

Path = tuple


@dataclass(frozen=True)
class Fact:
    #: the rule it breaks
    code: str
    #: which of the rule's cases (``unregistered``, ``after-else``, ...)
    case: str
    #: the document path the finding is at
    path: Path
    #: what the message needs (the offending value, the names it could have been, ...)
    data: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


def fact(code: str, case: str, path: Path, **data: Any) -> Fact:
    return Fact(code, case, path, data)


def worded(facts: Iterable[Fact], wording: Mapping[str, Callable[[Fact], Diag]]) -> Iterator[Diag]:
    """Each fact as its code's check words it: ``wording[case](fact)``."""
    for f in facts:
        yield wording[f.case](f)
