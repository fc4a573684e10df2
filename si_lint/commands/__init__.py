"""Sub-commands of the CLI, one module each (``command`` is the click command)."""
