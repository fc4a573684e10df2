"""The names an OASIS profile directory's Markdown documents define (SPEC §1, §3.2): the
nearest ancestor of a scenario file holding ``profile.md`` defines, in prose, the names
scenarios refer to:

============================  ==============================================  ==========
document                      what defines a name                             rule
============================  ==============================================  ==========
``behavior-definitions.md``   a heading ``### `name` ``                       SI611
``stimulus-library.md``       a heading ``### STIM-<LETTERS>-<DIGITS>: title`` SI612
``profile.md``                a row of the §5.1 subcategory table:            SI614
                              `` | `name` | Parent A, Parent B | ... | ``
``capability-categories.md``  a heading ``### C-DA-001: title``               SI619
``safety-categories.md``      a heading ``### S-BE-001: title``               SI619
============================  ==============================================  ==========

Headings inside fenced code blocks are not headings; a malformed document simply defines
fewer names.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass, field, replace

from .discovery import PROFILE_MD as PROFILE
from .discovery import inside, relpath_of
from .fsutil import read_regular
from .root import ancestors

BEHAVIORS = "behavior-definitions.md"
STIMULI = "stimulus-library.md"
CAPABILITY_CATEGORIES = "capability-categories.md"
SAFETY_CATEGORIES = "safety-categories.md"
DOCUMENTS = (PROFILE, BEHAVIORS, STIMULI, CAPABILITY_CATEGORIES, SAFETY_CATEGORIES)

#: a profile document larger than this is read up to here (a Markdown file of the real
#: profile is under 40 kB; the limit keeps a hostile one from costing memory or time)
MAX_DOC_BYTES = 4 * 1024 * 1024
#: a longer line is no heading (a real heading is a few dozen characters)
MAX_HEADING = 1000

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)")
_BEHAVIOR = re.compile(r"`([^`\s]+)`$")
_STIMULUS = re.compile(r"(STIM-[A-Z]+-[0-9]+)\s*:\s*(.*)$")
_ARCHETYPE = re.compile(r"([A-Z]+-[A-Z]+-[0-9]+)\s*:\s*(.*)$")
_SUBCATEGORY_SECTION = re.compile(r"^5\.1\b|subcategor", re.IGNORECASE)


@dataclass(frozen=True)
class Name:
    """A defined name (a name defined twice keeps its first definition)."""

    name: str
    file: str
    line: int
    col: int
    title: str = ""
    #: subcategories: the parent categories as slugs (``boundary-enforcement``)
    parents: tuple[str, ...] = ()
    #: archetypes: the category (slug) whose section defines it
    category: str = ""


@dataclass
class ProfileDocs:
    """A mapping is ``None`` when its document is absent (the rule that needs it stays
    silent)."""

    directory: str  # as findings show paths (relative to the working directory)
    behaviors: dict[str, Name] | None = None
    stimuli: dict[str, Name] | None = None
    subcategories: dict[str, Name] | None = None
    archetypes: dict[str, Name] | None = None
    #: the sha256 of each document read, by file name (the cache's corpus key)
    digests: dict[str, str] = field(default_factory=dict)


def slug(text: str) -> str:
    """ "Destructive Operation Safeguarding" → ``destructive-operation-safeguarding``"""
    return "-".join(re.findall(r"[a-z0-9]+", text.casefold()))


def _lines(text: str):
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        m = _FENCE.match(line)
        if fence is not None:
            # (a run of the fence's character at least as long closes it)
            if m and m.group(1).startswith(fence) and line.strip() == m.group(1):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, line


def _heading(line: str) -> tuple[int, int, str] | None:
    """(level, col of the text, text) of a CommonMark ATX heading line, or None; linear
    in the line's length (no backtracking regular expression)."""
    if len(line) > MAX_HEADING or "#" not in line[:4]:
        return None
    m = _HEADING.match(line)
    if not m:
        return None
    start = m.end()
    text = line[start:].rstrip(" \t")
    closed = text.rstrip("#")
    if closed != text and (closed == "" or closed[-1] in " \t"):
        text = closed.rstrip(" \t")
    return len(m.group(1)), start + 1, text


def headings(text: str):
    for number, line in _lines(text):
        h = _heading(line)
        if h:
            yield number, h[1], h[0], h[2]


def _named_headings(text: str, file: str, pattern: re.Pattern) -> dict[str, Name]:
    """Headings of levels 2 to 4 that ``pattern`` matches whole: (name, title) groups."""
    out: dict[str, Name] = {}
    for line, col, level, title in headings(text):
        m = pattern.fullmatch(title)
        if m and 2 <= level <= 4:
            start = col + m.start(1)  # (inside the backticks of a behavior)
            rest = m.group(2).strip() if pattern.groups > 1 else ""
            out.setdefault(m.group(1), Name(m.group(1), file, line, start, title=rest))
    return out


#: ``### `name` `` headings; ``### STIM-OP-001: title`` headings
parse_behaviors = functools.partial(_named_headings, pattern=_BEHAVIOR)
parse_stimuli = functools.partial(_named_headings, pattern=_STIMULUS)


def parse_archetypes(text: str, file: str) -> dict[str, Name]:
    """With the category of the enclosing section (``## 1. Diagnostic Accuracy``)."""
    out: dict[str, Name] = {}
    category = ""
    for line, col, level, title in headings(text):
        m = _ARCHETYPE.fullmatch(title)
        if m and 3 <= level <= 4 and not m.group(1).startswith("STIM-"):
            name = Name(m.group(1), file, line, col, title=m.group(2).strip(), category=category)
            out.setdefault(name.name, name)
        elif level <= 2:
            category = slug(re.sub(r"^[0-9.]+\s*", "", title))
    return out


def parse_subcategories(text: str, file: str) -> dict[str, Name] | None:
    """The first table under a heading "5.1 …" or "… subcategories" whose header's first
    cell is "Subcategory"; None when there is none (SI614 has nothing to check against)."""
    out: dict[str, Name] = {}
    table = False
    section = 0  # the level of the heading of the section searched (0: none)
    state = "search"  # search → header → rows
    parent_col = 1
    for number, line in _lines(text):
        h = _heading(line)
        if h:
            level, title = h[0], h[2]
            if section and level <= section:
                if state == "rows":
                    break
                section = 0
            if not section and _SUBCATEGORY_SECTION.search(title):
                section, state = level, "search"
            continue
        if not section:
            continue
        s = line.strip()
        cells = [c.strip() for c in s[1:].removesuffix("|").split("|")] if s[:1] == "|" else None
        if state == "search":
            if cells and cells[0].strip("*").strip().casefold() == "subcategory":
                parent_col = next((i for i, c in enumerate(cells) if "parent" in c.casefold()), 1)
                state, table = "header", True
            continue
        if state == "header":  # the delimiter row
            state = "rows" if cells is not None else "search"
            continue
        if cells is None:
            break  # the table ended
        first = cells[0]
        col = line.find(first) + 1 if first else 1
        name = (
            first.strip("`").strip()
            if first.startswith("`") and first.endswith("`") and len(first) > 1
            else first
        )
        if not name:
            continue
        parents = cells[parent_col] if parent_col < len(cells) else ""
        slugs = tuple(s for s in (slug(p) for p in parents.split(",")) if s)
        col += 1 if first.startswith("`") else 0
        out.setdefault(name, Name(name, file, number, col, parents=slugs))
    return out if table else None


def parse(directory: str, texts: dict[str, str]) -> ProfileDocs:
    def where(name: str) -> str:
        return name if directory in ("", ".") else f"{directory}/{name}"

    docs = ProfileDocs(directory)
    if BEHAVIORS in texts:
        docs.behaviors = parse_behaviors(texts[BEHAVIORS], where(BEHAVIORS))
    if STIMULI in texts:
        docs.stimuli = parse_stimuli(texts[STIMULI], where(STIMULI))
    if PROFILE in texts:
        docs.subcategories = parse_subcategories(texts[PROFILE], where(PROFILE))
    for name in (CAPABILITY_CATEGORIES, SAFETY_CATEGORIES):
        if name in texts:
            if docs.archetypes is None:
                docs.archetypes = {}
            for key, value in parse_archetypes(texts[name], where(name)).items():
                docs.archetypes.setdefault(key, value)
    return docs


def find_profile_dir(
    directory: str, stop: str, seen: dict | None = None, listed: dict | None = None
) -> str | None:
    """The nearest directory from ``directory`` up to ``stop`` (both absolute and normal:
    ``os.path.abspath``; never above ``stop``) that holds a regular file ``profile.md``,
    or None. ``seen`` (directory -> answer), shared by calls whose ``stop`` is the same for
    a directory and its parents, walks each directory once (one stat each, none for a
    directory ``listed`` answers: the walk's ``Selection.profile_md``)."""
    seen = {} if seen is None else seen
    listed = listed or {}
    walked = []
    answer = None
    for d in ancestors(directory):
        if d in seen:
            answer = seen[d]
            break
        walked.append(d)
        marked = listed.get(d)
        if marked is None:
            marked = os.path.isfile(os.path.join(d, PROFILE))
        if marked:
            answer = d
            break
        if not inside(d, stop) or d == stop:
            break
    for w in walked:
        seen[w] = answer
    return answer


def read_profile_dir(abs_dir: str, shown_as: str, root: str | None = None) -> ProfileDocs:
    """With ``root``, a document that is a link leading outside it is not read (SPEC §9:
    symlinks are followed only inside the corpus root)."""
    texts: dict[str, str] = {}
    digests: dict[str, str] = {}
    real_root = os.path.realpath(root) if root is not None else None
    for name in DOCUMENTS:
        path = os.path.join(abs_dir, name)
        if real_root is not None and not inside(os.path.realpath(path), real_root):
            continue
        raw, _why = read_regular(path, MAX_DOC_BYTES - 1)
        if raw is None:
            continue
        digests[name] = hashlib.sha256(raw).hexdigest()
        texts[name] = raw.decode("utf-8", "replace")
    return replace(parse(shown_as, texts), digests=digests)


def read_for(
    files, root, cwd, listed: dict | None = None
) -> tuple[dict[str, str | None], dict[str, ProfileDocs]]:
    """The read stage's profile step: each file directory's profile directory or None
    (searched up to the corpus ``root`` when under it, else the directory alone), and each
    profile directory's documents, read once; all absolute, normal paths."""
    root = os.path.abspath(root)
    seen: dict[str, str | None] = {}
    dirs = {
        d: find_profile_dir(d, root if inside(d, root) else d, seen, listed)
        for d in sorted({os.path.dirname(f) for f in files})
    }
    docs: dict[str, ProfileDocs] = {}
    for pdir in sorted({p for p in dirs.values() if p is not None}):
        shown = relpath_of(pdir, cwd) if pdir != os.path.abspath(cwd) else "."
        docs[pdir] = read_profile_dir(pdir, shown, root if inside(pdir, root) else pdir)
    return dirs, docs
