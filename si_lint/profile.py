"""Layer-1/2 profile assets: the primitive registry and the band templates, as plain data
plus the primitive implementations that may be called (the evaluator reads only this)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .config import YAML_SUFFIXES, load_config
from .fsutil import read_regular, resolves_inside
from .limits import MAX_BYTES
from .loader import load_bytes
from .mapping import MAPPING, lookup
from .model import is_int

BUILTIN_DIR = Path(__file__).parent / "profile_data"

#: names of the primitives that si-lint's own evaluator implements
BUILTIN_PRIMITIVES = ("named_in_output", "factor_identified", "within_step_budget")

#: the shipped profiles by the names `profile =` and `--profile` accept (SPEC §2.1):
#: ``builtin`` is the seed (si 0.3.0-rc1); ``builtin:oasisctl`` the same registry with the
#: readings of the reference CLI oasisctl (b789b6f, 2026-08-22) as its constants
BUILTIN_NAMES = ("builtin", "builtin:si-0.3.0-rc1", "builtin:oasisctl")

#: the seed's ratified matching constants (seed §2.1, §2.2, §3): a registry without
#: ``constants`` (or without one of them) has exactly these values
SEED_CONSTANTS: dict[str, Any] = dict(cooccurrence_radius=0, synonym_match="token", echo_line="raw")
#: oasisctl's readings (its §2.2 follows a later revision of the decomposition document)
OASISCTL_CONSTANTS: dict[str, Any] = dict(
    cooccurrence_radius=1, synonym_match="substring", echo_line="trimmed"
)

#: the one-line notice `check` and `eval` print when builtin:oasisctl is in use
OASISCTL_NOTICE = (
    "note: profile builtin:oasisctl (oasisctl's readings: cooccurrence_radius 1, "
    "substring synonyms, trimmed echo lines) is a compatibility profile, not "
    "conformant to the seed (seed §2.2 says the same sentence)"
)


@dataclass(frozen=True)
class Constants:
    """The ratified matching constants of a registry (SPEC §2.1 "Ratified constants")."""

    #: factor_identified: a synonym counts in the identifier's sentence and in this many
    #: (non-blank) sentences either side
    cooccurrence_radius: int = 0
    #: "token" (whole tokens, the identifier rule) | "substring"
    synonym_match: str = "token"
    #: "raw" (the answer line as recorded) | "trimmed" (stripped before the verbatim test)
    echo_line: str = "raw"


def _shown(v: Any) -> str:
    if isinstance(v, int) and not -(10**30) < v < 10**30:
        return "a huge negative integer" if v < 0 else "a huge integer"
    if isinstance(v, int) or v is None:
        return repr(v)
    if isinstance(v, (str, float)):
        text = repr(v)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(v).__name__}"


_CONSTANT_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "cooccurrence_radius": (lambda v: is_int(v) and v >= 0, "a non-negative integer"),
    "synonym_match": (lambda v: v in ("token", "substring"), "'token' or 'substring'"),
    "echo_line": (lambda v: v in ("raw", "trimmed"), "'raw' or 'trimmed'"),
}


def constants_problems(registry: Any) -> list[tuple[tuple, str]]:
    """``(registry path, message)`` for every invalid constant (SI212, SI213)."""
    block = lookup(registry, "constants")
    if block is None:
        return []
    if not isinstance(block, MAPPING):
        return [(("constants",), "`constants` is not a mapping")]
    return [
        (("constants", key), f"`{key}` must be {what}, not {_shown(block[key])}")
        for key, (ok, what) in _CONSTANT_RULES.items()
        if key in block and not ok(block[key])
    ]


def _primitive_view(p: Mapping[str, Any]) -> Mapping[str, Any]:
    """A registry entry whose ``params`` is a list of mappings with a string ``name``:
    checks see the part of a malformed registry (SI003) that has the right shape."""
    params = p.get("params")
    if not isinstance(params, list):
        return p if params is None else {**p, "params": []}
    good = [x for x in params if isinstance(x, MAPPING) and isinstance(x.get("name"), str)]
    return p if good == params else {**p, "params": good}


@dataclass(frozen=True)
class Profile:
    registry: Mapping[str, Any]
    templates: Mapping[str, Mapping[str, Any]]
    #: trusted implementations of non-built-in primitives, by name
    implementations: Mapping[str, Callable[..., bool]] = field(default_factory=dict)
    root: Path | None = None
    name: str = ""
    #: ``(path in the directory, why)`` of each file or directory of the profile that was
    #: not read because it resolves outside the profile directory (SI010)
    refused: tuple[tuple[str, str], ...] = ()

    def _get(self, key: str, kind: type | tuple, empty: Any) -> Any:
        return lookup(self.registry, key, kind, empty)

    # the views below are read per verdict (the dry runs score thousands): computed once
    # per profile, whose registry nothing changes once it is made
    @cached_property
    def primitives(self) -> dict[str, Mapping[str, Any]]:
        out: dict[str, Mapping[str, Any]] = {}
        for p in self._get("primitives", list, []):
            if isinstance(p, MAPPING) and isinstance(p.get("name"), str):
                out.setdefault(p["name"], _primitive_view(p))
        return out

    @property
    def channels(self) -> list[str]:
        return [c for c in self._get("channels", list, []) if isinstance(c, str)]

    @property
    def candidates(self) -> list[str]:
        return [c for c in self._get("candidates", list, []) if isinstance(c, str)]

    @property
    def synonyms(self) -> Mapping[str, list[str]]:
        return self._get("synonyms", MAPPING, {})

    @cached_property
    def constants(self) -> Constants:
        """The seed's values where absent; a ValueError naming the first invalid one (an
        error verdict; ``check`` reports SI212/SI213)."""
        problems = constants_problems(self.registry)
        if problems:
            raise ValueError(f"invalid registry constant: {problems[0][1]}")
        block = self._get("constants", MAPPING, {})
        return Constants(**{k: block.get(k, v) for k, v in SEED_CONSTANTS.items()})

    @property
    def is_oasisctl(self) -> bool:
        return self.name == "builtin:oasisctl"

    @property
    def ratified_budgets(self) -> Mapping[str, int]:
        return self._get("ratified_budgets", MAPPING, {})


def _leads_out(directory: Path, rel: str, refused: list) -> bool:
    """SPEC §9 "Trust boundaries": ``rel`` resolves outside ``directory`` (noted in
    ``refused``)."""
    if os.path.lexists(directory / rel) and not resolves_inside(directory / rel, directory):
        refused.append((rel, "is a symbolic link that leads outside the profile directory"))
        return True
    return False


def _read_inside(directory: Path, rel: str, refused: list) -> Any:
    if _leads_out(directory, rel, refused):
        return None
    raw, _why = read_regular(directory / rel, MAX_BYTES)
    return load_bytes(raw).data if raw is not None else None


def _templates(directory: Path, refused: list) -> list:
    tdir = directory / "templates"
    if _leads_out(directory, "templates", refused) or not tdir.is_dir():
        return []
    names = sorted(p.name for p in tdir.iterdir() if p.suffix in YAML_SUFFIXES)
    return [_read_inside(directory, f"templates/{n}", refused) for n in names]


def load_profile(directory: Path | str, *, trust: bool = False) -> Profile:
    """A profile directory. Unreadable or malformed files give an emptier profile (their
    findings report them); a file that resolves outside the directory is not read (SI010)."""
    directory = Path(directory)
    refused: list[tuple[str, str]] = []
    registry = _read_inside(directory, "registry.yaml", refused)
    templates = _templates(directory, refused)
    profile = profile_from_data(registry if isinstance(registry, dict) else {}, templates)
    profile = dataclasses.replace(profile, root=directory, refused=tuple(refused))
    if trust:
        return dataclasses.replace(profile, implementations=load_implementations(profile))
    return profile


def profile_from_data(registry: Mapping[str, Any], templates: list | Mapping) -> Profile:
    """A list of templates is keyed by ``template.id`` (the first of an id wins)."""
    if isinstance(templates, MAPPING):
        return Profile(registry=registry, templates=dict(templates))
    tmap: dict[str, Any] = {}
    for t in templates:
        tid = lookup(lookup(t, "template"), "id", str)
        if tid is not None:
            tmap.setdefault(tid, t)
    return Profile(registry=registry, templates=tmap)


def implementation_file(root: Path, rel: str) -> Path | None:
    """The regular file ``rel`` names (links followed); None outside ``root`` (SPEC §9
    "Trust boundaries": never imported)."""
    path = root / rel
    if not resolves_inside(path, root):
        return None
    try:
        real = path.resolve()
        return real if real.is_file() else None
    except (OSError, ValueError, RuntimeError):
        return None


def load_implementations(profile: Profile) -> dict[str, Callable[..., bool]]:
    """Only under ``--trust-implementations``: this runs the corpus's own code."""
    out: dict[str, Callable[..., bool]] = {}
    if profile.root is None:
        return out
    for name, entry in sorted(profile.primitives.items()):
        spec = entry.get("implementation")
        if name in BUILTIN_PRIMITIVES or not isinstance(spec, str) or ":" not in spec:
            continue
        rel, func = spec.rsplit(":", 1)
        path = implementation_file(profile.root, rel)
        if path is None:  # outside the profile directory, or no regular file: SI501
            continue
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


#: the shipped profile without the YAML parser (ARCHITECTURE.md: never a stale rendition)
RENDITION = "builtin.json"


def sources(directory: Path) -> dict[str, str]:
    names = ["registry.yaml"]
    tdir = directory / "templates"
    if tdir.is_dir():
        names += [f"templates/{n}" for n in sorted(os.listdir(tdir)) if n.endswith(YAML_SUFFIXES)]
    out = {}
    for rel in names:
        try:
            with open(directory / rel, "rb") as fh:
                out[rel] = hashlib.sha256(fh.read()).hexdigest()
        except OSError:
            out[rel] = ""
    return out


def rendition(directory: Path, registry: Any, templates: Any) -> str:
    data = {"sources": sources(directory), "registry": registry, "templates": templates}
    return json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def read_rendition(directory: Path) -> tuple[dict, dict] | None:
    try:
        with open(directory / RENDITION, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not (
        type(data) is dict
        and data.get("sources") == sources(directory)
        and type(data.get("registry")) is dict
        and type(data.get("templates")) is dict
    ):
        return None
    return data["registry"], data["templates"]


_BUILTIN: dict[str, Profile] = {}


def builtin_profile(name: str = "builtin") -> Profile:
    if name == "builtin:si-0.3.0-rc1":  # (every caller asks is_builtin_name first)
        name = "builtin"
    if name not in _BUILTIN:
        got = read_rendition(BUILTIN_DIR)  # without the YAML parser
        base = load_profile(BUILTIN_DIR) if got is None else profile_from_data(*got)
        registry = dict(base.registry)
        if name == "builtin:oasisctl":
            registry["constants"] = dict(OASISCTL_CONSTANTS)
        _BUILTIN[name] = Profile(
            registry=registry, templates=base.templates, root=BUILTIN_DIR, name=name
        )
    return _BUILTIN[name]


def is_builtin_name(spec: Any) -> bool:
    return isinstance(spec, str) and spec in BUILTIN_NAMES


def resolve_profile(
    spec: str, root: Path | None, *, trust: bool = False
) -> tuple[Profile, Path | None]:
    """The profile and its directory (None for a shipped one)."""
    if is_builtin_name(spec):
        return builtin_profile(spec), None
    pdir = Path(spec)
    if root is not None and not pdir.is_absolute():
        pdir = root / pdir
    pdir = pdir.resolve()
    return dataclasses.replace(load_profile(pdir, trust=trust), name=spec), pdir


def load_profile_for(path: Path | str) -> Profile:
    config = load_config(Path.cwd(), [Path(path)])
    return resolve_profile(config.profile, config.root)[0]
