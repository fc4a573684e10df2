"""Two renderings of a file by the same dumper: the round trip of the original and the
round trip with the fixes applied (YAML: the indentation that reproduces the original
best; JSON: the original's indent). Their difference is what :mod:`.patch` carries back
into the original text."""

from __future__ import annotations

import difflib
import io
import json

from .apply import apply_to
from .model import Fix, FixError

_INDENTS = ((2, 2, 0), (2, 4, 2), (4, 4, 2), (4, 4, 0), (2, 3, 1), (4, 6, 4), (3, 3, 0), (4, 5, 3))


def _yaml(indent):
    from ruamel.yaml import YAML  # (ruamel, ~10 ms: only when a fix is written)

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return y


def _dump(y, data) -> str:
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


def _mismatch(a: str, b: str) -> int:
    return sum(1 for line in difflib.ndiff(a.splitlines(), b.splitlines()) if line[:1] in "+-")


def yaml_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    """(round trip of the original, round trip with the fixes, fixes applied)."""
    best: tuple | None = None
    for indent in _INDENTS:
        y = _yaml(indent)
        try:
            data = y.load(text)
            base = _dump(y, data)
        except Exception as exc:
            raise FixError(f"cannot round-trip the file ({type(exc).__name__})") from exc
        score = _mismatch(text, base)
        if best is None or score < best[0]:
            best = (score, y, data, base)
        if score == 0:
            break
    assert best is not None  # _INDENTS is not empty: the first indent sets it
    _, y, data, base = best
    if text.lstrip().startswith("---"):
        y.explicit_start = True
        base = _dump(y, data)
    applied = [f for f in fixes if apply_to(data, f)]
    return base, _dump(y, data), applied


def json_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FixError("cannot parse the JSON file") from exc
    lines = text.splitlines()[1:]
    indent = next(
        (len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip(" ") and ln[0] == " "), 2
    )
    base = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    applied = [f for f in fixes if apply_to(data, f)]
    return base, json.dumps(data, indent=indent, ensure_ascii=False) + "\n", applied
