"""SI212, SI213: the registry's ratified matching constants (SPEC §2.1 "Ratified constants
as data"; seed §2.1, §2.2, §3), at the value. Unknown keys under ``constants`` are SI003;
the evaluator refuses to score under such a registry, so ``check`` says where it is
wrong."""

from __future__ import annotations

from si_lint.checks.base import file_check
from si_lint.findings import Diag

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
