"""The graph's vocabulary: edge relations and node ids."""

from __future__ import annotations

from sys import intern

#: edge relations
USES_TEMPLATE = "uses-template"
BINDS_ROLE = "binds-role"
DECLARES = "declares"
REFERENCES_DEVIATION = "references-deviation"
CALLS = "calls"
CHARACTERISED_BY = "characterised-by"
DECLARES_ROLE = "declares-role"
USES_ROLE = "uses-role"
TESTS = "tests"
RECORDS = "records"
ASSERTS_BEHAVIOR = "asserts-behavior"
USES_STIMULUS = "uses-stimulus"
IN_SUBCATEGORY = "in-subcategory"
INSTANCE_OF = "instance-of"
COMPANION = "companion"


def doc_ref(doc) -> tuple[str, int | None]:
    """``(file, document)`` as nodes and edges record a document: ``document`` is its
    index in a file that holds more than one, else None."""
    return (doc.relpath, doc.index if doc.multi else None)


def node_id(kind: str, *parts: str) -> str:
    """``kind:part/part``, interned: a node is named where it is defined and again at
    every reference to it, and each name is a key of several of the graph's dicts (one
    string each instead of one per reference: 12 MB at 40,000 files)."""
    return intern(f"{kind}:{'/'.join(parts)}")
