"""Go to definition: where the node under the cursor is defined — a role or a template in
the profile's ``templates/``, a primitive in its ``registry.yaml``, a deviation of the
same document, a scenario's ``id``, a behavior's heading. A target is
``(abspath, line0, char0)``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import model
from ..loader import load_bytes
from ..mapping import MAPPING
from . import lookup
from .spot import Spot, node_at

Target = tuple[str, int, int]


def _load(path: Path) -> Any:
    try:
        return load_bytes(path.read_bytes()).data
    except OSError:
        return None


def _registry_entry(root: Path, name: str) -> tuple[str, tuple, str] | None:
    reg = root / "registry.yaml"
    data = _load(reg)
    prims = data.get("primitives") if isinstance(data, MAPPING) else None
    if isinstance(prims, list):
        for i, p in enumerate(prims):
            if isinstance(p, MAPPING) and p.get("name") == name:
                return str(reg), ("primitives", i, "name"), "value"
    return None


def _template_file(root: Path, tid: str) -> str | None:
    tdir = root / "templates"
    if not tdir.is_dir():
        return None
    for path in sorted(tdir.iterdir()):
        data = _load(path)
        head = data.get("template") if isinstance(data, MAPPING) else None
        if isinstance(head, MAPPING) and head.get("id") == tid:
            return str(path)
    return None


def _position(
    abspath: str, path: tuple, on: str, text: str | None = None, index: int | None = None
) -> Target:
    """Where the key (or value) at ``path`` is in a file's document ``index`` (None: its
    first), or the file's start."""
    if text is None:
        try:
            text = Path(abspath).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return abspath, 0, 0
    docs = load_bytes(text.encode("utf-8")).documents
    doc = next((d for d in docs if d.index == index), docs[0] if docs else None)
    if doc is None:
        return abspath, 0, 0
    line, col = doc.pos.value(path) if on == "value" else doc.pos.key(path)
    return abspath, line - 1, col - 1


def _in_profile(state, find) -> Target | None:
    root = state.profile.root
    hit = find(Path(root)) if root is not None else None
    return _position(*hit) if hit else None


# --------------------------------------------------------------------------------------
# one function per thing a node can name: (state, abspath, text, spot) -> target or None


def _role(state, abspath: str, text: str, spot: Spot) -> Target | None:
    hit = lookup.bound_role(state.profile, spot)
    if hit is None:
        return None
    role, template, _ = hit

    def find(root: Path):
        file = _template_file(root, template)
        return (file, ("roles", role), "key") if file else None

    return _in_profile(state, find)


def _primitive(state, abspath: str, text: str, spot: Spot) -> Target | None:
    name = lookup.called_primitive(state.profile, spot)
    if name is None:
        return None
    return _in_profile(state, lambda root: _registry_entry(root, name))


def _deviation(state, abspath: str, text: str, spot: Spot) -> Target | None:
    ref = spot.names("ref")
    dev = lookup.deviation_of(spot.data, ref) if ref is not None else None
    if dev is None:
        return None
    return _position(abspath, ("injection", "deviations", dev[0], "id"), "value", text, spot.index)


def _template(state, abspath: str, text: str, spot: Spot) -> Target | None:
    if spot.on != "value" or spot.path != ("scoring", model.TEMPLATE_KEY):
        return None
    name = spot.value
    if not isinstance(name, str):
        return None

    def find(root: Path):
        file = _template_file(root, name)
        return (file, ("template", "id"), "value") if file else None

    return _in_profile(state, find)


def _scenario(state, abspath: str, text: str, spot: Spot) -> Target | None:
    sid = lookup.named_scenario(spot)
    doc = lookup.scenario_doc(state, sid) if sid is not None else None
    if doc is None:
        return None
    return _position(doc.abspath, ("id",), "value", state.text_of(doc.abspath), doc.index)


def _behavior(state, abspath: str, text: str, spot: Spot) -> Target | None:
    name = spot.names("behavior")
    b = lookup.behavior(state, abspath, name) if name is not None else None
    return b[1] if b is not None else None


DEFINITIONS = (_role, _primitive, _deviation, _template, _scenario, _behavior)


def definition(state, abspath: str, text: str, line0: int, char0: int) -> Target | None:
    spot = node_at(text, line0, char0)
    if spot is None:
        return None
    for find in DEFINITIONS:
        target = find(state, abspath, text, spot)
        if target is not None:
            return target
    return None
