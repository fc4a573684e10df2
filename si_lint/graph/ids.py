"""The graph's vocabulary: edge relations and node ids."""

from __future__ import annotations

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
    return f"{kind}:{'/'.join(parts)}"
