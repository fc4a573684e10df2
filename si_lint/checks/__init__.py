"""The rules. Every module in this package is imported by :func:`base.all_checks`."""
