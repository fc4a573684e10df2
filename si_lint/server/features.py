"""Hover, go-to-definition, completion and code actions, as plain functions of a
:class:`~si_lint.server.state.CorpusState` and a buffer (no LSP types here).

Positions in and out are 0-based (line, character) in code points; ``requests.py``
converts them to the client's encoding. Each feature is a module of its own (``hover``,
``definition``, ``completion``, ``actions``; ``spot`` finds the node under the cursor and
``lookup`` what it names, through :mod:`si_lint.model`); this module gathers them.
"""

from __future__ import annotations

from .actions import Action, code_actions, disable_text
from .completion import Item, completion
from .definition import definition
from .hover import hover, rule_markdown, suppression_code_at
from .spot import Spot, node_at

__all__ = [
    "Action",
    "Item",
    "Spot",
    "code_actions",
    "completion",
    "definition",
    "disable_text",
    "hover",
    "node_at",
    "rule_markdown",
    "suppression_code_at",
]
