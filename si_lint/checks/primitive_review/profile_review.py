"""SI501–SI507 over a whole profile: each primitive's ``implementation:`` reviewed (never
imported) and checked for a template that uses it; the only I/O reads those ``.py`` files."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...mapping import MAPPING
from ...model import params_of, primitives_in
from ...profile import BUILTIN_PRIMITIVES, Profile

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


def registry_of(profile: Profile) -> Mapping[str, Any]:
    return profile.registry if isinstance(profile.registry, MAPPING) else {}


def registered_primitives(profile: Profile) -> dict[str, Mapping[str, Any]]:
    """Like ``Profile.primitives``, tolerant of any registry shape (the first entry of a
    repeated name wins)."""
    out: dict[str, Mapping[str, Any]] = {}
    entries = registry_of(profile).get("primitives")
    for e in entries if isinstance(entries, list) else []:
        if isinstance(e, MAPPING) and isinstance(e.get("name"), str):
            out.setdefault(e["name"], e)
    return out


def table_primitives(table: Any, registered: Mapping[str, Any]) -> list[str]:
    """Registered primitive names a decision table uses (first use order, once each)."""
    rows = [row for row in table if isinstance(row, MAPPING)] if isinstance(table, list) else []
    return list(
        dict.fromkeys(n for row in rows for n in primitives_in(row.get("when"), registered))
    )


def split_spec(spec: Any) -> tuple[str, str] | None:
    """``(relative path, function)`` of ``implementation: path.py:function``, or None."""
    if not isinstance(spec, str) or ":" not in spec:
        return None
    rel, func = (part.strip() for part in spec.rsplit(":", 1))
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


def review_profile(profile: Profile) -> list[ImplFinding]:
    """In registry order then file position (a repeated name: its first entry); an
    in-memory profile without ``root`` gets SI501/SI507 only; a finding in a helper two
    primitives share is reported once."""
    registered = registered_primitives(profile)
    tables = [t.get("table") for t in profile.templates.values() if isinstance(t, MAPPING)]
    used = {name for table in tables for name in table_primitives(table, registered)}
    out: list[ImplFinding] = []
    done: set[str] = set()
    seen_file: set[tuple] = set()
    entries = registry_of(profile).get("primitives")
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        name = entry.get("name") if isinstance(entry, MAPPING) else None
        if not isinstance(name, str) or name in done:
            continue
        done.add(name)
        if name not in used:
            message = f"registered primitive `{name}` is used by no template"
            out.append(ImplFinding("SI507", name, message, registry_path=("primitives", i, "name")))
        spec = entry.get("implementation")
        if spec is not None:
            at = ("primitives", i, "implementation")
            out.extend(_implementation(profile, name, entry, spec, at, seen_file))
        elif name not in BUILTIN_PRIMITIVES:
            message = (
                f"registered primitive `{name}` has no implementation "
                "(`implementation: path.py:function`)"
            )
            out.append(ImplFinding("SI501", name, message, registry_path=("primitives", i, "name")))
    return out


def _implementation(
    profile: Profile, name: str, entry: Mapping[str, Any], spec: Any, at: tuple, seen: set
) -> Iterator[ImplFinding]:
    """The findings of the file an ``implementation`` entry names; SI501 at the entry's value
    when it cannot be read or lacks the function."""

    def on_entry(message: str) -> ImplFinding:
        return ImplFinding("SI501", name, message, registry_path=at, on="value")

    parsed = split_spec(spec)
    if parsed is None:
        yield on_entry(f"`implementation` of `{name}` is not `path/to/file.py:function`")
        return
    if profile.root is None:
        return  # an in-memory profile with no files: nothing to read
    rel, func = parsed
    source, problem = _read_impl(profile.root, rel)
    if source is None:
        yield on_entry(f"`{name}`: {problem}")
        return
    from .source_review import review_source  # libcst: only when there is code to read

    for f in review_source(source, func, list(params_of(entry))):
        if f.code == "SI501" and not f.message.startswith("implementation module"):
            yield on_entry(f"`{name}`: no module-level function `{func}` in `{rel}`")
        elif (key := (f.code, rel, f.line, f.col)) not in seen:
            seen.add(key)
            yield ImplFinding(f.code, name, f.message, file=rel, line=f.line, col=f.col)
