"""Layer-1/2 profile assets: the primitive registry and the band templates.

A :class:`Profile` is plain data (what ``registry.yaml`` and ``templates/*.yaml`` hold) plus
the primitive implementations that may be called for it. The evaluator reads only this
object; it never touches the file system.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

BUILTIN_DIR = Path(__file__).parent / "profile_data"

#: names of the primitives that si-lint's own evaluator implements
BUILTIN_PRIMITIVES = ("named_in_output", "factor_identified", "within_step_budget")


@dataclass(frozen=True)
class Profile:
    registry: Mapping[str, Any]
    templates: Mapping[str, Mapping[str, Any]]
    #: trusted implementations of non-built-in primitives, by name
    implementations: Mapping[str, Callable[..., bool]] = field(default_factory=dict)
    #: the directory the profile was read from (None for in-memory profiles)
    root: Path | None = None

    # convenience views -------------------------------------------------------------
    def _list(self, key: str) -> list:
        value = self.registry.get(key) if isinstance(self.registry, Mapping) else None
        return value if isinstance(value, list) else []

    @property
    def primitives(self) -> dict[str, Mapping[str, Any]]:
        out: dict[str, Mapping[str, Any]] = {}
        for p in self._list("primitives"):
            if isinstance(p, Mapping) and isinstance(p.get("name"), str):
                out.setdefault(p["name"], p)
        return out

    @property
    def channels(self) -> list[str]:
        return [c for c in self._list("channels") if isinstance(c, str)]

    @property
    def candidates(self) -> list[str]:
        return [c for c in self._list("candidates") if isinstance(c, str)]

    @property
    def synonyms(self) -> Mapping[str, list[str]]:
        s = self.registry.get("synonyms") if isinstance(self.registry, Mapping) else None
        return s if isinstance(s, Mapping) else {}

    @property
    def ratified_budgets(self) -> Mapping[str, int]:
        b = self.registry.get("ratified_budgets") if isinstance(self.registry, Mapping) else None
        return b if isinstance(b, Mapping) else {}


def _read(path: Path) -> Any:
    from .loader import load_bytes

    from .limits import read_input

    raw, _why = read_input(path)
    return load_bytes(raw).data if raw is not None else None


def load_profile(directory: Path | str, *, trust: bool = False) -> Profile:
    """A profile from a directory holding ``registry.yaml`` and ``templates/*.yaml``.

    Unreadable or malformed files give an emptier profile, never an exception: the
    linter reports their problems as findings on those files.
    """
    directory = Path(directory)
    registry = _read(directory / "registry.yaml")
    if not isinstance(registry, dict):
        registry = {}
    templates: dict[str, Any] = {}
    tdir = directory / "templates"
    if tdir.is_dir():
        for path in sorted(tdir.iterdir()):
            if path.suffix not in (".yaml", ".yml", ".json"):
                continue
            data = _read(path)
            if isinstance(data, dict) and isinstance(data.get("template"), dict):
                tid = data["template"].get("id")
                if isinstance(tid, str):
                    templates.setdefault(tid, data)
    profile = Profile(registry=registry, templates=templates, root=directory)
    if trust:
        profile = Profile(
            registry=registry,
            templates=templates,
            implementations=load_implementations(profile),
            root=directory,
        )
    return profile


def profile_from_data(registry: Mapping[str, Any], templates: list | Mapping) -> Profile:
    """An in-memory profile (tests, ``review`` of a git revision)."""
    if isinstance(templates, Mapping):
        tmap = dict(templates)
    else:
        tmap = {}
        for t in templates:
            if isinstance(t, Mapping) and isinstance(t.get("template"), Mapping):
                tid = t["template"].get("id")
                if isinstance(tid, str):
                    tmap.setdefault(tid, t)
    return Profile(registry=registry, templates=tmap)


def load_implementations(profile: Profile) -> dict[str, Callable[..., bool]]:
    """Import the ``implementation:`` functions of a profile directory. Only ever called
    under ``--trust-implementations``: this runs the corpus's own code."""
    import importlib.util

    out: dict[str, Callable[..., bool]] = {}
    if profile.root is None:
        return out
    for name, entry in sorted(profile.primitives.items()):
        spec = entry.get("implementation")
        if name in BUILTIN_PRIMITIVES or not isinstance(spec, str) or ":" not in spec:
            continue
        rel, func = spec.rsplit(":", 1)
        path = (profile.root / rel).resolve()
        try:
            mspec = importlib.util.spec_from_file_location(f"si_lint_impl_{name}", path)
            if mspec is None or mspec.loader is None:
                continue
            module = importlib.util.module_from_spec(mspec)
            mspec.loader.exec_module(module)
            fn = getattr(module, func, None)
        except Exception:
            continue
        if callable(fn):
            out[name] = fn
    return out


_BUILTIN: list[Profile] = []


def builtin_profile() -> Profile:
    """The shipped si 0.3.0-rc1 profile (read once per process)."""
    if not _BUILTIN:
        _BUILTIN.append(load_profile(BUILTIN_DIR))
    return _BUILTIN[0]


def load_profile_for(path: Path | str, *, trust: bool = False) -> Profile:
    """The profile configured for the corpus that contains ``path`` (SPEC §9 root rules)."""
    from .corpus import ConfigError, load_config

    p = Path(path)
    try:
        config = load_config(Path.cwd(), [p])
    except ConfigError:
        raise
    if config.profile == "builtin":
        return builtin_profile()
    return load_profile(config.root / config.profile, trust=trust)
