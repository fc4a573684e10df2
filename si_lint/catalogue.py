"""The rule catalogue: ``rules/CODE.yaml``, one file per code (data, not code)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from .fsutil import data_dir
from .loader import load_bytes


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str
    rationale: str = ""
    seed: str = ""
    fix: str = ""
    examples: dict = field(default_factory=dict, compare=False, hash=False)
    source: str = ""
    #: the one function that emits the code, ``module:function`` (the rule contract)
    check: str = ""

    @property
    def doc_text(self) -> dict[str, Any]:
        return {
            k: getattr(self, k) for k in "code name severity summary rationale seed fix".split()
        }


@lru_cache(maxsize=1)
def codes() -> tuple[str, ...]:
    """A directory listing: validating ``--select``/``--ignore`` needs no rule parsed."""
    return tuple(sorted((p.stem for p in data_dir("rules").glob("*.yaml")), key=code_key))


@lru_cache(maxsize=1)
def rules() -> dict[str, Rule]:
    found = filter(None, (_read_rule(p) for p in sorted(data_dir("rules").glob("*.yaml"))))
    return {r.code: r for r in sorted(found, key=lambda r: code_key(r.code))}


def _read_rule(path) -> Rule | None:
    data = load_bytes(path.read_bytes()).data
    if not isinstance(data, dict) or not isinstance(data.get("code"), str):
        return None
    prose = {k: str(data.get(k, "") or "").strip() for k in ("rationale", "seed", "fix")}
    return Rule(
        code=data["code"],
        name=str(data.get("name", "")),
        severity=str(data.get("severity", "error")),
        summary=str(data.get("summary", "")).strip(),
        **prose,
        examples=examples if isinstance(examples := data.get("examples"), dict) else {},
        source=str(path),
        check=str(data.get("check", "") or ""),
    )


@cache
def rule(code: str) -> Rule | None:
    """Read from its own file unless the whole catalogue is read already (a finding's
    severity needs its rule only)."""
    if rules.cache_info().currsize:
        return rules().get(code)
    if code not in codes():
        return None
    found = _read_rule(data_dir("rules") / f"{code}.yaml")
    return found if found is not None and found.code == code else rules().get(code)


def reflow(text: str) -> str:
    """Hard-wrapped catalogue prose as paragraphs (a viewer wraps lines itself)."""
    paragraphs = [" ".join(p.split()) for p in str(text).strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def code_key(code: str) -> tuple:
    """``SI9`` before ``SI10``"""
    prefix = code.rstrip("0123456789")
    return (prefix, int(code[len(prefix) :] or 0))


def severity_of(code: str) -> str:
    found = rule(code)
    return found.severity if found else "error"
