"""SI501–SI507 over a whole profile: every registered primitive's `implementation:` entry
is reviewed statically (never imported), and every primitive is checked for a template
that uses it.

Shared by ``si-lint check`` (``si_lint/checks/implementations.py``) and ``si-lint review``.
The only I/O is reading the implementation ``.py`` files of a profile directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..profile import BUILTIN_PRIMITIVES, Profile

CODES = ("SI501", "SI502", "SI503", "SI504", "SI505", "SI506", "SI507")

HELP = {
    "SI501": "add `implementation: impl/<file>.py:<function>` to the registry entry (a path "
    "relative to the profile directory) and define `def <name>(evidence, *, <params>) -> bool`",
    "SI502": "make the signature `def <name>(evidence, *, <the registry's params>)`",
    "SI503": "compute the verdict from `evidence` and the parameters only",
    "SI504": "escape every value that goes into a pattern with `re.escape(...)`",
    "SI505": "iterate `sorted(...)` of the set, or make the loop order-independent",
    "SI506": "keep state in locals; a primitive is a pure function",
    "SI507": "remove the primitive from the registry, or land the template that needs it",
}


@dataclass(frozen=True, order=True)
class ImplFinding:
    """A finding either in an implementation file (``file`` relative to the profile
    directory, ``line``/``col`` 1-based) or on a registry entry (``registry_path``)."""

    code: str
    primitive: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    registry_path: tuple = ()
    on: str = "key"


def _param_names(entry: Mapping[str, Any]) -> list[str]:
    out = []
    ps = entry.get("params")
    for p in ps if isinstance(ps, list) else []:
        if isinstance(p, Mapping) and isinstance(p.get("name"), str):
            out.append(p["name"])
    return out


def primitives_in(pred: Any, registered: Mapping[str, Any], depth: int = 0) -> Iterator[str]:
    """Registered primitive names a predicate uses (in order, with repeats)."""
    if depth > 200 or not isinstance(pred, Mapping):
        return
    for key, value in pred.items():
        if key == "not":
            yield from primitives_in(value, registered, depth + 1)
        elif key in ("all", "any") and isinstance(value, list):
            for v in value:
                yield from primitives_in(v, registered, depth + 1)
        elif isinstance(key, str) and key in registered:
            yield key


def table_primitives(table: Any, registered: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    if isinstance(table, list):
        for row in table:
            if isinstance(row, Mapping):
                for name in primitives_in(row.get("when"), registered):
                    if name not in out:
                        out.append(name)
    return out


def used_by_templates(profile: Profile) -> dict[str, list[str]]:
    """Primitive name -> ids of the templates whose tables use it (sorted)."""
    from .diff import _primitives

    registered = _primitives(profile)
    out: dict[str, list[str]] = {}
    for tid, tdoc in sorted(profile.templates.items()):
        table = tdoc.get("table") if isinstance(tdoc, Mapping) else None
        for name in table_primitives(table, registered):
            out.setdefault(name, []).append(tid)
    return out


def split_spec(spec: Any) -> tuple[str, str] | None:
    if not isinstance(spec, str) or ":" not in spec:
        return None
    rel, func = spec.rsplit(":", 1)
    rel, func = rel.strip(), func.strip()
    if not rel.endswith(".py") or not func.isidentifier():
        return None
    return rel, func


def _read_impl(root: Path, rel: str) -> tuple[str | None, str | None]:
    """(source, problem). The file must lie inside the profile directory."""
    path = root / rel
    try:
        resolved = path.resolve()
        resolved.relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):
        return None, f"implementation file `{rel}` is outside the profile directory"
    if not resolved.is_file():
        return None, f"implementation file `{rel}` does not exist"
    try:
        raw = resolved.read_bytes()
    except OSError as exc:
        return None, f"implementation file `{rel}` cannot be read ({exc.strerror or exc})"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, f"implementation file `{rel}` is not UTF-8"


def review_profile(profile: Profile, sources: Mapping[str, str] | None = None) -> list[ImplFinding]:
    """SI501–SI507 for every registered primitive of ``profile``.

    Implementation files are read from ``profile.root``; ``sources`` (relative path ->
    text) overrides that (profiles read from a git revision). Deterministic order: by
    registry order, then file position. Duplicate file findings (a helper shared by two
    primitives) are reported once.
    """
    findings: list[ImplFinding] = []
    seen_file: set[tuple] = set()
    used = used_by_templates(profile)
    entries = profile.registry.get("primitives") if isinstance(profile.registry, Mapping) else None
    if not isinstance(entries, list):
        return findings
    first_index: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            first_index.setdefault(entry["name"], i)
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            continue
        name = entry["name"]
        if first_index.get(name) != i:
            continue  # a duplicate entry: the first one is the registered primitive
        name_path = ("primitives", i, "name")
        if name not in used:
            findings.append(
                ImplFinding(
                    "SI507",
                    name,
                    f"registered primitive `{name}` is used by no template",
                    registry_path=name_path,
                )
            )
        spec = entry.get("implementation")
        if spec is None:
            if name not in BUILTIN_PRIMITIVES:
                findings.append(
                    ImplFinding(
                        "SI501",
                        name,
                        f"registered primitive `{name}` has no implementation "
                        "(`implementation: path.py:function`)",
                        registry_path=name_path,
                    )
                )
            continue
        impl_path = ("primitives", i, "implementation")
        parsed = split_spec(spec)
        if parsed is None:
            findings.append(
                ImplFinding(
                    "SI501",
                    name,
                    f"`implementation` of `{name}` is not `path/to/file.py:function`",
                    registry_path=impl_path,
                    on="value",
                )
            )
            continue
        rel, func = parsed
        if sources is not None and rel in sources:
            source, problem = sources[rel], None
        elif sources is not None and profile.root is None:
            source, problem = None, f"implementation file `{rel}` does not exist"
        elif profile.root is None:
            continue  # an in-memory profile with no files: nothing to read
        else:
            source, problem = _read_impl(profile.root, rel)
        if source is None:
            findings.append(
                ImplFinding(
                    "SI501", name, f"`{name}`: {problem}", registry_path=impl_path, on="value"
                )
            )
            continue
        from .static import review_source  # libcst: imported only when there is code to read

        for f in review_source(source, func, _param_names(entry)):
            if f.code == "SI501" and not f.message.startswith("implementation module"):
                findings.append(
                    ImplFinding(
                        "SI501",
                        name,
                        f"`{name}`: no module-level function `{func}` in `{rel}`",
                        registry_path=impl_path,
                        on="value",
                    )
                )
                continue
            key = (f.code, rel, f.line, f.col)
            if key in seen_file:
                continue
            seen_file.add(key)
            findings.append(ImplFinding(f.code, name, f.message, file=rel, line=f.line, col=f.col))
    return findings


def profile_relpath(registry_relpath: str, rel_in_profile: str) -> str:
    """The path of a profile file, relative to wherever ``registry_relpath`` is relative to."""
    base = os.path.dirname(registry_relpath.replace("\\", "/"))
    joined = (
        os.path.normpath(os.path.join(base, rel_in_profile))
        if base
        else os.path.normpath(rel_in_profile)
    )
    return joined.replace(os.sep, "/")


__all__ = [
    "CODES",
    "HELP",
    "ImplFinding",
    "review_profile",
    "used_by_templates",
    "table_primitives",
    "primitives_in",
    "split_spec",
    "profile_relpath",
]
