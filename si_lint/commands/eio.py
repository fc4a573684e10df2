"""`si-lint eio MODULE INPUT...`: evaluate EIO inputs against a module's criteria (SPEC §6, §7)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from ..corpus import classify
from ..eio import model
from ..eio.evaluator import evaluate_input
from ..errors import UsageError
from ..fsutil import read_regular
from ..limits import MAX_BYTES
from ..loader import load_bytes
from ..mapping import lookup
from . import options
from .eval_input import files_under

EXPLANATION = "lexical presence of the controls was measured, not their sufficiency"


def _read(path: str) -> tuple[Any, str | None]:
    raw, why = read_regular(path, MAX_BYTES)
    if raw is None:
        return None, f"cannot read: {why}"
    loaded = load_bytes(raw)
    d = next((d for d in loaded.findings if d.code in ("SI001", "SI005", "SI006", "SI007")), None)
    if d is not None or loaded.failed:
        where = f" (line {d.line}, column {d.col})" if d is not None and d.line else ""
        return None, f"{d.message if d else 'cannot be read'}{where}"
    return loaded.data, None


def evaluate_paths(module: Any, inputs: tuple[str, ...]) -> list[tuple[dict[str, Any], Any]]:
    """(result, input data) per input; ``result`` is the SPEC §7 object."""
    paths: list[tuple[str, bool]] = []  # (path as shown, named explicitly)
    for given in inputs:
        if Path(given).is_dir():
            found = files_under(Path(given), (".yaml", ".yml", ".json"), hidden_files=True)
            paths.extend((os.path.join(given, rel).replace(os.sep, "/"), False) for rel, _ in found)
        else:
            paths.append((given, True))
    results: list[tuple[dict[str, Any], Any]] = []
    for path, named in paths:
        data, err = _read(path)
        if err is not None:
            if named:
                results.append(({"input": path, "error": err}, None))
            continue
        if not named and classify(data) != "eio-input":
            continue  # a directory holds other files too (the module, notes)
        results.append(({"input": path, **evaluate_input(module, data)}, data))
    return results


def _profile_id(module: Any, data: Any) -> str | None:
    if isinstance(data, dict) and isinstance(data.get("profile"), str):
        return data["profile"]
    return next((lookup(p, "id", str) for _, p in model.profiles(module)), None)


def _text(module: Any, pairs: list[tuple[dict[str, Any], Any]]) -> str:
    lines: list[str] = []
    head = f"{model.module_id(module)} {model.module_version(module) or ''}".strip()
    for res, data in pairs:
        if lines:
            lines.append("")
        if "error" in res:
            lines.append(f"{res['input']}: error: {res['error']}")
            continue
        prof = _profile_id(module, data)
        lines.append(f"{res['input']}: {head}, profile {prof or '(none)'}")
        crits = res["criteria"]
        width = max((len(c) for c in crits), default=0)
        for cid, r in crits.items():
            status = r["status"]
            if status == "SCORED":
                detail = repr(r["score"])
                if r["scoring"] == "checklist":
                    missing = _missing(module, cid, r["controls_present"])
                    present = f"{len(r['controls_present'])}/{r['controls_required']}"
                    detail += f"  ({present} controls present"
                    detail += f"; missing: {', '.join(missing)})" if missing else ")"
                else:
                    detail += "  (assessor rating / 10)"
            elif status == "FINDINGS":
                f = r.get("findings", {})
                detail = (
                    f"searched {', '.join(f.get('artifacts', []))} "
                    f"({f.get('searched_chars', 0)} characters); never a value"
                )
            elif status == "NOT_APPLICABLE":
                detail = (
                    "no artifact of an evaluated kind"
                    if r["searched_text_sha256"] is None
                    else "no assessor rating recorded"
                )
            else:
                detail = r.get("error", "")
            lines.append(f"  {cid:<{width}}  {r['scoring']!s:<11}  {status:<14}  {detail}")
        if res["q_axis"] is None:
            lines.append("  Q axis: n/a (no scoring criterion was SCORED)")
        else:
            ids = _scoring_ids(module, prof)
            n = sum(crits.get(cid, {}).get("status") == "SCORED" for cid in ids)
            lines.append(
                f"  Q axis: {res['q_display']}  ({res['q_axis']:.4f}: mean of {n} "
                f"scored criteria x 10; {EXPLANATION})"
            )
    return "\n".join(lines) + "\n"


def _scoring_ids(module: Any, wanted: str | None) -> set[str]:
    for _, p in model.profiles(module):
        if p.get("id") == wanted:
            return {c for _, c in model.str_list(p.get("scoring_criteria"))}
    return set()


def _missing(module: Any, cid: str, present: list[str]) -> list[str]:
    for _, c in model.criteria(module):
        if c.get("id") == cid and isinstance(c.get("controls"), list):
            ids = [ctl.get("id") for ctl in c["controls"] if isinstance(ctl, dict)]
            return [i for i in ids if isinstance(i, str) and i not in present]
    return []


@click.command("eio")
@click.argument("module_path", metavar="MODULE", type=click.Path())
@click.argument("inputs", metavar="INPUT...", nargs=-1, required=True, type=click.Path())
@options.declare(options.fmt("text", "json"))
def command(module_path, inputs, fmt):
    """Evaluate EIO inputs against MODULE's criteria: checklist scores (controls present /
    required), assessor ratings, findings of non_scoring criteria, and the Q axis
    (quantised once to 4 decimals, displayed to 1).

    Exit status: 0 every input was evaluated, 1 some input (or some criterion of one) is
    an error, 2 the module itself cannot be used."""
    module, err = _read(module_path)
    if err is not None:
        raise UsageError(f"{module_path}: {err}")
    if model.module_id(module) is None:
        raise UsageError(f"{module_path}: not an EIO module (no `eio.id`)")

    pairs = evaluate_paths(module, inputs)
    results = [res for res, _ in pairs]
    if fmt == "json":
        click.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        click.echo(_text(module, pairs), nl=False)
    failed = any(
        "error" in r or any(c["status"] == "ERROR" for c in r["criteria"].values()) for r in results
    )
    return 1 if failed else 0
