"""Safe fixes: the data a check attaches to a finding (``Diag(fix=...)``) and ``--fix``/``--diff``.

A :class:`Fix` is plain data -- an operation on one document path -- so checks stay pure:

- ``Fix("set", path, value)``       replace the value at ``path`` (a mapping key or a list index);
                                    a list value replaces a list's items in place (flow style and
                                    comments of the list survive), a string keeps the old quoting
- ``Fix("delete", path)``           remove the key (or list item) at ``path``
- ``Fix("replace_item", path, v)``  alias of ``set`` for a list item
- ``Fix("set_list", path, items)``  alias of ``set`` for a whole list
- ``Fix("rename_key", path, name)`` rename the mapping key at ``path`` in place (order kept)
- ``Fix("lift", path)``             replace the mapping key at ``path`` by the items of its
                                    mapping value, where it stood (their comments kept); nothing
                                    is done when a lifted key already exists beside it

Checks build them with the factories :func:`set_value`, :func:`delete_key`,
:func:`replace_item`, :func:`set_list` and :func:`rename_key` (or ``Fix("lift", path)``). ``Diag.fix`` may also hold a
tuple of ``Fix`` when one finding needs several edits. Paths are document paths as in
``si_lint.findings`` (tuples of ``str`` keys and ``int`` list indexes), always into the
document the finding is reported on.
"""

from __future__ import annotations

import copy
import difflib
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

OPS = ("set", "delete", "replace_item", "set_list", "rename_key", "lift")


@dataclass(frozen=True, eq=True)
class Fix:
    """One safe, data-only rewrite of one document path."""

    op: str
    path: tuple
    value: Any = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown fix op {self.op!r} (one of {', '.join(OPS)})")
        object.__setattr__(self, "path", tuple(self.path))
        if not self.path:
            raise ValueError("a fix needs a non-empty document path")

    __hash__ = None  # value may be a list


def set_value(path, value: Any) -> Fix:
    return Fix("set", tuple(path), value)


def delete_key(path) -> Fix:
    return Fix("delete", tuple(path))


def replace_item(path, value: Any) -> Fix:
    return Fix("replace_item", tuple(path), value)


def set_list(path, items) -> Fix:
    return Fix("set_list", tuple(path), list(items))


def rename_key(path, name: str) -> Fix:
    return Fix("rename_key", tuple(path), name)


def fix_to_data(obj: Any) -> Any:
    """A finding's fix (one ``Fix`` or a sequence of them) as JSON-able data."""
    return [[f.op, list(f.path), f.value] for f in fixes_of(obj)]


def fix_from_data(data: Any) -> tuple[Fix, ...] | None:
    """The inverse of :func:`fix_to_data`; raises ``ValueError`` on anything else."""
    if not isinstance(data, list):
        raise ValueError("not a fix")
    out = []
    for item in data:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and item[0] in OPS
            and isinstance(item[1], list)
            and item[1]
            and all(type(p) in (str, int) for p in item[1])
        ):
            raise ValueError("not a fix")
        out.append(Fix(item[0], tuple(item[1]), item[2]))
    return tuple(out) or None


def fixes_of(obj: Any) -> list[Fix]:
    """The ``Fix`` objects a finding carries (``None``, one ``Fix`` or a sequence of them)."""
    if isinstance(obj, Fix):
        return [obj]
    if isinstance(obj, (list, tuple)) and all(isinstance(x, Fix) for x in obj):
        return list(obj)
    return []


# --------------------------------------------------------------------------------------
# applying fixes to a document (ruamel round-trip nodes or plain data alike)


def _key_of(mapping, part):
    """The actual key of ``mapping`` that the path part names (ruamel may load `1:` as int)."""
    if part in mapping:
        return part, True
    for k in mapping:
        if str(k) == str(part) and not isinstance(k, (dict, list)):
            return k, True
    return part, False


def _resolve(root, path):
    """(parent container, actual key/index) of ``path``, or None when the path does not exist."""
    node = root
    for i, part in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, dict) and isinstance(part, str):
            key, ok = _key_of(node, part)
            if not ok:
                return None
        elif isinstance(node, list) and isinstance(part, int) and not isinstance(part, bool):
            if not 0 <= part < len(node):
                return None
            key = part
        else:
            return None
        if last:
            return node, key
        node = node[key]
    return None


def _plain(value):
    """A fix value as plain data (for comparisons)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _converted(old, new):
    """The new value, in the old one's clothes: a string keeps the old quoting style."""
    if isinstance(new, str) and isinstance(old, str) and type(old) is not str:
        try:
            return type(old)(new)
        except Exception:
            return new
    return new


def _set_list_in_place(old: list, new: list) -> None:
    """Make ``old`` equal ``new`` without replacing the node (keeps flow style and the
    comments of the items that stay). Narrowing deletes the items that go."""
    plain_old = [_plain(x) for x in old]
    plain_new = [_plain(x) for x in new]
    # is `new` a subsequence of `old`? then delete the others, last first
    keep, j = [], 0
    for i, item in enumerate(plain_old):
        if j < len(plain_new) and item == plain_new[j]:
            keep.append(i)
            j += 1
    if j == len(plain_new):
        for i in reversed(range(len(old))):
            if i not in keep:
                del old[i]
        return
    for i in reversed(range(len(old))):
        del old[i]
    old.extend(new)


def apply_to(root, fix: Fix) -> bool:
    """Apply one fix to a loaded document (in place). False when the path is gone or the
    fix does not fit the node there (nothing is changed then)."""
    found = _resolve(root, fix.path)
    if found is None:
        return False
    parent, key = found
    if fix.op == "delete":
        del parent[key]
        return True
    if fix.op == "lift":
        return _lift(parent, key)
    if fix.op == "rename_key":
        if not isinstance(parent, dict) or not isinstance(fix.value, str):
            return False
        new_key, exists = _key_of(parent, fix.value)
        if exists and new_key != key:
            return False  # would create a duplicate key
        if new_key == key:
            return True
        keys = list(parent)
        pos = keys.index(key)
        value = parent[key]
        if hasattr(parent, "insert"):  # ruamel CommentedMap: keep position and comments
            comment = parent.ca.items.pop(key, None) if hasattr(parent, "ca") else None
            del parent[key]
            parent.insert(pos, fix.value, value)
            if comment is not None:
                parent.ca.items[fix.value] = comment
        else:
            items = list(parent.items())
            parent.clear()
            for k, v in items:
                parent[fix.value if k == key else k] = v
        return True
    old = parent[key]
    new = fix.value
    if isinstance(old, list) and isinstance(new, (list, tuple)):
        _set_list_in_place(old, list(new))
        return True
    if isinstance(old, (dict, list)) != isinstance(new, (dict, list, tuple)):
        return False  # a scalar fix for a collection (or the reverse): not what the check saw
    parent[key] = _converted(old, copy.deepcopy(new))
    return True


def _lift(parent, key) -> bool:
    """``parent[key]`` (a mapping) replaced by its items, in place (see ``Fix("lift")``)."""
    inner = parent[key]
    if not isinstance(parent, dict) or not isinstance(inner, dict):
        return False
    if any(_key_of(parent, k)[1] for k in inner):
        return False  # a lifted key would duplicate one beside it
    keys = list(parent)
    pos = keys.index(key)
    if hasattr(parent, "insert") and hasattr(inner, "ca"):  # ruamel: positions and comments
        before = parent.ca.items.pop(key, None) if hasattr(parent, "ca") else None
        items = list(inner.items())
        comments = {k: inner.ca.items[k] for k in inner if k in inner.ca.items}
        del parent[key]
        for offset, (k, v) in enumerate(items):
            parent.insert(pos + offset, k, v)
            if k in comments:
                parent.ca.items[k] = comments[k]
        if before is not None and items and items[-1][0] not in comments:
            # a comment after the lifted mapping (it ends the block): keep it after the last key
            parent.ca.items[items[-1][0]] = before
        return True
    items = list(parent.items())
    parent.clear()
    for k, v in items:
        if k == key:
            for ik, iv in inner.items():
                parent[ik] = iv
        else:
            parent[k] = v
    return True


def _ordered(fixes: list[Fix]) -> list[Fix]:
    """Unique fixes in a safe order: edits first, then deletions from the end backwards
    (so list indexes stay valid)."""
    seen, out = set(), []
    for f in fixes:
        key = (f.op, f.path, json.dumps(_plain(f.value), sort_keys=True, default=repr))
        if key not in seen:
            seen.add(key)
            out.append(f)
    # one value per path: the first fix wins when two disagree
    claimed, kept = set(), []
    for f in out:
        if f.op != "delete" and f.path in claimed:
            continue
        claimed.add(f.path)
        kept.append(f)

    def sort_key(path):
        return tuple((0, p) if isinstance(p, int) else (1, str(p)) for p in path)

    edits = [f for f in kept if f.op != "delete"]
    deletes = sorted(
        (f for f in kept if f.op == "delete"), key=lambda f: sort_key(f.path), reverse=True
    )
    return edits + deletes


# --------------------------------------------------------------------------------------
# rewriting text: round trip, then carry only the changed hunks back into the original


class FixError(Exception):
    """The file cannot be fixed safely (it is left alone)."""


_INDENTS = ((2, 2, 0), (2, 4, 2), (4, 4, 2), (4, 4, 0), (2, 3, 1), (4, 6, 4), (3, 3, 0), (4, 5, 3))


def _yaml(indent):
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.allow_duplicate_keys = False
    y.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return y


def _dump(y, data) -> str:
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


def _mismatch(a: str, b: str) -> int:
    return sum(1 for line in difflib.ndiff(a.splitlines(), b.splitlines()) if line[:1] in "+-")


def _yaml_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    """(round trip of the original, round trip with the fixes, fixes applied) -- with the
    indentation that reproduces the original best."""
    candidates = list(_INDENTS)
    best = None
    for indent in candidates:
        y = _yaml(indent)
        try:
            base = _dump(y, y.load(text))
        except Exception as exc:
            raise FixError(f"cannot round-trip the file ({type(exc).__name__})") from exc
        score = _mismatch(text, base)
        if best is None or score < best[0]:
            best = (score, indent, base)
        if score == 0:
            break
    _, indent, base = best
    y = _yaml(indent)
    data = y.load(text)
    if text.lstrip().startswith("---"):
        y.explicit_start = True
        base = _dump(y, y.load(text))
    applied = [f for f in fixes if apply_to(data, f)]
    return base, _dump(y, data), applied


def _json_versions(text: str, fixes: list[Fix]) -> tuple[str, str, list[Fix]]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FixError("cannot parse the JSON file") from exc
    indent = 2
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) != len(line):
            indent = len(line) - len(stripped)
            break
    base = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    applied = [f for f in fixes if apply_to(data, f)]
    return base, json.dumps(data, indent=indent, ensure_ascii=False) + "\n", applied


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _keep_following_comments(removed: list[str], added: list[str]) -> list[str]:
    """Comment lines at the end of a removed block that belong to what follows it (indented
    no deeper than the block's first line): a deletion must not take them along."""
    content = [i for i, line in enumerate(removed) if line.strip() and not _is_comment(line)]
    if not content:
        return added
    first_indent = _indent(removed[content[0]])
    tail = removed[content[-1] + 1 :]
    deep = [i for i, line in enumerate(tail) if _is_comment(line) and _indent(line) > first_indent]
    if deep:
        tail = tail[deep[-1] + 1 :]
    if not any(_is_comment(line) for line in tail) or any(
        line in added for line in tail if line.strip()
    ):
        return added
    return added + tail


def _realign_comment(old: str, new: str) -> str:
    """Keep the gap before an end-of-line comment that both lines share (the dumper keeps
    the comment's old column, which leaves odd padding after a shorter value)."""
    idx = len(old)
    while True:
        idx = old.rfind("#", 0, idx)
        if idx <= 0:
            return new
        if old[idx - 1] in " \t":
            break
    suffix = old[idx:]
    if not new.endswith(suffix) or len(new) == len(suffix):
        return new
    code_old = old[:idx]
    gap = len(code_old) - len(code_old.rstrip())
    code_new = new[: len(new) - len(suffix)].rstrip()
    if not code_new.strip():
        return new
    return code_new + code_old[len(code_old.rstrip()) :][:gap] + suffix


def _replace_block(removed: list[str], added: list[str], realign: bool) -> list[str]:
    if realign and removed and added:
        added = list(added)
        matcher = difflib.SequenceMatcher(None, removed, added, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "replace":
                continue
            if i2 - i1 == j2 - j1:
                pairs = [(i1 + k, j1 + k) for k in range(i2 - i1)]
            else:  # pair lines that set the same key
                pairs, used = [], set()
                for j in range(j1, j2):
                    head = added[j].split(":", 1)[0]
                    for i in range(i1, i2):
                        if (
                            i not in used
                            and ":" in removed[i]
                            and removed[i].split(":", 1)[0] == head
                        ):
                            used.add(i)
                            pairs.append((i, j))
                            break
            for i, j in pairs:
                added[j] = _realign_comment(removed[i], added[j])
    return _keep_following_comments(removed, added)


def _region(mapped: dict, i1: int, i2: int, n_base: int, n_orig: int) -> tuple[int, int]:
    """The lines of the original that base lines [i1, i2) stand for."""
    if i1 in mapped and i1 < i2:
        start = mapped[i1]
    elif i1 - 1 in mapped:
        start = mapped[i1 - 1] + 1
    elif i1 == 0:
        start = 0
    else:
        raise FixError("the change falls in a part of the file the round trip reformats")
    if i2 > i1 and i2 - 1 in mapped:
        end = mapped[i2 - 1] + 1
    elif i2 in mapped:
        end = mapped[i2]
    elif i2 == n_base:
        end = n_orig
    elif i2 == i1:
        end = start
    else:
        raise FixError("the change falls in a part of the file the round trip reformats")
    return start, end


def _patch_line(orig: str, base: str, mod: str) -> str | None:
    """Apply the edit base→mod to ``orig``, a line that differs from ``base`` only in the
    amount of white space; None when the two lines are not alike in that way."""
    if orig.split() != base.split() or orig[:1].isspace() != base[:1].isspace():
        return None
    pb = [i for i, c in enumerate(base) if not c.isspace()]
    po = [i for i, c in enumerate(orig) if not c.isspace()]
    where = {b: o for b, o in zip(pb, po)}

    def at(i: int) -> int:
        if i in where:
            return where[i]
        prev = max((b for b in pb if b < i), default=None)
        nxt = min((b for b in pb if b >= i), default=None)
        pos = (where[prev] + 1 + (i - prev - 1)) if prev is not None else i
        limit = where[nxt] if nxt is not None else len(orig.rstrip("\r\n"))
        return min(pos, limit)

    out = orig
    ops = difflib.SequenceMatcher(None, base, mod, autojunk=False).get_opcodes()
    for tag, a1, a2, b1, b2 in reversed(ops):
        if tag != "equal":
            o1, o2 = at(a1), at(a2)
            if o2 < o1:
                return None
            out = out[:o1] + mod[b1:b2] + out[o2:]
    return out


_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?[^#\s][^:]*:(?:\s|$)")


def _patch(orig: str, base: str, mod: str, realign: bool = True) -> str:
    """Carry the differences base→mod (two renderings by the same dumper) into ``orig``
    (which ``base`` renders, perhaps imperfectly), touching only the changed lines."""
    o_lines = orig.splitlines(keepends=True)
    b_lines = base.splitlines(keepends=True)
    m_lines = mod.splitlines(keepends=True)
    mapped: dict[int, int] = {}
    loose: dict[int, int] = {}  # base lines the round trip rewrote one for one
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, o_lines, b_lines, autojunk=False
    ).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                mapped[j1 + k] = i1 + k
        elif tag == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                loose[j1 + k] = i1 + k
    out: list[str] = []
    pos = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, b_lines, m_lines, autojunk=False
    ).get_opcodes():
        if tag == "equal":
            continue
        line_patch = None
        if tag == "replace" and i2 - i1 == j2 - j1 and any(i not in mapped for i in range(i1, i2)):
            # lines the round trip re-spaces (aligned values, say): carry the edit over
            # character by character, line for line, when each line's original is known
            origin = [mapped.get(i, loose.get(i)) for i in range(i1, i2)]
            if i2 - i1 == 1 and origin[0] is None:  # neighbours pin a single line down
                start = mapped[i1 - 1] + 1 if i1 - 1 in mapped else (0 if i1 == 0 else None)
                end = mapped[i2] if i2 in mapped else (len(o_lines) if i2 == len(b_lines) else None)
                origin = [start] if start is not None and end == start + 1 else [None]
            if None in origin or origin != list(range(origin[0], origin[0] + len(origin))):
                raise FixError("the change falls in a part of the file the round trip reformats")
            start, end = origin[0], origin[-1] + 1
            line_patch = []
            for k, o in enumerate(origin):
                patched = _patch_line(o_lines[o], b_lines[i1 + k], m_lines[j1 + k])
                if patched is None:
                    raise FixError(
                        "the change falls in a part of the file the round trip reformats"
                    )
                line_patch.append(_realign_comment(o_lines[o], patched) if realign else patched)
        else:
            start, end = _region(mapped, i1, i2, len(b_lines), len(o_lines))
        if start < pos or end < start:
            raise FixError("overlapping changes")
        if tag == "delete":  # a deleted key takes the comment lines directly above it along
            m = _KEY_LINE.match(o_lines[start]) if start < len(o_lines) else None
            if m:
                above = start
                while (
                    above > pos
                    and _is_comment(o_lines[above - 1])
                    and _indent(o_lines[above - 1]) == len(m.group(1))
                ):
                    above -= 1
                if above > 0:  # a comment block that opens the file is its header: it stays
                    start = above
        out.extend(o_lines[pos:start])
        if line_patch is not None:
            out.extend(line_patch)
        else:
            out.extend(_replace_block(o_lines[start:end], m_lines[j1:j2], realign))
        pos = end
    out.extend(o_lines[pos:])
    return "".join(out)


def _same(a, b) -> bool:
    """Equal as data, types included (``1 == True`` must not hide a change)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


def _render_scalar(old_text: str, value, plain_style: bool) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if not isinstance(value, str):
        return None
    if old_text.startswith("'"):
        return "'" + value.replace("'", "''") + "'"
    if old_text.startswith('"') or not plain_style:
        return json.dumps(value, ensure_ascii=False)
    return value


def _substitute_scalars(body: str, loaded, fixes: list[Fix], plain_style: bool) -> str | None:
    """Fallback for scalar-for-scalar fixes in parts of a file the round trip would
    reformat: replace each old scalar's text (one line) by the new value in the old style."""
    from .source import token_end

    lines = body.split("\n")
    edits = []
    for f in fixes:
        if f.op not in ("set", "replace_item"):
            return None
        found = _resolve(loaded.data, f.path)
        if found is None:
            return None
        parent, key = found
        old = parent[key]
        if isinstance(old, (dict, list)) or isinstance(f.value, (dict, list, tuple)):
            return None
        line, col = loaded.pos.value(f.path)
        if not 1 <= line <= len(lines):
            return None
        src = lines[line - 1]
        if (
            isinstance(old, str)
            and old
            and src[col - 1 : col] not in ("'", '"')
            and src[col - 1 :].startswith(old)
        ):
            end = col + len(old)  # a plain scalar is its own text
        else:
            end = token_end(src, col)
        text = _render_scalar(src[col - 1 : end - 1], f.value, plain_style)
        if text is None:
            return None
        edits.append((line, col, end, text))
    for line, col, end, text in sorted(edits, reverse=True):
        src = lines[line - 1]
        lines[line - 1] = src[: col - 1] + text + src[end - 1 :]
    return "\n".join(lines)


def fix_text(text: str, fixes: list[Fix], *, json_file: bool = False) -> tuple[str, list[Fix]]:
    """Apply ``fixes`` to one document's text. Returns (new text, the fixes applied); the
    text is returned unchanged when no fix applies. Raises :class:`FixError` when the file
    cannot be rewritten safely."""
    from .loader import load_bytes

    fixes = _ordered(fixes)
    if not fixes:
        return text, []
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    crlf = "\r\n" in body and body.count("\r\n") == body.count("\n")
    if crlf:
        body = body.replace("\r\n", "\n")
    before = load_bytes(body.encode("utf-8"))
    if before.failed or any(
        d.code in ("SI001", "SI002", "SI003", "SI005", "SI006", "SI007") for d in before.findings
    ):
        raise FixError("the file does not load cleanly")
    if len(before.starts) > 1:
        raise FixError("the text holds more than one document (see fix_stream)")
    base, mod, applied = (_json_versions if json_file else _yaml_versions)(body, fixes)
    if not applied or base == mod:
        return text, []
    # the result must load to exactly the fixed data, or the file stays as it was
    expected = copy.deepcopy(before.data)
    for f in applied:
        if not apply_to(expected, Fix(f.op, f.path, _plain(f.value))):
            raise FixError("the fix does not apply to the loaded data")

    def good(candidate: str | None) -> bool:
        if candidate is None:
            return False
        after = load_bytes(candidate.encode("utf-8"))
        noise = [d for d in after.findings if d.code != "SI008"]  # SI008 is a warning
        return (
            not after.failed
            and not noise
            and len(after.starts) == len(before.starts)
            and _same(after.data, expected)
        )

    new = None
    problem = "the rewritten file would not hold exactly the fixed data"
    for realign in (True, False):
        try:
            candidate = _patch(body, base, mod, realign)
        except FixError as exc:
            problem = str(exc)
            break
        if good(candidate):
            new = candidate
            break
    if new is None:  # scalar edits only? then replace the scalars where they stand
        for plain_style in (True, False):
            candidate = _substitute_scalars(body, before, applied, plain_style)
            if good(candidate):
                new = candidate
                break
    if new is None:
        raise FixError(problem)
    if crlf:
        new = new.replace("\n", "\r\n")
    return bom + new, applied


def _split_lines(text: str) -> list[str]:
    """Lines with their ``\n`` (only ``\n`` ends a line, as for the loader's marks)."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def fix_stream(text: str, fixes: dict, *, json_file: bool = False) -> tuple[str, list[tuple]]:
    """Apply fixes to the documents of a file: ``fixes`` maps a document index (None: the
    file's only document) to its fixes. A multi-document file is cut into one piece per
    document (at each document's start: its ``---``; the header before the first stays
    with it), each piece is fixed on its own, and the pieces are joined again, so every
    other document, comment and ``---`` is kept byte for byte. Returns (new text, the
    fixes applied as (document, fix) pairs)."""
    from .loader import load_bytes

    bom = "\ufeff" if text.startswith("\ufeff") else ""
    loaded = load_bytes(text[len(bom) :].encode("utf-8"))
    wanted = {k: v for k, v in fixes.items() if v}
    if json_file or len(loaded.starts) <= 1:
        new, done = fix_text(text, [f for v in wanted.values() for f in v], json_file=json_file)
        return new, [(key, f) for f in done for key in wanted if f in wanted[key]][: len(done)]
    if loaded.failed:
        raise FixError("the file does not load cleanly")
    lines = _split_lines(text[len(bom) :])
    starts = list(loaded.starts)
    starts[0] = 0
    bounds = starts + [len(lines)]
    pieces = ["".join(lines[bounds[k] : bounds[k + 1]]) for k in range(len(starts))]
    applied: list[tuple] = []
    for index, doc_fixes in wanted.items():
        # None: the file's only document (perhaps after an empty one)
        k = index if index is not None else (loaded.documents[0].index if loaded.documents else 0)
        if not 0 <= k < len(pieces):
            continue
        new, done = fix_text(pieces[k], doc_fixes)
        pieces[k] = new
        applied.extend((index, f) for f in done)
    if not applied:
        return text, []
    out = "".join(pieces)
    after = load_bytes(out.encode("utf-8"))
    if after.failed or len(after.starts) != len(loaded.starts):
        raise FixError("the rewritten file would not hold the same documents")
    return bom + out, applied


# --------------------------------------------------------------------------------------
# --fix / --diff


#: fixes ``--fix`` applies: they keep what a scenario means (SPEC §9). Every other fix
#: (SI113, SI105, SI101–SI103, EIO106, EIO114, ...) changes what the scenario or module
#: scores, and is applied only with ``--unsafe-fixes``.
SAFE_FIX_CODES = frozenset({"SI117", "SI119"})
#: the codes whose checks attach an unsafe fix today (documentation: docs/rules/CODE.md)
UNSAFE_FIX_CODES = frozenset({"SI101", "SI102", "SI103", "SI105", "SI113", "EIO106", "EIO114"})


def is_safe(finding) -> bool:
    return finding.code in SAFE_FIX_CODES


def fixable(finding, unsafe: bool = False) -> bool:
    """Whether ``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) would fix ``finding``."""
    return bool(fixes_of(getattr(finding, "fix", None))) and (unsafe or is_safe(finding))


@dataclass
class FixReport:
    fixed_findings: int = 0
    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    fixed: list = field(default_factory=list)  # the findings fixed (or fixable, for --diff)
    unsafe_left: int = 0  # findings with an unsafe fix that was not applied


def plan(findings, unsafe: bool = False) -> dict[str, list[tuple[Any, list[Fix]]]]:
    """The fixes per file: file → [(finding, fixes)] (findings without a fix, and unsafe
    fixes unless ``unsafe``, left out); ``finding.document`` says which document of a
    multi-document file they apply to."""
    out: dict[str, list] = {}
    for f in findings:
        fixes = fixes_of(getattr(f, "fix", None))
        if fixes and (unsafe or is_safe(f)):
            out.setdefault(f.path, []).append((f, fixes))
    return out


def fix_files(result, *, write: bool, diff_stream=None, unsafe: bool = False) -> FixReport:
    """Rewrite (or, with ``write=False``, only diff) every file that has findings with fixes
    (the safe ones; the unsafe ones too with ``unsafe``)."""
    import os

    from .fsutil import ReadOnlyFile, atomic_write, read_regular
    from .limits import MAX_BYTES

    report = FixReport()
    report.unsafe_left = (
        0 if unsafe else sum(1 for f in result.findings if fixable(f, True) and not is_safe(f))
    )
    corpus = getattr(result, "corpus", None)
    for relpath, items in sorted(plan(result.findings, unsafe).items()):
        doc = corpus.doc(relpath) if corpus is not None else None
        abspath = doc.abspath if doc is not None else os.path.abspath(relpath)
        raw, why = read_regular(abspath, MAX_BYTES)  # regular files only, bounded
        if raw is None or len(raw) > MAX_BYTES:
            report.skipped.append((relpath, f"cannot read it ({why or 'over the size limit'})"))
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            report.skipped.append((relpath, f"cannot read it ({type(exc).__name__})"))
            continue
        fixes: dict = {}
        for f, fxs in items:
            fixes.setdefault(getattr(f, "document", None), []).extend(fxs)
        try:
            new, applied = fix_stream(text, fixes, json_file=relpath.endswith(".json"))
        except FixError as exc:
            report.skipped.append((relpath, str(exc)))
            continue
        except Exception as exc:
            report.skipped.append((relpath, f"internal error ({type(exc).__name__}: {exc})"))
            continue
        if new == text or not applied:
            continue
        applied_keys = {(d, f.op, f.path) for d, f in applied}
        done = [
            f
            for f, fxs in items
            if all((getattr(f, "document", None), fx.op, fx.path) in applied_keys for fx in fxs)
        ]
        fixed = len(done)
        if diff_stream is not None:
            diff = difflib.unified_diff(
                text.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"a/{relpath}",
                tofile=f"b/{relpath}",
            )
            for line in diff:
                diff_stream.write(
                    line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                )
        if write:
            try:
                # through a symbolic link to its target (discovery only keeps links that
                # stay inside the root), keeping the mode and hard links; a read-only file is
                # refused and its findings stay reported
                atomic_write(abspath, new.encode("utf-8"), follow_symlinks=True)
            except ReadOnlyFile:
                report.skipped.append(
                    (relpath, "the file is read-only; its findings stay reported")
                )
                continue
            except OSError as exc:
                report.skipped.append(
                    (relpath, f"cannot write it ({exc.strerror or type(exc).__name__})")
                )
                continue
        report.fixed_findings += fixed
        report.fixed.extend(done)
        report.files.append(relpath)
    return report
