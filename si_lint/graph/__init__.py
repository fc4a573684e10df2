"""The corpus reference graph (its nodes and edges: docs/graph.md): built per run by
:func:`.builder.build_ref_graph` as the dicts a ``networkx.MultiDiGraph`` holds
(:class:`.builder.RefGraph`), so that the corpus checks read it without importing networkx."""
