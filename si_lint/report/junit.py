"""`--format junit`: JUnit XML valid against Jenkins' ``junit-10.xsd`` (SPEC §9; its
suites and testcases: docs/integration.md). Deterministic: files sorted, no timestamps or
host names."""

from __future__ import annotations

from functools import cache
from xml.sax.saxutils import escape, quoteattr

from ..catalogue import code_key, rules
from ..checks import all_checks
from ..findings import SEVERITY_RANK
from ..loader.diags import CODES as LOADER_CODES
from .controls import XML, printable
from .text import headline, notes


def _attr(value) -> str:
    """An attribute value: what XML cannot carry and line breaks shown as escapes (the
    report's own line breaks are the only ones)."""
    return quoteattr(printable(str(value), XML), {"\t": "&#9;"})


def _describe(f) -> str:
    return escape("\n".join(printable(line, XML) for line in [headline(f), *notes(f)]))


def _clean_rules(result):
    """``clean(path, findings)``: the enabled loader and file rules clean on ``path``."""
    docs_of = result.corpus.by_file if result.corpus is not None else {}
    config = result.config

    @cache  # the same for every file of the same kinds
    def ran(loaded: bool, kinds: frozenset) -> frozenset:
        codes = set(LOADER_CODES) if loaded else set()
        for check in all_checks() if kinds else ():
            if check.scope == "file" and (check.kinds is None or kinds & set(check.kinds)):
                codes.update(check.codes)
        return frozenset(c for c in codes if config is None or config.enabled(c))

    def clean(path: str, findings: list) -> list[str]:
        yaml = path.endswith((".yaml", ".yml", ".json"))  # the rules run on any document
        docs = (docs_of.get(path) or [None]) if yaml else []
        codes = ran(bool(docs), frozenset(d.kind for d in docs if d is not None))
        return sorted(codes - {f.code for f in findings}, key=code_key)

    return clean


def write(result, out, fail_on: str = "error", junit_passing: bool = True, **_options) -> None:
    threshold = SEVERITY_RANK[fail_on]

    def fails(f) -> bool:
        return SEVERITY_RANK.get(f.severity, 0) <= threshold

    of: dict[str, list] = {}
    for f in result.findings:
        of.setdefault(f.path, []).append(f)
    clean = _clean_rules(result) if junit_passing else lambda path, findings: []
    suites = [(p, of.get(p, []), clean(p, of.get(p, []))) for p in sorted({*result.reported, *of})]
    tests = sum(len(findings) + len(passed) for _, findings, passed in suites)
    failures = sum(1 for _, findings, _ in suites for f in findings if fails(f))
    out.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites name="si-lint" tests="{tests}" failures="{failures}" errors="0">\n'
    )
    catalogue = rules()
    for path, findings, clean_codes in suites:
        failed = sum(1 for f in findings if fails(f))
        out.write(
            f'  <testsuite name={_attr(path)} tests="{len(findings) + len(clean_codes)}" '
            f'failures="{failed}" errors="0" skipped="0" file={_attr(path)}>\n'
        )
        for f in findings:  # one testcase per finding (name: code and location)
            name = f"{f.code} {f.path}:{f.line}:{f.column}"
            out.write(f"    <testcase classname={_attr(path)} name={_attr(name)}>\n")
            if fails(f):
                out.write(
                    f"      <failure type={_attr(f.code)} "
                    f"message={_attr(f'[{f.severity}] {f.message}')}>"
                    f"{_describe(f)}</failure>\n"
                )
            else:
                out.write(f"      <system-out>{_describe(f)}</system-out>\n")
            out.write("    </testcase>\n")
        for code in clean_codes:  # a passing testcase per clean rule
            rule = catalogue.get(code)
            name = f"{code} {rule.name}" if rule and rule.name else code
            out.write(f"    <testcase classname={_attr(path)} name={_attr(name)}/>\n")
        out.write("  </testsuite>\n")
    out.write("</testsuites>\n")
