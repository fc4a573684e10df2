"""The shipped profile's data without the YAML parser: ``profile_data/builtin.json``, a
rendition of ``registry.yaml`` and ``templates/*`` written by
``python tools/builtin_profile.py``, recording the sha256 of each YAML file it was made
from. It is used only while those digests are the shipped files' (the same set of
files, the same bytes); otherwise the YAML files are read (:func:`si_lint.profile.
load_profile`), so an edited profile is never answered by a stale rendition.
``tests/test_profile_builtin.py`` requires the committed rendition to be current."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

RENDITION = "builtin.json"
SUFFIXES = (".yaml", ".yml", ".json")


def sources(directory: Path) -> dict[str, str]:
    """``{relpath: sha256}`` of the files ``load_profile`` reads in ``directory``."""
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
    """The rendition's text for a profile read from ``directory``."""
    data = {"sources": sources(directory), "registry": registry, "templates": templates}
    return json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def read_rendition(directory: Path) -> tuple[dict, dict] | None:
    """(registry, templates) from the rendition when it is that of the YAML files in
    ``directory`` now, else None."""
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
