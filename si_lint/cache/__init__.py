"""The result cache (SPEC §9): ``.si-lint-cache/`` at the corpus root, JSON data only,
signed, every entry checked when read; the key of each cached answer: ARCHITECTURE.md,
"The cache"."""
