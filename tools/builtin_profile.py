"""Write ``si_lint/profile_data/builtin.json``, the shipped profile as JSON (read without
the YAML parser: :func:`si_lint.profile.read_rendition`). Run after editing the profile's YAML.

    python tools/builtin_profile.py [--check]
"""

from __future__ import annotations

import sys

from si_lint.profile import BUILTIN_DIR, RENDITION, load_profile, rendition


def main(argv: list[str]) -> int:
    base = load_profile(BUILTIN_DIR)
    text = rendition(BUILTIN_DIR, base.registry, base.templates)
    path = BUILTIN_DIR / RENDITION
    if "--check" in argv:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        print("current" if current == text else f"{path} is stale: run this without --check")
        return 0 if current == text else 1
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
