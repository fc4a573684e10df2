"""The corpus reference graph (a ``networkx.MultiDiGraph``).

Built once per run from the documents' plain data (``doc.data``; no extra parsing; positions
are resolved on demand by :func:`resolve_positions`) by :func:`build_ref_graph`, as the
dicts a ``MultiDiGraph`` holds (:class:`RefGraph`: what the corpus checks read, without
importing networkx); :attr:`si_lint.corpus.Corpus.ref_graph` calls it lazily, and
:attr:`si_lint.corpus.Corpus.graph` is the ``networkx.MultiDiGraph`` over it.

**Nodes** (id → ``kind``):

========================================  ============  =====================================
id                                        kind          defined by
========================================  ============  =====================================
``scenario:<id>``                         scenario      a scenario document (``id`` value)
``template:<id>``                         template      a template of the profile in use
``role:<template>/<role>``                role          a template's ``roles`` entry
``primitive:<name>``                      primitive     the registry's ``primitives`` entry
``synonyms:<deviation_type>``             synonyms      the registry's ``synonyms`` entry
``deviation:<scenario id>/<dev id>``      deviation     ``injection.deviations[i]``
``fixture:<relpath>[#<index>]``           fixture       a fixture document
``evidence:<relpath>[#<index>]``          evidence      an evidence document
``behavior:<name>``                       behavior      a ``### `name` `` heading of the
                                                        profile's ``behavior-definitions.md``
``stimulus:<STIM-XX-NNN>``                stimulus      a ``### STIM-XX-NNN: title`` heading
                                                        of ``stimulus-library.md``
``subcategory:<name>``                    subcategory   a row of ``profile.md`` §5.1
``archetype:<id>``                        archetype     a ``### C-DA-001: title`` heading of
                                                        ``capability-categories.md`` or
                                                        ``safety-categories.md``
========================================  ============  =====================================

The profile documents' nodes (SPEC §1: the Markdown documents of a scenario's OASIS
profile directory, :mod:`si_lint.profile_docs`) carry ``file``, ``line`` and ``col`` of
their heading or table row directly (they have no document path).

Node attributes: ``kind``, ``name`` (the part after the prefix), ``file`` (relative path,
``None`` for the built-in profile), ``document`` (the document's index, only in a file
that holds more than one; ``#<index>`` in a fixture or evidence id likewise), ``path``/``on`` and ``line``/``col`` (of the defining
value; ``line``/``col`` only after :func:`resolve_positions`), ``missing``
(``True`` for a node that is referenced but defined nowhere — checks look for these), and
``builtin`` for assets of the shipped profile. A scenario node carries ``defined_in``: the
files that define that id, in path order (more than one is SI301).

**Edges** — each one is a reference and remembers where it was made: ``rel``, ``file``,
``path`` (the document path tuple), ``on`` (``key``/``value``), and ``line``, ``col``
(after :func:`resolve_positions`), and ``document`` as for nodes:

* scenario → template ``uses-template`` (``scoring.archetype_template``, Form B)
* scenario → role ``binds-role`` (``scoring.<role>``: every other key of a Form B scoring)
* scenario → deviation ``declares`` (``injection.deviations[i]``; a duplicate id is a
  parallel edge — SI302)
* scenario → deviation ``references-deviation`` (a factor's ``ref``, in the bindings or in a
  composite's table)
* scenario → primitive ``calls`` (a composite's predicates)
* deviation → synonyms ``characterised-by`` (``deviation_type``)
* template → role ``declares-role``; template → role ``uses-role`` (``$role`` arguments);
  template → primitive ``calls``
* fixture → scenario ``tests``; evidence → scenario ``records`` (``scenario`` in the
  transcript form, ``scenario_id`` in oasisctl's artifact form)
* scenario → behavior ``asserts-behavior`` (``assertions.must|must_not[i].behavior``),
  scenario → stimulus ``uses-stimulus`` (``stimuli[i].library_ref``), scenario →
  subcategory ``in-subcategory`` (``subcategory``), scenario → archetype
  ``instance-of`` (``archetype``): made only by scenarios that have a profile directory
  (a name the directory does not define is a ``missing`` node)
* scenario → scenario ``companion`` (``quality.companion_scenario``)

EIO nodes and edges (``eio-module:…``, ``eio-concept:…``, …) are added by :func:`add_eio`
from :func:`si_lint.eio.refs.graph_edges`.

The package: :mod:`.ids` (relations, node ids), :mod:`.builder` (:func:`build_ref_graph`, :func:`build_graph`),
:mod:`.profile`, :mod:`.scenarios` and :mod:`.eio` (what each source adds),
:mod:`.queries` (:func:`resolve_positions`, :func:`edges_of`), :mod:`.dot` (the DOT picture
of ``si-lint graph``) and :mod:`.export` (GraphML and JSON).
"""

from __future__ import annotations

from .builder import RefGraph, build_graph, build_ref_graph
from .eio import add_eio
from .ids import (
    ASSERTS_BEHAVIOR,
    BINDS_ROLE,
    CALLS,
    CHARACTERISED_BY,
    COMPANION,
    DECLARES,
    DECLARES_ROLE,
    IN_SUBCATEGORY,
    INSTANCE_OF,
    RECORDS,
    REFERENCES_DEVIATION,
    TESTS,
    USES_ROLE,
    USES_STIMULUS,
    USES_TEMPLATE,
    doc_ref,
    node_id,
)
from .queries import edges_of, resolve_positions
from .scenarios import profile_refs

__all__ = [
    "ASSERTS_BEHAVIOR",
    "BINDS_ROLE",
    "CALLS",
    "CHARACTERISED_BY",
    "COMPANION",
    "DECLARES",
    "DECLARES_ROLE",
    "IN_SUBCATEGORY",
    "INSTANCE_OF",
    "RECORDS",
    "REFERENCES_DEVIATION",
    "TESTS",
    "USES_ROLE",
    "USES_STIMULUS",
    "USES_TEMPLATE",
    "RefGraph",
    "add_eio",
    "build_graph",
    "build_ref_graph",
    "doc_ref",
    "edges_of",
    "node_id",
    "profile_refs",
    "resolve_positions",
]
