"""si-lint: static analysis and linting for SI scenario corpora and EIO criteria modules."""

__version__ = "0.1.0"
