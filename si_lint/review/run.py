"""`si-lint review`: compare two profiles and say what the change does to a corpus.

:func:`resolve_base` / :func:`resolve_head` read the two profiles (a directory, a git
revision of the profile directory, or ``builtin``); :func:`build_report` is the rest: the
profile diff, its reach, the fixture verdicts under both profiles, and the static review
of the proposed profile's implementations. The report is plain JSON-able data; the
renderers live in :mod:`si_lint.review.render`.

A corpus's implementations are imported only when ``trust`` is set; otherwise fixtures
whose table needs an untrusted implementation are listed as not recomputed.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalogue import severity_of
from ..checks.primitive_review.profile_review import (
    HELP,
    registered_primitives,
    review_profile,
    split_spec,
)
from ..evaluator import score, untrusted_primitives
from ..evaluator.evidence import named_scenario
from ..mapping import MAPPING
from ..profile import BUILTIN_DIR, Profile, builtin_profile, is_builtin_name, load_profile
from .diff import Change, diff_profiles
from .reach import CorpusView, reach_of, union

REPORT_VERSION = 1


class ReviewError(Exception):
    """The review cannot run (bad --base/--profile, git failure): exit status 2."""


@dataclass
class Side:
    label: str  # how the user named it: "builtin", a directory, "REV:path"
    profile: Profile
    directory: Path | None  # where its files are (a temporary copy for a git revision)


def _norm_rel(path: Path | str, cwd: Path) -> str:
    return os.path.relpath(os.path.abspath(path), cwd).replace(os.sep, "/")


def _profile_dir_of(directory: Path) -> Path | None:
    """A profile directory: DIR itself when it holds registry.yaml, else the profile a
    corpus config in DIR points at."""
    if (directory / "registry.yaml").is_file():
        return directory
    from ..corpus import ConfigError, config_table

    try:
        found = config_table(directory)
    except ConfigError as exc:
        raise ReviewError(str(exc)) from None
    if found is not None:
        prof = found[1].get("profile", "builtin")
        if prof == "builtin":
            return BUILTIN_DIR
        if isinstance(prof, str) and (directory / prof / "registry.yaml").is_file():
            return directory / prof
    return None


def _shipped(name: str) -> Side:
    label = "builtin" if name == "builtin:si-0.3.0-rc1" else name
    return Side(label, builtin_profile(name), BUILTIN_DIR)


def resolve_head(profile_opt: str | None, config, cwd: Path, trust: bool) -> Side:
    if profile_opt:
        if is_builtin_name(profile_opt):
            return _shipped(profile_opt)
        d = Path(profile_opt)
        d = d if d.is_absolute() else cwd / d
        pdir = _profile_dir_of(d) if d.is_dir() else None
        if pdir is None:
            raise ReviewError(
                f"--profile {profile_opt}: not a profile directory (no registry.yaml)"
            )
        return Side(profile_opt, load_profile(pdir, trust=trust), pdir)
    if is_builtin_name(config.profile):
        return _shipped(config.profile)
    pdir = config.root / config.profile
    return Side(_norm_rel(pdir, cwd), load_profile(pdir, trust=trust), pdir)


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        proc = subprocess.run(["git", *args], cwd=str(cwd), capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise ReviewError(f"git {' '.join(args)}: {exc}") from None
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ReviewError(f"git {' '.join(args)}: {msg[-1] if msg else 'failed'}")
    return proc.stdout


def _materialise_rev(rev: str, head_dir: Path, tmp: Path) -> Path:
    """Copy the profile directory as it is at git revision ``rev`` into ``tmp``."""
    if head_dir is None or os.path.abspath(head_dir) == os.path.abspath(BUILTIN_DIR):
        raise ReviewError(
            f"--base {rev}: the corpus uses the built-in profile; a git revision "
            "needs a profile directory (configure `profile`, or pass --profile)"
        )
    top = Path(_git(["rev-parse", "--show-toplevel"], head_dir).decode().strip())
    rel = os.path.relpath(os.path.realpath(head_dir), os.path.realpath(top)).replace(os.sep, "/")
    prefix = "" if rel == "." else rel + "/"
    listing = _git(["ls-tree", "-r", "-z", "--name-only", rev, "--", prefix or "."], top)
    names = [n for n in listing.decode("utf-8", "replace").split("\0") if n]
    if not any(n == prefix + "registry.yaml" for n in names):
        raise ReviewError(f"--base {rev}: `{prefix}registry.yaml` does not exist at {rev}")
    for name in names:
        sub = name[len(prefix) :]
        if not (sub == "registry.yaml" or sub.startswith("templates/") or sub.endswith(".py")):
            continue
        data = _git(["show", f"{rev}:{name}"], top)
        target = tmp / sub
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return tmp


def resolve_base(spec: str, head: Side, cwd: Path, trust: bool, tmp: Path) -> Side:
    if is_builtin_name(spec):
        return _shipped(spec)
    d = Path(spec)
    d = d if d.is_absolute() else cwd / d
    if d.is_dir():
        pdir = _profile_dir_of(d)
        if pdir is None:
            raise ReviewError(f"--base {spec}: not a profile directory (no registry.yaml)")
        if os.path.abspath(pdir) == os.path.abspath(BUILTIN_DIR):
            return Side(spec, builtin_profile(), BUILTIN_DIR)
        return Side(spec, load_profile(pdir, trust=trust), pdir)
    try:
        pdir = _materialise_rev(spec, head.directory, tmp)
    except ReviewError as exc:
        msg = str(exc)
        if msg.startswith("git "):
            raise ReviewError(
                f"--base {spec}: not a profile directory, and not a git revision "
                f"of the profile directory ({msg})"
            ) from None
        raise
    rel = _norm_rel(head.directory, cwd) if head.directory else "."
    return Side(f"{spec}:{rel}", load_profile(pdir, trust=trust), pdir)


# --------------------------------------------------------------------------------------
def _impl_sources(side: Side) -> dict[str, str]:
    """primitive name -> implementation source text (when the file can be read)."""
    out: dict[str, str] = {}
    if side.directory is None:
        return out
    for name, entry in registered_primitives(side.profile).items():
        parsed = split_spec(entry.get("implementation"))
        if parsed is None:
            continue
        path = side.directory / parsed[0]
        try:
            out[name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


def _impl_source_changes(base: Side, head: Side) -> list[Change]:
    a, b = _impl_sources(base), _impl_sources(head)
    out = []
    for name in sorted(set(a) & set(b)):
        if a[name] != b[name]:
            out.append(
                Change(
                    "primitive",
                    "changed",
                    name,
                    detail="implementation source changed",
                    touches={"primitives": (name,)},
                )
            )
    return out


def _verdict(v: Mapping[str, Any]) -> dict:
    if v.get("error") is not None or v.get("score") is None:
        return {"score": None, "row": None, "error": str(v.get("error"))}
    return {"score": v.get("score"), "row": v.get("row")}


def _profile_header(side: Side) -> dict:
    h = (
        side.profile.registry.get("registry")
        if isinstance(side.profile.registry, MAPPING)
        else None
    )
    h = h if isinstance(h, MAPPING) else {}
    return {"source": side.label, "profile": h.get("profile"), "version": h.get("version")}


def _registry_positions(side: Side):
    from ..loader import load_bytes

    if side.directory is None:
        return None
    try:
        return load_bytes((side.directory / "registry.yaml").read_bytes()).pos
    except OSError:
        return None


def implementation_findings(head: Side, cwd: Path) -> list[dict]:
    if head.directory is None or os.path.abspath(head.directory) == os.path.abspath(BUILTIN_DIR):
        return []
    pos = _registry_positions(head)
    out = []
    reg_rel = _norm_rel(head.directory / "registry.yaml", cwd)
    for f in review_profile(head.profile):
        if f.file is not None:
            path, line, col = _norm_rel(head.directory / f.file, cwd), f.line, f.col
        else:
            path = reg_rel
            line, col = (1, 1)
            if pos is not None:
                line, col = (
                    pos.value(f.registry_path) if f.on == "value" else pos.key(f.registry_path)
                )
        out.append(
            {
                "code": f.code,
                "severity": severity_of(f.code),
                "primitive": f.primitive,
                "path": path,
                "line": line,
                "column": col,
                "message": f.message,
                "help": HELP.get(f.code),
            }
        )
    out.sort(key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["message"]))
    return out


def build_report(base: Side, head: Side, view: CorpusView, cwd: Path, trust: bool) -> dict:
    changes = diff_profiles(base.profile, head.profile) + _impl_source_changes(base, head)
    change_rows = []
    reaches = []
    for c in changes:
        r = reach_of(c, base.profile, head.profile, view)
        reaches.append(r)
        row = c.as_dict()
        row["reaches"] = r.as_dict(view)
        change_rows.append(row)
    total = union(reaches)
    return {
        "version": REPORT_VERSION,
        "base": _profile_header(base),
        "head": _profile_header(head),
        "trusted": bool(trust),
        "changes": change_rows,
        "reached": total.as_dict(view),
        "verdicts": _verdicts(total.fixtures, view, base, head),
        "implementations": implementation_findings(head, cwd),
    }


def _verdicts(fixtures: list[str], view: CorpusView, base: Side, head: Side) -> dict:
    """Each reached fixture scored under both profiles: the verdicts that change, and the
    fixtures a side cannot score without importing an untrusted implementation."""
    by_path = {p: data for p, data in view.fixtures}
    changed, not_recomputed = [], []
    evaluated = 0
    for fpath in fixtures:
        fdata = by_path[fpath]
        sid = named_scenario(fdata)
        scenario = view.scenarios[sid][1]
        verdicts, whys, missing = {}, {}, {}
        for name, side in (("base", base), ("head", head)):
            needs = _untrusted(scenario, side.profile)
            if needs:
                missing[name] = needs
            else:
                verdicts[name], whys[name] = _score(fdata, scenario, side.profile)
        if missing:
            needs = {k: list(v) for k, v in sorted(missing.items())}
            not_recomputed.append({"fixture": fpath, "scenario": sid, "needs": needs})
            continue
        evaluated += 1
        if verdicts["base"] != verdicts["head"]:
            changed.append(
                {
                    "fixture": fpath,
                    "scenario": sid,
                    "before": verdicts["base"],
                    "after": verdicts["head"],
                    "why": whys.get("head"),
                }
            )
    return {"evaluated": evaluated, "changed": changed, "not_recomputed": not_recomputed}


def _untrusted(scenario: Any, profile: Profile) -> list[str]:
    try:
        return untrusted_primitives(scenario, profile)
    except Exception:  # a malformed profile: the verdict itself will say why
        return []


def _score(fixture: Any, scenario: Any, profile: Profile) -> tuple[dict, Any]:
    """(the verdict, why) of a fixture under one profile."""
    full = score(fixture, scenario, profile, explain=True)  # the table prepared here
    return _verdict(full), full.get("why")


def exit_status(report: Mapping[str, Any]) -> int:
    """1 when the proposed profile's implementations have an error-severity finding."""
    return 1 if any(f["severity"] == "error" for f in report.get("implementations", [])) else 0
