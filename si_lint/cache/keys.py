"""What cached results depend on besides the files: si-lint's own code and data, and the
profile in use (part of the cache header: a change makes every entry a miss)."""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..fsutil import data_path, resolves_inside


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of every ``.py`` file, rule, schema and built-in profile file of si-lint
    as installed (path and bytes): no version string is bumped by hand."""
    pkg = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    h = hashlib.sha256()
    for base, suffix in (
        (pkg, ".py"),
        (data_path("rules"), ".yaml"),
        (data_path("schemas"), ".json"),
        (os.path.join(pkg, "profile_data"), ".yaml"),
    ):
        found: list[str] = []
        for directory, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found.extend(os.path.join(directory, f) for f in files if f.endswith(suffix))
        for path in sorted(found):
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            rel = os.path.relpath(path, base)
            h.update(f"{rel}\0{len(data)}\0".encode("utf-8", "surrogatepass"))
            h.update(data)
    return h.hexdigest()


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
