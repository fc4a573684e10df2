"""Applying fixes to a loaded document, in place (ruamel round-trip nodes or plain data
alike: a round-trip node keeps its position, style and comments)."""

from __future__ import annotations

import contextlib
import copy
import json

from . import Fix


def _key_of(mapping, part):
    """(key of ``mapping`` the path part names, found?): ruamel may load `1:` as an int."""
    if part in mapping:
        return part, True
    for k in mapping:
        if str(k) == str(part) and not isinstance(k, (dict, list)):
            return k, True
    return part, False


def resolve(root, path):
    """(parent container, actual key/index) of ``path``, or None when the path does not exist."""
    node = found = None
    for part in path:
        node = root if found is None else found[0][found[1]]
        if isinstance(node, dict) and isinstance(part, str):
            key, ok = _key_of(node, part)
        elif isinstance(node, list) and type(part) is int:
            key, ok = part, 0 <= part < len(node)
        else:
            return None
        if not ok:
            return None
        found = (node, key)
    return found


def plain(value):
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _set_list_in_place(old: list, new: list) -> None:
    """Make ``old`` equal ``new`` in place (flow style and the items' comments stay)."""
    plain_new = [plain(x) for x in new]
    # is `new` a subsequence of `old`? then delete the others, last first
    keep, j = set(), 0
    for i, item in enumerate(old):
        if j < len(plain_new) and plain(item) == plain_new[j]:
            keep.add(i)
            j += 1
    subsequence = j == len(plain_new)
    for i in reversed(range(len(old))):
        if not subsequence or i not in keep:
            del old[i]
    if not subsequence:
        old.extend(new)


def apply_to(root, fix: Fix) -> bool:
    """False (nothing changed) when the path is gone or the fix does not fit its node."""
    found = resolve(root, fix.path)
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
        if new_key != key:
            comment = parent.ca.items.pop(key, None) if hasattr(parent, "ca") else None
            comments = {fix.value: comment} if comment is not None else {}
            _splice(parent, key, [(fix.value, parent[key])], comments)
        return True
    old = parent[key]
    new = fix.value
    if isinstance(old, list) and isinstance(new, (list, tuple)):
        _set_list_in_place(old, list(new))
        return True
    if isinstance(old, (dict, list)) != isinstance(new, (dict, list, tuple)):
        return False  # a scalar fix for a collection (or the reverse): not what the check saw
    if isinstance(old, dict) and isinstance(new, dict) and hasattr(old, "ca"):
        parent[key] = _block(old, new)  # a whole block replaced (SI115's migration draft)
        return True
    new = copy.deepcopy(new)
    if isinstance(new, str) and isinstance(old, str) and type(old) is not str:
        with contextlib.suppress(Exception):
            new = type(old)(new)  # in the old string's quoting style
    parent[key] = new
    return True


def _block(old, new: dict):
    """``new`` as a ruamel block mapping in place of ``old``: lists of scalars in flow style
    (``channels: [agent_response]``), and the comment or blank lines that followed ``old``'s
    last line kept after the new block's."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq  # (when fixing)

    def styled(value):
        if isinstance(value, dict):
            return CommentedMap((k, styled(v)) for k, v in value.items())
        if isinstance(value, list):
            seq = CommentedSeq(styled(v) for v in value)
            if all(not isinstance(v, (dict, list)) for v in value):
                seq.fa.set_flow_style()
            return seq
        return copy.deepcopy(value)

    block = styled(new)
    trailing, node = None, old
    while isinstance(node, dict) and node and hasattr(node, "ca"):
        last = list(node)[-1]
        entry = node.ca.items.get(last)
        if entry is not None and len(entry) > 2 and entry[2] is not None:
            trailing = entry[2]
        node = node[last]
    if trailing is not None and block and not isinstance(block[list(block)[-1]], (dict, list)):
        block.ca.items[list(block)[-1]] = [None, None, trailing, None]
    return block


def _splice(parent, key, items: list[tuple], comments: dict) -> None:
    """``parent[key]`` replaced by ``items`` where it stood (``comments``: the new keys')."""
    if hasattr(parent, "ca"):
        pos = list(parent).index(key)
        del parent[key]
        for offset, (k, v) in enumerate(items):
            parent.insert(pos + offset, k, v)
        parent.ca.items.update(comments)
        return
    old = list(parent.items())
    parent.clear()
    for k, v in old:
        if k == key:
            parent.update(items)
        else:
            parent[k] = v


def _lift(parent, key) -> bool:
    inner = parent[key]
    if not isinstance(parent, dict) or not isinstance(inner, dict):
        return False
    if any(_key_of(parent, k)[1] for k in inner):
        return False  # a lifted key would duplicate one beside it
    items = list(inner.items())
    comments = {}
    if hasattr(parent, "ca") and hasattr(inner, "ca"):
        before = parent.ca.items.pop(key, None)
        comments = {k: inner.ca.items[k] for k in inner if k in inner.ca.items}
        if before is not None and items and items[-1][0] not in comments:
            # a comment after the lifted mapping (it ends the block): keep it after the last key
            comments[items[-1][0]] = before
    _splice(parent, key, items, comments)
    return True


def ordered(fixes: list[Fix]) -> list[Fix]:
    """Unique fixes, edits first, then deletions from the end (list indexes stay valid)."""
    seen, claimed, kept = set(), set(), []
    for f in fixes:
        key = (f.op, f.path, json.dumps(plain(f.value), sort_keys=True, default=repr))
        # one value per path: the first fix wins when two disagree
        if key in seen or (f.op != "delete" and f.path in claimed):
            continue
        seen.add(key)
        claimed.add(f.path)
        kept.append(f)
    deletes = sorted(
        (f for f in kept if f.op == "delete"),
        key=lambda f: tuple((0, p) if isinstance(p, int) else (1, str(p)) for p in f.path),
        reverse=True,
    )
    return [f for f in kept if f.op != "delete"] + deletes
