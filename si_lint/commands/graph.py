"""`si-lint graph [PATHS]`: export the corpus reference graph (SPEC §7).

The corpus is built exactly as ``check`` builds it (``si_lint.pipeline.build_corpus``: the
whole corpus under the root, the profile in use, no check run), then the graph is exported.
With PATHS other than the default, the export keeps the nodes defined in the named files
and the references made there, plus the nodes those references point at.

Every format is deterministic: nodes and edges are sorted, whatever the file order or the
hash seed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import click

from ..graph.export import FORMATS, focus, resolve_node, restrict, to_dot, to_graphml, to_json


@click.command("graph")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="dot",
    show_default=True,
    help="Export format (svg needs Graphviz's `dot`).",
)
@click.option(
    "--focus",
    "focus_node",
    metavar="NODE",
    help="Only NODE (an id like `scenario:<id>`, or a bare name) and its direct "
    "neighbours in the whole corpus graph.",
)
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to FILE.")
def command(paths, fmt, focus_node, output):
    """Export the corpus reference graph: scenarios, templates, roles, primitives, synonym
    lists, deviations, fixtures and evidence, and every reference between them (with the
    file, line and column where it is made). Missing nodes are references to nothing."""
    from ..pipeline import Options, UsageError, build_corpus

    if fmt == "svg" and shutil.which("dot") is None:
        raise UsageError("Graphviz `dot` is not installed; use --format dot")
    cwd = Path.cwd()
    corpus, _selection = build_corpus(
        list(paths), Options(use_cache=False)
    )  # usage errors reach the CLI
    from ..graph import resolve_positions

    graph = resolve_positions(corpus.graph, corpus)
    if paths:
        graph = restrict(graph, corpus, list(paths), cwd)
    if focus_node:
        nid = resolve_node(corpus.graph, focus_node)
        if nid is None:
            raise UsageError(
                f"--focus: no node `{focus_node}` in the graph "
                "(ids look like `scenario:<id>`, `template:C-DA-001`, "
                "`fixture:<path>`)"
            )
        graph = focus(corpus.graph, nid)
    if fmt == "json":
        text = to_json(graph)
    elif fmt == "graphml":
        text = to_graphml(graph)
    else:
        text = to_dot(graph)
    data = text.encode("utf-8")
    if fmt == "svg":
        try:
            proc = subprocess.run(
                ["dot", "-Tsvg"], input=data, capture_output=True, check=False, timeout=300
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UsageError(f"Graphviz `dot` failed: {exc}") from exc
        if proc.returncode != 0:
            msg = proc.stderr.decode("utf-8", "replace").strip()
            raise UsageError(f"Graphviz `dot` failed: {msg}")
        data = proc.stdout
    if output:
        from ..report.output import write_file

        write_file(output, data)  # atomic; an OSError is a usage error (exit 2)
    else:
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text-only stream: decode (the formats are UTF-8 text)
            sys.stdout.write(data.decode("utf-8"))
            sys.stdout.flush()
        else:
            out.write(data)
            out.flush()
