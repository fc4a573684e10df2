"""`--format junit`: JUnit XML (SPEC §9).

One ``testsuite`` per reported file, one ``testcase`` per rule that ran on it -- the loader
codes, the codes of every file check whose kinds include the document's kind, and any code
a finding on that file carries (corpus checks, implementation files) -- restricted to the
codes the configuration enables. A ``failure`` per error-severity finding; warnings and
infos are listed in the testcase's ``system-out`` and do not fail it.

Deterministic: files and codes sorted, no timestamps or host names.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

# characters XML 1.0 cannot carry
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", text)


#: what this report reads (``si_lint.report.needs_corpus``): the rules that ran on each
#: file depend on its documents' kinds
NEEDS = ("findings", "corpus")


def _attr(value) -> str:
    return quoteattr(_clean(str(value)), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _text(value: str) -> str:
    return escape(_clean(value))


def _reported_files(result) -> list[str]:
    reported = getattr(result, "reported", None)
    if reported is not None:
        files = set(reported)
    else:
        docs = [d.relpath for d in result.corpus.documents]
        files = set(docs) if result.files >= len(docs) else set(result.skipped)
    files |= {f.path for f in result.findings}
    return sorted(files)


def codes_run_on(doc, checks, loader_codes) -> set[str]:
    """The codes of the rules that run on one document (by its kind)."""
    codes = set(loader_codes)
    if doc is None:
        return codes
    for check in checks:
        if check.scope != "file":
            continue
        if check.kinds is None or doc.kind in check.kinds:
            codes.update(check.codes)
    return codes


def _describe(f) -> str:
    lines = [f"{f.path}:{f.line}:{f.column}: {f.code} [{f.severity}] {f.message}"]
    if f.help:
        lines.append(f"help: {f.help}")
    for r in f.related:
        msg = f": {r.message}" if r.message else ""
        lines.append(f"note: {r.path}:{r.line}:{r.column}{msg}")
    return "\n".join(lines)


def render(result, **_options) -> str:
    from ..catalogue import _code_key, rules
    from ..checks.base import all_checks
    from ..loader import CODES as LOADER_CODES

    catalogue = rules()
    checks = all_checks()
    docs_of = result.corpus.by_file
    config = result.config
    by_file: dict[str, list] = {}
    for f in result.findings:
        by_file.setdefault(f.path, []).append(f)

    suites = []
    total_tests = total_failures = 0
    for path in _reported_files(result):
        findings = by_file.get(path, [])
        ran = set()
        if path.endswith((".yaml", ".yml", ".json")):  # the rules run on any of its documents
            for doc in docs_of.get(path) or [None]:
                ran |= codes_run_on(doc, checks, LOADER_CODES)
        ran = {c for c in ran if _enabled(config, c)}
        ran |= {f.code for f in findings}
        cases = []
        failures = 0
        for code in sorted(ran, key=_code_key):
            mine = [f for f in findings if f.code == code]
            rule = catalogue.get(code)
            name = f"{code} {rule.name}" if rule and rule.name else code
            errors = [f for f in mine if f.severity == "error"]
            others = [f for f in mine if f.severity != "error"]
            body = []
            for f in errors:
                body.append(
                    f"      <failure type={_attr(code)} message={_attr(f'{f.line}:{f.column}: {f.message}')}>"
                    f"{_text(_describe(f))}</failure>"
                )
            if others:
                body.append(f"      <system-out>{_text(chr(10).join(_describe(f) for f in others))}</system-out>")
            failures += len(errors)
            head = f"    <testcase classname={_attr(path)} name={_attr(name)} file={_attr(path)}"
            cases.append(head + ("/>" if not body else ">\n" + "\n".join(body) + "\n    </testcase>"))
        total_tests += len(cases)
        total_failures += failures
        suites.append(
            f"  <testsuite name={_attr(path)} tests=\"{len(cases)}\" failures=\"{failures}\" "
            f"errors=\"0\" skipped=\"0\">\n" + "".join(c + "\n" for c in cases) + "  </testsuite>"
        )
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<testsuites name=\"si-lint\" tests=\"{total_tests}\" failures=\"{total_failures}\" errors=\"0\">"
    )
    return head + "\n" + "".join(s + "\n" for s in suites) + "</testsuites>\n"


def _enabled(config, code: str) -> bool:
    try:
        return config.enabled(code)
    except Exception:  # noqa: BLE001 - a report never fails on config shape
        return True
