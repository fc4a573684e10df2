"""The shipped profile's data without the YAML parser: ``profile_data/builtin.json``
(``tools/builtin_profile.py``), used only while the sha256 it records of each YAML file is
the shipped file's, so an edited profile is never answered by a stale rendition."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

RENDITION = "builtin.json"
SUFFIXES = (".yaml", ".yml", ".json")


def sources(directory: Path) -> dict[str, str]:
    names = ["registry.yaml"]
    tdir = directory / "templates"
    if tdir.is_dir():
        names += [f"templates/{n}" for n in sorted(os.listdir(tdir)) if n.endswith(SUFFIXES)]
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
