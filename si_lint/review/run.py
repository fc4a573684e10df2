"""`si-lint review`: the two profiles (a directory, a git revision of the profile directory,
or a shipped one) and the report as JSON-able data. Implementations are imported only when
``trust`` is set."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..catalogue import severity_of
from ..checks.primitive_review.profile_review import (
    HELP,
    registered_primitives,
    review_profile,
    split_spec,
)
from ..errors import ConfigError
from ..evaluator import score, untrusted_primitives
from ..evaluator.evidence import named_scenario
from ..fsutil import read_regular, resolves_inside
from ..limits import MAX_BYTES
from ..loader import load_bytes
from ..profile import BUILTIN_DIR, Profile, builtin_profile, is_builtin_name, load_profile
from ..root import config_table
from .diff import Change, diff_profiles
from .gittree import ReviewError, check_rev, escape_name, materialise
from .lint import lint_delta, registry_header, registry_version_notices
from .reach import CorpusView, Reach, reach_of

REPORT_VERSION = 1


@dataclass
class Side:
    label: str  # how the user named it: "builtin", a directory, "REV:path"
    profile: Profile
    directory: Path  # where its files are (a temporary copy for a git revision)
    refused: tuple = ()  # the entries of a git revision's tree not copied (gittree.Refusal)


def _norm_rel(path: Path | str, cwd: Path) -> str:
    return os.path.relpath(os.path.abspath(path), cwd).replace(os.sep, "/")


def _configured_dir(root: Path, prof: str, where: str) -> Path:
    """The profile a configuration file in ``root`` names: it must stay inside ``root`` (SPEC
    §9 "Trust boundaries"; only a directory typed on the command line may be elsewhere)."""
    if not resolves_inside(root / prof, root):
        raise ReviewError(
            f"{where}: the configured profile `{escape_name(prof)}` is outside the "
            "directory of its configuration file; not read"
        )
    return root / prof


def _profile_dir_of(directory: Path, where: str) -> Path | None:
    """DIR when it holds registry.yaml, else the profile its corpus config names."""
    if (directory / "registry.yaml").is_file():
        return directory
    try:
        found = config_table(directory)
    except ConfigError as exc:
        raise ReviewError(str(exc)) from None
    if found is not None:
        prof = found[1].get("profile", "builtin")
        if prof == "builtin":
            return BUILTIN_DIR
        if isinstance(prof, str):
            pdir = _configured_dir(directory, prof, where)
            if (pdir / "registry.yaml").is_file():
                return pdir
    return None


def _shipped(name: str) -> Side:
    label = "builtin" if name == "builtin:si-0.3.0-rc1" else name
    return Side(label, builtin_profile(name), BUILTIN_DIR)


def _is_builtin_dir(directory: Path) -> bool:
    return os.path.abspath(directory) == os.path.abspath(BUILTIN_DIR)


def _named_dir(option: str, spec: str, cwd: Path, trust: bool) -> Side:
    d = cwd / spec  # (an absolute spec stays itself)
    pdir = _profile_dir_of(d, f"{option} {spec}") if d.is_dir() else None
    if pdir is None:
        raise ReviewError(f"{option} {spec}: not a profile directory (no registry.yaml)")
    if option == "--base" and _is_builtin_dir(pdir):
        return Side(spec, builtin_profile(), BUILTIN_DIR)
    return Side(spec, load_profile(pdir, trust=trust), pdir)


def resolve_head(profile_opt: str | None, config, cwd: Path, trust: bool) -> Side:
    if profile_opt:
        if is_builtin_name(profile_opt):
            return _shipped(profile_opt)
        return _named_dir("--profile", profile_opt, cwd, trust)
    if config.profile_refused:  # SI010: never reviewed under a profile it did not name
        where, line, col, message = config.profile_refused
        raise ReviewError(f"{where}:{line}:{col}: {message}")
    if is_builtin_name(config.profile):
        return _shipped(config.profile)
    where = _norm_rel(config.source, cwd) if config.source else "the configuration"
    pdir = _configured_dir(config.root, config.profile, where)
    return Side(_norm_rel(pdir, cwd), load_profile(pdir, trust=trust), pdir)


def resolve_base(spec: str, head: Side, cwd: Path, trust: bool, tmp: Path) -> Side:
    if is_builtin_name(spec):
        return _shipped(spec)
    if (cwd / spec).is_dir():  # else perhaps a git revision
        return _named_dir("--base", spec, cwd, trust)
    check_rev(spec)
    if _is_builtin_dir(head.directory):
        raise ReviewError(
            f"--base {escape_name(spec)}: the corpus uses the built-in profile; a git revision "
            "needs a profile directory (configure `profile`, or pass --profile)"
        )
    try:  # copied into tmp and nowhere else (gittree)
        refused = materialise(spec, head.directory, tmp)
    except ReviewError as exc:
        msg = str(exc)
        if msg.startswith("git rev-parse"):
            raise ReviewError(
                f"--base {escape_name(spec)}: not a profile directory, and not a git revision "
                f"of the profile directory ({msg})"
            ) from None
        if msg.startswith("git "):
            raise ReviewError(f"--base {escape_name(spec)}: {msg}") from None
        raise
    rel = _norm_rel(head.directory, cwd)
    return Side(f"{spec}:{rel}", load_profile(tmp, trust=trust), tmp, tuple(refused))


def _impl_sources(side: Side) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, entry in registered_primitives(side.profile).items():
        parsed = split_spec(entry.get("implementation"))
        raw = _read_inside(side.directory, parsed[0]) if parsed else None
        with contextlib.suppress(UnicodeDecodeError):
            if raw is not None:
                out[name] = raw.decode("utf-8")
    return out


def _read_inside(directory: Path, rel: str) -> bytes | None:
    """``directory/rel`` when it resolves inside and is a regular file within the size limit."""
    path = directory / rel
    if not resolves_inside(path, directory):
        return None
    raw, _why = read_regular(os.path.realpath(path), MAX_BYTES)
    return raw if raw is not None and len(raw) <= MAX_BYTES else None


def _impl_source_changes(base: Side, head: Side) -> list[Change]:
    a, b = _impl_sources(base), _impl_sources(head)
    detail = "implementation source changed"
    return [
        Change("primitive", "changed", n, detail=detail, touches={"primitives": (n,)})
        for n in sorted(set(a) & set(b))
        if a[n] != b[n]
    ]


def _profile_header(side: Side) -> dict:
    h = registry_header(side.profile.registry)
    return {"source": side.label, "profile": h.get("profile"), "version": h.get("version")}


def _registry_positions(side: Side):
    raw = _read_inside(side.directory, "registry.yaml")
    return load_bytes(raw).pos if raw is not None else None


def _located(notices: list[dict], head: Side, cwd: Path) -> list[dict]:
    """Each notice at the proposed registry's ``version`` (when not the shipped one)."""
    if not notices or _is_builtin_dir(head.directory):
        return notices
    pos = _registry_positions(head)
    if pos is None:
        return notices
    line, col = pos.value(("registry", "version"))
    path = _norm_rel(head.directory / "registry.yaml", cwd)
    if path.startswith("../"):  # outside the working directory: as the user can find it
        path = os.path.abspath(head.directory / "registry.yaml").replace(os.sep, "/")
    where = {"path": path, "line": line, "column": col}
    return [{**where, **n} for n in notices]


def implementation_findings(head: Side, cwd: Path) -> list[dict]:
    if _is_builtin_dir(head.directory):
        return []
    pos = _registry_positions(head)
    out = []
    reg_rel = _norm_rel(head.directory / "registry.yaml", cwd)
    for f in review_profile(head.profile):
        if f.file is not None:
            path, line, col = _norm_rel(head.directory / f.file, cwd), f.line, f.col
        elif pos is None:
            path, line, col = reg_rel, 1, 1
        else:
            where = pos.value if f.on == "value" else pos.key
            path, (line, col) = reg_rel, where(f.registry_path)
        sev = severity_of(f.code)
        row: dict[str, Any] = {"code": f.code, "severity": sev, "primitive": f.primitive}
        row |= {"path": path, "line": line, "column": col, "message": f.message}
        out.append(row | {"help": HELP.get(f.code)})
    out.sort(key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["message"]))
    return out


def build_report(
    base: Side, head: Side, view: CorpusView, cwd: Path, trust: bool, target: Path | None = None
) -> dict:
    sources = _impl_source_changes(base, head)
    changes = diff_profiles(base.profile, head.profile) + sources
    reaches = [reach_of(c, base.profile, head.profile, view) for c in changes]
    change_rows = [{**c.as_dict(), "reaches": r.as_dict(view)} for c, r in zip(changes, reaches)]
    total = Reach(*(sorted({x for r in reaches for x in vars(r)[f.name]}) for f in fields(Reach)))
    return {
        "version": REPORT_VERSION,
        "base": _profile_header(base),
        "head": _profile_header(head),
        "trusted": bool(trust),
        "changes": change_rows,
        "reached": total.as_dict(view),
        "verdicts": _verdicts(total.fixtures, view, base, head),
        "lint": lint_delta(target, base, head, cwd, trust) if target is not None else None,
        "notices": _located(
            registry_version_notices(base, head, [c.name for c in sources]), head, cwd
        ),
        "implementations": implementation_findings(head, cwd),
        "refused": [r.as_dict() for r in base.refused],
    }


def _verdicts(fixtures: list[str], view: CorpusView, base: Side, head: Side) -> dict:
    by_path = dict(view.fixtures)
    out: dict = {"evaluated": 0, "changed": [], "not_recomputed": []}
    for fpath in fixtures:
        fdata = by_path[fpath]
        sid = named_scenario(fdata)
        scenario = view.scenarios[sid][1]
        row = {"fixture": fpath, "scenario": sid}
        sides = (("base", base), ("head", head))
        needs = {k: v for k, s in sides if (v := _untrusted(scenario, s.profile))}
        if needs:
            out["not_recomputed"].append({**row, "needs": needs})
            continue
        out["evaluated"] += 1
        before, _ = _score(fdata, scenario, base.profile)
        after, why = _score(fdata, scenario, head.profile)
        if before != after:
            out["changed"].append({**row, "before": before, "after": after, "why": why})
    return out


def _untrusted(scenario: Any, profile: Profile) -> list[str]:
    try:
        return untrusted_primitives(scenario, profile)
    except Exception:  # a malformed profile: the verdict itself will say why
        return []


def _score(fixture: Any, scenario: Any, profile: Profile) -> tuple[dict, Any]:
    v = score(fixture, scenario, profile, explain=True)
    why = v["why"]["text"] if v.get("why") else None
    if v.get("error") is not None or v.get("score") is None:
        return {"score": None, "row": None, "error": str(v.get("error"))}, why
    return {"score": v.get("score"), "row": v.get("row")}, why


def exit_status(report: Mapping[str, Any]) -> int:
    impl = report.get("implementations", [])
    return int(bool(report.get("refused")) or any(f["severity"] == "error" for f in impl))
