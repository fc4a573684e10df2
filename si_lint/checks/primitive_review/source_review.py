"""Static review of one primitive implementation (SPEC §2.1, rules SI501–SI506).

A pure function of the source text: the module is parsed with libcst (never imported) and
the function that implements the primitive is inspected, together with the module's own
helper functions it reaches (for SI503, SI505 and SI506).

- SI501  the function does not exist (or the module does not parse)
- SI502  the keyword-only parameter names differ from the registry's (as sets), or the
         signature is not ``(evidence, *, <params>)``
- SI503  a call or read of something nondeterministic — clock, ``random``, ``uuid``,
         environment, file or network I/O, ``subprocess``, threads — however imported,
         in the primitive or in a module-level helper it reaches
- SI504  a ``re`` function whose pattern is built from a parameter (or a local derived
         from one) without ``re.escape`` on that value
- SI505  a ``for`` loop over a set/frozenset (literal, call or comprehension) whose body
         can ``return`` or ``break``
- SI506  a write to module-level state (at the write, not at the ``global``)

Positions are 1-based lines and columns of the offending node.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .body import BodyVisitor
from .bounds import TOO_DEEP, precheck
from .parsed import ParsedModule, StaticFinding, all_params
from .signature import signature_findings
from .taint import Taint


def review_source(
    source: str, func_name: str, registry_params: Sequence[str]
) -> list[StaticFinding]:
    """Review the implementation `func_name` in `source` against the registry's parameter
    names. Returns the findings sorted by (line, col, code); pure, never raises."""
    try:
        return _review(source, func_name, registry_params)
    except RecursionError:
        return [StaticFinding("SI501", 1, 1, TOO_DEEP)]


def _parse(source: str) -> ParsedModule | StaticFinding:
    """The module libcst reads, or the SI501 finding that says why it cannot."""
    bad = precheck(source)
    if bad is not None:
        return bad
    try:
        return ParsedModule(source)
    except cst.ParserSyntaxError as e:
        return StaticFinding(
            "SI501",
            max(e.raw_line, 1),
            e.raw_column + 1,
            f"implementation module does not parse: {e.message}",
        )
    except RecursionError:
        raise
    except Exception as e:  # pragma: no cover - libcst internals
        return StaticFinding("SI501", 1, 1, f"implementation module cannot be read: {e}")


def _body_findings(mod: ParsedModule, func: cst.FunctionDef) -> list[StaticFinding]:
    """SI503 / SI505 / SI506 over the primitive and the module-level helpers it reaches."""
    findings: list[StaticFinding] = []
    seen: set[int] = set()
    work: list[tuple[cst.FunctionDef, str]] = [(func, "")]
    while work:
        fn, where = work.pop(0)
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        v = BodyVisitor(mod, where)
        for dec in fn.decorators:
            dec.visit(v)
        fn.params.visit(v)
        fn.body.visit(v)
        findings.extend(v.findings)
        for h in v.helpers:
            if id(h) not in seen:
                work.append((h, f" (in helper `{h.name.value}`, reached from `{func.name.value}`)"))
    return findings


def _taint_findings(mod: ParsedModule, func: cst.FunctionDef) -> list[StaticFinding]:
    """SI504 in the primitive itself (and the helpers its parameters flow into)."""
    params = {x.name.value for x in all_params(func.params)}
    taint = Taint(mod, func.name.value)
    taint.block(func.body, set(params))
    return taint.findings


def _review(source: str, func_name: str, registry_params: Sequence[str]) -> list[StaticFinding]:
    mod = _parse(source)
    if isinstance(mod, StaticFinding):
        return [mod]
    func = mod.functions.get(func_name)
    if func is None:
        return [
            StaticFinding(
                "SI501", 1, 1, f"no module-level function `{func_name}` in the implementation"
            )
        ]
    findings = (
        signature_findings(mod, func, registry_params)
        + _body_findings(mod, func)
        + _taint_findings(mod, func)
    )
    return sorted(set(findings), key=lambda f: (f.line, f.col, f.code, f.message))
