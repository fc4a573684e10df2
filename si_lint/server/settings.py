"""The settings a client gives the server (the keys, or an object under ``"si-lint"``):
``select`` replaces the configured selection and ``ignore`` extends it, as ``--select`` and
``--ignore`` do (over the server's own options); ``profile`` is ``--profile``'s value;
``debounce`` is in milliseconds. A value that cannot be used is left out with a warning."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..config import ConfigError, check_codes
from ..mapping import MAPPING
from ..model import is_number

SECTION = "si-lint"


@dataclass(frozen=True)
class Settings:
    """None: not set (the command line's or the default applies)."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    profile: str | None = None
    debounce: float | None = None  # seconds

    def over(self, older: Settings) -> Settings:
        return replace(older, **{k: v for k, v in vars(self).items() if v is not None})


def section_of(raw: Any) -> Any:
    """Our part of a client's settings object: its ``"si-lint"`` key, else the object
    when it holds one of our keys, else nothing (a client may send every tool's)."""
    if isinstance(raw, MAPPING) and isinstance(raw.get(SECTION), MAPPING):
        return raw[SECTION]
    if isinstance(raw, MAPPING) and not any(k in READERS for k in raw):
        return None
    return raw


def carries_ours(raw: Any) -> bool:
    return isinstance(section_of(raw), MAPPING)


def _codes(key: str, value: Any) -> tuple[tuple[str, ...] | None, str | None]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None, f"{SECTION}.{key} must be a list of rule codes or prefixes"
    codes = tuple(v.strip() for v in value if v.strip())
    try:
        check_codes(codes, f"{SECTION}.{key}")
    except ConfigError as exc:
        return None, str(exc)
    return codes, None


def _profile(key: str, value: Any) -> tuple[str | None, str | None]:
    if isinstance(value, str) and value.strip():
        return value.strip(), None
    return None, f"{SECTION}.{key} must be a profile name or directory (a non-empty string)"


def _debounce(key: str, value: Any) -> tuple[float | None, str | None]:
    if is_number(value) and 0 <= value <= 10_000:
        return value / 1000.0, None
    return None, f"{SECTION}.{key} must be a number of milliseconds from 0 to 10000"


READERS = {"select": _codes, "ignore": _codes, "profile": _profile, "debounce": _debounce}


def parse(raw: Any) -> tuple[Settings, list[str]]:
    """The settings of a client's object, and a warning per value left out."""
    raw = section_of(raw)
    if raw is None:
        return Settings(), []
    if not isinstance(raw, MAPPING):
        return Settings(), [f"{SECTION} settings must be an object, not {type(raw).__name__}"]
    values: dict[str, Any] = {}
    warnings = []
    for key in sorted(raw, key=str):
        if key not in READERS:
            warnings.append(f"{SECTION}: unknown setting {key!r} (known: {', '.join(READERS)})")
        elif raw[key] is not None:  # (null: not set)
            parsed, why = READERS[key](key, raw[key])
            if why is not None:
                warnings.append(why)
            else:
                values[key] = parsed
    return Settings(**values), warnings
