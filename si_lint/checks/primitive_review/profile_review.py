"""SI501–SI507 over a whole profile: every registered primitive's ``implementation:`` entry
is reviewed statically (never imported), and every primitive is checked for a template
that uses it.

Shared by ``si-lint check`` (:mod:`si_lint.checks.implementations`) and ``si-lint review``.
The only I/O is reading the implementation ``.py`` files of a profile directory.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...mapping import MAPPING
from ...model import params_of
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


# --------------------------------------------------------------------------------------
# the registry and the templates, read tolerantly (any shape)


def registry_of(profile: Profile) -> Mapping[str, Any]:
    """The profile's registry document ({} when it is not a mapping)."""
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


def primitives_in(pred: Any, registered: Mapping[str, Any], depth: int = 0) -> Iterator[str]:
    """Registered primitive names a predicate uses (in order, with repeats)."""
    if depth > 200 or not isinstance(pred, MAPPING):
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
    """Registered primitive names a decision table uses (first use order, once each)."""
    out: list[str] = []
    if isinstance(table, list):
        for row in table:
            if isinstance(row, MAPPING):
                for name in primitives_in(row.get("when"), registered):
                    if name not in out:
                        out.append(name)
    return out


def used_by_templates(profile: Profile) -> dict[str, list[str]]:
    """Primitive name -> ids of the templates whose tables use it (sorted)."""
    registered = registered_primitives(profile)
    out: dict[str, list[str]] = {}
    for tid, tdoc in sorted(profile.templates.items()):
        table = tdoc.get("table") if isinstance(tdoc, MAPPING) else None
        for name in table_primitives(table, registered):
            out.setdefault(name, []).append(tid)
    return out


# --------------------------------------------------------------------------------------
# the implementation file an entry names


def split_spec(spec: Any) -> tuple[str, str] | None:
    """``(relative path, function)`` of ``implementation: path.py:function``, or None."""
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


# --------------------------------------------------------------------------------------
# the review


class _Review:
    """The findings of one profile, in registry order then file position; a file finding
    (a helper shared by two primitives) is reported once."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.used = used_by_templates(profile)
        self.findings: list[ImplFinding] = []
        self.seen_file: set[tuple] = set()

    def entry(self, i: int, name: str, entry: Mapping[str, Any]) -> None:
        name_path = ("primitives", i, "name")
        if name not in self.used:
            self.findings.append(
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
                self.findings.append(
                    ImplFinding(
                        "SI501",
                        name,
                        f"registered primitive `{name}` has no implementation "
                        "(`implementation: path.py:function`)",
                        registry_path=name_path,
                    )
                )
            return
        self.implementation(name, entry, spec, ("primitives", i, "implementation"))

    def implementation(self, name: str, entry: Mapping[str, Any], spec: Any, at: tuple) -> None:
        parsed = split_spec(spec)
        if parsed is None:
            self.on_entry(
                name, f"`implementation` of `{name}` is not `path/to/file.py:function`", at
            )
            return
        rel, func = parsed
        if self.profile.root is None:
            return  # an in-memory profile with no files: nothing to read
        source, problem = _read_impl(self.profile.root, rel)
        if source is None:
            self.on_entry(name, f"`{name}`: {problem}", at)
        else:
            self.source(name, entry, rel, func, source, at)

    def source(self, name: str, entry, rel: str, func: str, source: str, at: tuple) -> None:
        from .source_review import review_source  # libcst: only when there is code to read

        for f in review_source(source, func, list(params_of(entry))):
            if f.code == "SI501" and not f.message.startswith("implementation module"):
                self.on_entry(name, f"`{name}`: no module-level function `{func}` in `{rel}`", at)
                continue
            key = (f.code, rel, f.line, f.col)
            if key not in self.seen_file:
                self.seen_file.add(key)
                self.findings.append(
                    ImplFinding(f.code, name, f.message, file=rel, line=f.line, col=f.col)
                )

    def on_entry(self, name: str, message: str, at: tuple) -> None:
        """SI501 at the value of the entry's ``implementation``."""
        self.findings.append(ImplFinding("SI501", name, message, registry_path=at, on="value"))


def _registered_entries(profile: Profile) -> Iterator[tuple[int, str, Mapping[str, Any]]]:
    """``(index, name, entry)`` of each registered primitive (a duplicate entry is skipped:
    the first one is the registered primitive)."""
    entries = registry_of(profile).get("primitives")
    seen: set[str] = set()
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, MAPPING) and isinstance(entry.get("name"), str):
            if entry["name"] not in seen:
                seen.add(entry["name"])
                yield i, entry["name"], entry


def review_profile(profile: Profile) -> list[ImplFinding]:
    """SI501–SI507 for every registered primitive of ``profile``.

    Implementation files are read from ``profile.root`` (an in-memory profile without one
    is reviewed for SI501/SI507 only). Deterministic order: by registry order, then file
    position. Duplicate file findings (a helper shared by two primitives) are reported once.
    """
    review = _Review(profile)
    for i, name, entry in _registered_entries(profile):
        review.entry(i, name, entry)
    return review.findings
