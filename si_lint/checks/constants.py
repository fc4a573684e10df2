"""SI212, SI213: the registry's ratified matching constants (SPEC §2.1 "Ratified constants
as data"; seed §2.1, §2.2, §3).

* SI212 — ``constants.cooccurrence_radius`` is not a non-negative integer (a negative
  radius, ``1.5``, ``"1"``, ``true``): the sentence window of ``factor_identified`` would
  have no meaning. At the value.
* SI213 — ``constants.synonym_match`` is neither ``token`` nor ``substring``, or
  ``constants.echo_line`` is neither ``raw`` nor ``trimmed``. At the value.

Unknown keys under ``constants`` are SI003 (the registry schema). The evaluator refuses to
score under such a registry (every verdict is an error naming the constant), so ``check``
says where the registry is wrong.
"""

from __future__ import annotations

from si_lint.checks.base import Diag, file_check

_HELP = {
    "SI212": "`cooccurrence_radius` counts sentences either side of the identifier's: 0 (the "
    "seed: the same sentence), 1 (oasisctl), ...",
    "SI213": "`synonym_match: token | substring`, `echo_line: raw | trimmed`",
}


@file_check("SI212", "SI213", kinds=("registry",))
def registry_constants(doc, ctx):
    from si_lint.profile import constants_problems

    for path, message in constants_problems(doc.data):
        code = "SI212" if path[-1] == "cooccurrence_radius" else "SI213"
        if path == ("constants",):
            continue  # not a mapping: SI003 (the schema) says so
        yield Diag(code, path, message, on="value", help=_HELP[code])
