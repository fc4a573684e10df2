"""What cached results depend on besides the files: si-lint's own code and data, and the
profile in use (part of the cache header: a change makes every entry a miss)."""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..fsutil import data_dir, resolves_inside


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The digest of si-lint's installed code and data: ARCHITECTURE.md, "The cache" (their
    stat, not their bytes: hashing them would cost every warm re-check)."""
    pkg = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    found: list[str] = []
    for base, suffix in (
        (pkg, ".py"),
        (data_dir("rules"), ".yaml"),
        (data_dir("schemas"), ".json"),
        (os.path.join(pkg, "profile_data"), ".yaml"),
    ):
        stack = [base]
        while stack:
            with contextlib.suppress(OSError), os.scandir(stack.pop()) as it:
                for entry in it:
                    if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                        stack.append(entry.path)
                    elif entry.name.endswith(suffix):
                        with contextlib.suppress(OSError):
                            st = entry.stat()
                            found.append(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}")
    found.sort()
    return hashlib.sha256("\n".join(found).encode("utf-8", "surrogatepass")).hexdigest()


def profile_fingerprint(profile) -> str:
    # (its name as the user gave it: SI115's messages name the profile)
    text = (
        f"{canonical_text(profile.registry)}\0{canonical_text(profile.templates)}\0"
        f"{profile.name!r}\0{sorted(profile.implementations)!r}\0{profile.refused!r}\0"
    )
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    root = profile.root
    if root is not None:
        for path in sorted(Path(root).rglob("*.py")):
            if not resolves_inside(path, root):  # never read (SPEC §9 "Trust boundaries")
                continue
            with contextlib.suppress(OSError):
                h.update(os.fsencode(path.relative_to(root)) + b"\0" + path.read_bytes())
    return h.hexdigest()


def canonical_text(value: Any) -> str:
    """Plain data as text (integers of any size, surrogates and NaN included; the
    loader bounds profile data's depth)."""
    out: list[str] = []
    _canon(value, out)
    return "".join(out)


def _canon(v: Any, out: list[str]) -> None:
    if isinstance(v, dict):
        out.append("{")
        for k in sorted(v, key=str):
            out.append(repr(str(k)) + ":")
            _canon(v[k], out)
            out.append(",")
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for item in v:
            _canon(item, out)
            out.append(",")
        out.append("]")
    elif isinstance(v, int) and not isinstance(v, bool):
        out.append("i" + hex(v))  # hex: no digit limit, linear in the size
    else:
        out.append(f"{type(v).__name__}:{v!r}")
