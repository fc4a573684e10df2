"""`--format junit`: JUnit XML (SPEC §9).

Valid against Jenkins' ``junit-10.xsd``. One ``testsuite`` per reported file (``file``
attribute on the suite). In it, one ``testcase`` per finding, named by its code and
location (``SI105 scenarios/s.yaml:15:32``) so every failure survives in GitLab, Jenkins and
junit2html; a finding that ``--fail-on`` counts carries a ``failure`` (message: severity and
message; body: the finding as text with help and notes), the others pass with the finding
in ``system-out``. Then a passing ``testcase`` per rule that ran clean on the file (the loader
codes, the file checks for the document's kind, restricted to the enabled codes) — unless
``--no-junit-passing`` (``junit_passing=False``): then a suite holds the findings' testcases
only (a file without findings is an empty suite), for reports that would reach a CI
system's limit (GitLab: 250,000 objects, about 1,500 files with the passing testcases).
``failures`` counts exactly what ``--fail-on`` counts.

Deterministic: files sorted, findings in report order, no timestamps or host names.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..catalogue import code_key, rules
from ..checks import all_checks
from ..findings import SEVERITY_RANK
from ..loader.diags import CODES as LOADER_CODES
from . import headline, notes
from .controls import XML, printable


def _attr(value) -> str:
    """An attribute value: what XML cannot carry and line breaks shown as escapes (the
    report's own line breaks are the only ones)."""
    return quoteattr(printable(str(value), XML), {"\t": "&#9;"})


def _describe(f) -> str:
    return escape("\n".join(printable(line, XML) for line in [headline(f), *notes(f)]))


def _enabled(config, code: str) -> bool:
    try:
        return config.enabled(code)
    except Exception:
        return True


class _Suites:
    """The testsuites of one report: the findings of each reported file and the rules
    that ran clean on it."""

    def __init__(self, result, fail_on: str, passing: bool) -> None:
        self.docs_of = result.corpus.by_file if result.corpus is not None else {}
        self.config = result.config
        self.threshold = SEVERITY_RANK[fail_on]
        self.passing = passing
        self.of: dict[str, list] = {}
        for f in result.findings:
            self.of.setdefault(f.path, []).append(f)
        self.files = sorted({*result.reported, *self.of})
        self._ran: dict[tuple, frozenset] = {}

    def fails(self, f) -> bool:
        return SEVERITY_RANK.get(f.severity, 0) <= self.threshold

    def clean(self, path: str) -> list[str]:
        """The codes of the rules that ran on ``path`` without a finding, in code order
        (none under ``--no-junit-passing``): the loader's, and the file checks of the
        kinds of its documents, if enabled."""
        if not self.passing:
            return []
        yaml = path.endswith((".yaml", ".yml", ".json"))  # the rules run on any document
        docs = (self.docs_of.get(path) or [None]) if yaml else []
        key = (yaml, *sorted({"-" if d is None else repr(d.kind) for d in docs}))
        ran = self._ran.get(key)  # the same for every file of the same kinds
        if ran is None:
            codes = set(LOADER_CODES) if docs else set()
            kinds = {d.kind for d in docs if d is not None}
            for check in all_checks() if kinds else ():
                if check.scope == "file" and (check.kinds is None or kinds & set(check.kinds)):
                    codes.update(check.codes)
            ran = self._ran[key] = frozenset(c for c in codes if _enabled(self.config, c))
        found = {f.code for f in self.of.get(path, ())}
        return sorted(ran - found, key=code_key)

    def write(self, path: str, out) -> None:
        findings = self.of.get(path, [])
        clean = self.clean(path)
        failures = sum(1 for f in findings if self.fails(f))
        out.write(
            f'  <testsuite name={_attr(path)} tests="{len(findings) + len(clean)}" '
            f'failures="{failures}" errors="0" skipped="0" file={_attr(path)}>\n'
        )
        for f in findings:  # one testcase per finding (name: code and location)
            name = f"{f.code} {f.path}:{f.line}:{f.column}"
            out.write(f"    <testcase classname={_attr(path)} name={_attr(name)}>\n")
            if self.fails(f):
                out.write(
                    f"      <failure type={_attr(f.code)} "
                    f"message={_attr(f'[{f.severity}] {f.message}')}>"
                    f"{_describe(f)}</failure>\n"
                )
            else:
                out.write(f"      <system-out>{_describe(f)}</system-out>\n")
            out.write("    </testcase>\n")
        catalogue = rules()
        for code in clean:  # a passing testcase per clean rule
            rule = catalogue.get(code)
            name = f"{code} {rule.name}" if rule and rule.name else code
            out.write(f"    <testcase classname={_attr(path)} name={_attr(name)}/>\n")
        out.write("  </testsuite>\n")


def write(result, out, fail_on: str = "error", junit_passing: bool = True, **_options) -> None:
    suites = _Suites(result, fail_on, junit_passing)
    tests = failures = 0
    for path in suites.files:
        findings = suites.of.get(path, [])
        tests += len(findings) + len(suites.clean(path))
        failures += sum(1 for f in findings if suites.fails(f))
    out.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites name="si-lint" tests="{tests}" failures="{failures}" errors="0">\n'
    )
    for path in suites.files:
        suites.write(path, out)
    out.write("</testsuites>\n")
