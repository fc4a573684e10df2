"""SI502: the signature is ``(evidence, *, <the registry's params>)``."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .parsed import ParsedModule, StaticFinding


def signature_findings(
    mod: ParsedModule, func: cst.FunctionDef, registry_params: Sequence[str]
) -> list[StaticFinding]:
    p = func.params
    problems: list[str] = []
    positional = list(p.posonly_params) + list(p.params)
    if [x.name.value for x in positional] != ["evidence"]:
        got = ", ".join(x.name.value for x in positional) or "none"
        problems.append(f"exactly one positional parameter `evidence` is required (got {got})")
    if isinstance(p.star_arg, cst.Param):
        problems.append(f"`*{p.star_arg.name.value}` is not allowed")
    if p.star_kwarg is not None:
        problems.append(f"`**{p.star_kwarg.name.value}` is not allowed")
    have = {x.name.value for x in p.kwonly_params}
    want = {x for x in registry_params}
    missing = sorted(want - have)
    extra = sorted(have - want)
    if missing:
        problems.append("missing keyword-only " + ", ".join(f"`{m}`" for m in missing))
    if extra:
        problems.append(
            "keyword-only parameter(s) not in the registry: " + ", ".join(f"`{m}`" for m in extra)
        )
    if not problems:
        return []
    line, col = mod.pos(func.name)
    expected = ", ".join(sorted(want))
    return [
        StaticFinding(
            "SI502",
            line,
            col,
            f"`{func.name.value}` parameters differ from the registry's "
            f"(`evidence, *, {expected}`): " + "; ".join(problems),
        )
    ]
