"""Findings as LSP diagnostics: the range a finding covers, in the client's position
encoding, and the :class:`lsprotocol.types.Diagnostic` published for it."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types as T

from .. import rule_url
from ..catalogue import codes
from ..findings import Finding
from ..fix import fixes_of
from ..source import finding_end

SEVERITY = {
    "error": T.DiagnosticSeverity.Error,
    "warning": T.DiagnosticSeverity.Warning,
    "info": T.DiagnosticSeverity.Information,
}


def lsp_range(codec, lines: list[str], line: int, col: int, end_line=None, end_col=None) -> T.Range:
    """The range of a finding at ``line:col`` (1-based, code points) to its end
    (:func:`si_lint.source.finding_end`, as the reports compute it), in the client's
    position encoding."""

    def text(n: int) -> str:
        return (lines[n - 1] if 1 <= n <= len(lines) else "").rstrip("\r")

    line, col = max(line, 1), max(col, 1)
    src = text(line)
    end_line, end_col = finding_end(src, line, col, end_line, end_col)
    start = codec.position_to_client_units([src], T.Position(0, col - 1))
    end = codec.position_to_client_units([text(end_line)], T.Position(0, end_col - 1))
    return T.Range(T.Position(line - 1, start.character), T.Position(end_line - 1, end.character))


def to_diagnostic(
    f: Finding,
    lines: list[str],
    codec,
    abspath_of: Callable[[str], str],
    lines_of: Callable[[str], list[str]],
    uri_of: Callable[[str], str | None],
) -> T.Diagnostic:
    """The diagnostic of a finding in a file whose text is ``lines``; its related locations
    are in the files ``abspath_of`` names (``lines_of`` reads their text)."""
    related = []
    for r in f.related:
        rpath = abspath_of(r.path)
        uri = uri_of(rpath)
        if uri is None:  # a path with no URI: no location to give
            continue
        related.append(
            T.DiagnosticRelatedInformation(
                location=T.Location(
                    uri=uri, range=lsp_range(codec, lines_of(rpath), r.line, r.column)
                ),
                message=r.message or f.code,
            )
        )
    message = f.message + (f"\nhelp: {f.help}" if f.help else "")
    return T.Diagnostic(
        range=lsp_range(codec, lines, f.line, f.column, f.end_line, f.end_column),
        message=message,
        severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
        code=f.code,
        code_description=T.CodeDescription(href=rule_url(f.code)) if f.code in codes() else None,
        source="si-lint",
        related_information=related or None,
        data={"fixable": bool(fixes_of(f.fix))},
    )
