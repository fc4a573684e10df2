"""`si-lint graph [PATHS]`: export the reference graph (SPEC §7) of the corpus ``check``
builds; PATHS keep the nodes defined and the references made in the named files, and the
nodes those references point at."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import click

from ..errors import UsageError
from ..graph.builder import resolve_positions
from ..graph.dot import findings_by_node, to_dot
from ..graph.export import FORMATS, focus, resolve_node, restrict, to_graphml, to_json
from ..pipeline import Options, build_corpus, run
from ..report.output import write_file
from . import options


@click.command("graph")
@click.argument("paths", nargs=-1, type=click.Path())
@options.declare(
    options.fmt(*FORMATS, help="Export format (svg needs Graphviz's `dot`)."),
    (
        "--focus focus_node",
        "Only NODE (an id like `scenario:<id>`, or a bare name) and its direct "
        "neighbours in the whole corpus graph.",
        {"metavar": "NODE"},
    ),
    ("--all-nodes", "dot/svg: also draw the nodes no edge touches (hidden by default)."),
    (
        "--no-findings",
        "dot/svg: do not run the check to paint the nodes that carry an error or warning.",
    ),
    ("--output -o", "Write to FILE.", options.FILE),
)
def command(paths, fmt, focus_node, all_nodes, no_findings, output):
    """Export the corpus reference graph: scenarios, templates, roles, primitives, synonym
    lists, deviations, fixtures and evidence, and every reference between them (with the
    file, line and column where it is made). Missing nodes are references to nothing.

    dot and svg draw it for reading: each file's nodes in a box, the edges of one relation
    between two nodes merged (`rel ×N`), nodes no edge touches hidden (--all-nodes shows
    them), and the nodes that carry a `check` error or warning filled red or yellow
    (--no-findings skips the check). json and graphml hold every node and every edge."""
    if fmt == "svg" and shutil.which("dot") is None:
        raise UsageError("Graphviz `dot` is not installed; use --format dot")
    corpus, _selection = build_corpus(list(paths), Options(use_cache=False))
    graph, nid = resolve_positions(corpus.graph, corpus), None
    if paths:
        graph = restrict(graph, corpus, list(paths), Path.cwd())
    if focus_node:
        nid = resolve_node(corpus.graph, focus_node)
        if nid is None:
            raise UsageError(
                f"--focus: no node `{focus_node}` in the graph "
                "(ids look like `scenario:<id>`, `template:C-DA-001`, `fixture:<path>`)"
            )
        graph = focus(corpus.graph, nid)
    if fmt in ("json", "graphml"):
        text = (to_json if fmt == "json" else to_graphml)(graph)
    else:
        painted = None
        if not no_findings:  # what `si-lint check --no-cache PATHS` reports
            found = run(list(paths) or ["."], Options(use_cache=False)).findings
            painted = findings_by_node(graph, [f.as_json() for f in found])
        text = to_dot(graph, all_nodes=all_nodes, keep=[nid] if nid else [], findings=painted)
    data = text.encode("utf-8")
    if fmt == "svg":
        data = _svg(data)
    if output:
        write_file(output, data)  # atomic; an OSError is a usage error (exit 2)
    elif hasattr(sys.stdout, "buffer"):
        click.echo(data, nl=False)  # bytes: written as they are
    else:  # a text-only stream: decode (the formats are UTF-8 text)
        sys.stdout.write(data.decode("utf-8"))


def _svg(data: bytes) -> bytes:
    """The DOT text laid out by Graphviz; through ``unflatten`` first when installed (the
    many leaves of one scenario staggered over a few ranks, not one column)."""
    try:
        if shutil.which("unflatten") is not None:
            flat = subprocess.run(
                ["unflatten", "-l", "4", "-f", "-c", "6"],
                input=data,
                capture_output=True,
                check=False,
                timeout=300,
            )
            data = flat.stdout if flat.returncode == 0 and flat.stdout else data
        proc = subprocess.run(
            ["dot", "-Tsvg"], input=data, capture_output=True, check=False, timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"Graphviz `dot` failed: {exc}") from exc
    if proc.returncode != 0:
        raise UsageError(f"Graphviz `dot` failed: {proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout
