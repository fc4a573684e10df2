"""``isinstance(x, MAPPING)``: whether ``x`` is a mapping, asking first whether it is a
``dict``. The documents si-lint reads are plain dicts; ``isinstance(x, Mapping)`` asks
the ABC's ``__instancecheck__`` every time (166 ns against 22 ns for a dict), and the
checks, the graph and the evaluator ask it about 220,000 times on the 4,000-file bench
corpus. The answer is the same for any value: a dict is a ``Mapping``."""

from __future__ import annotations

from collections.abc import Mapping

MAPPING = (dict, Mapping)
