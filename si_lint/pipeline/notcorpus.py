"""SPEC §9 "Not a corpus file": under a root that is not configured, a file that does not
parse and has no top-level key of the §1 kind table is set aside with a ``--verbose``
note, its findings dropped. Under a configured root a ``.json`` file must be strict JSON."""

from __future__ import annotations

import json
import re

from ..findings import Diag
from .context import State
from .read import raw_of

#: the top-level keys that recognise a document's kind (SPEC §1)
_KEYS = (
    "id|classification|scoring|events|final_answer|actions|eio|context_artifacts|primitives"
    "|template"
)
#: a line that starts a top-level key of the kind table (plain or quoted)
_YAML_SIGN = re.compile(rf"^(?:{_KEYS}|\"(?:{_KEYS})\"|'(?:{_KEYS})')[ \t]*:", re.MULTILINE)
#: a JSON object member with such a key (anywhere: a broken JSON text has no structure)
_JSON_SIGN = re.compile(rf"\"(?:{_KEYS})\"\s*:")
#: the loader's findings that say a file could not be read as (core-schema) YAML/JSON:
#: invalid YAML, not UTF-8, an application's local tag (CloudFormation's ``!Ref``); a
#: safety limit (SI005) or a ``!!`` tag is reported whatever the file is
UNREADABLE = ("SI001", "SI006", "SI007")


def corpus_sign(raw: bytes, abspath: str) -> bool:
    text = raw.decode("utf-8", "replace")
    if _YAML_SIGN.search(text) is not None:
        return True
    jsonish = abspath.endswith(".json") or text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")
    return jsonish and _JSON_SIGN.search(text) is not None


def strict_json_diag(text: str) -> Diag | None:
    """SI001 for a ``.json`` text that is not strict JSON (a trailing comma, a comment,
    NaN)."""

    def refuse(name: str):
        raise ValueError(f"{name} is not JSON")

    try:
        json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        return Diag("SI001", (), f"invalid JSON: {exc.msg}", line=exc.lineno, col=exc.colno)
    except ValueError as exc:
        return Diag("SI001", (), f"invalid JSON: {exc}", line=1, col=1)
    except RecursionError:
        return None  # (the loader's limits report it)
    return None


def set_aside(state: State) -> None:
    """After the per-file stage: unreadable files with no sign of being corpus files lose
    their findings and go to ``state.not_corpus``."""
    sel = state.selection
    if sel.config.root_how == "config":
        return
    codes = {}
    for rel, findings in state.per_file.items():
        if findings and any(f.code in UNREADABLE for f in findings):
            codes[rel] = {f.code for f in findings if not _global_tag(f)}
    if not codes:
        return
    docs: dict[str, list] = {}
    for d in state.docs:
        if d.relpath in codes:
            docs.setdefault(d.relpath, []).append(d)
    codes = {rel: c for rel, c in codes.items() if _unreadable(c, docs.get(rel, []))}
    for rel in sorted(codes):
        abspath = sel.absolute(rel)
        raw = raw_of(abspath, state.overrides)
        if raw is None or corpus_sign(raw, abspath):
            continue
        state.per_file[rel] = []
        state.not_corpus.add(abspath)


def _global_tag(finding) -> bool:
    """SI007 for a ``!!`` tag (code execution in a reader that honours it) is reported
    whatever the file is; a local tag (``!Sub``, ``!reference``) signs another tool's."""
    return finding.code == "SI007" and finding.message.startswith("YAML tag '!!")


def _unreadable(codes: set[str], docs: list) -> bool:
    """No document of a kind, and either no document at all or a tag outside the core
    schema (a lone surrogate escape is SI006 in a file that was read: not this)."""
    if any(d.kind is not None for d in docs):
        return False
    return "SI007" in codes or all(d.ndocs == 0 for d in docs)


def not_corpus_note(relpath: str) -> str:
    return (
        f"skipped {relpath}: not a corpus file (it does not parse, and no top-level key "
        "names a corpus document)"
    )
