"""A profile directory as it is at a git revision, copied into review's own temporary
directory and nowhere else. The revision and its tree are data (a fork's branch): how they
are read, what is written and what is refused is docs/security.md, "Git trees read by
`review`" (SPEC §9 "Trust boundaries"). In short: git only ever sees the object ids it
answered, only regular blobs under plain paths are written (``O_CREAT|O_EXCL|O_NOFOLLOW``,
parent directories made here), every entry refused is a :class:`Refusal` the review
reports, and what is read is bounded (:data:`MAX_ENTRIES`,
:data:`si_lint.limits.MAX_BYTES`, :data:`MAX_TOTAL_BYTES`).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ..limits import too_big

#: the most entries listed from a tree (the shipped profile has a handful)
MAX_ENTRIES = 10_000
#: the most bytes of ``git ls-tree`` output read (a listing line is at most ~4 KiB)
MAX_LISTING_BYTES = 16 * 1024 * 1024
#: the most bytes of blobs written in all
MAX_TOTAL_BYTES = 64 * 1024 * 1024
#: the modes of a regular file git writes (100664 is an old spelling of 100644)
REGULAR_MODES = ("100644", "100755", "100664")
#: seconds a git command may take
TIMEOUT = 120

_OID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


class ReviewError(Exception):
    """The review cannot run (bad --base/--profile, git failure): exit status 2."""


@dataclass(frozen=True)
class Entry:
    mode: str
    type: str
    oid: str
    size: int | None
    name: str  # relative to the listed tree; undecodable bytes as surrogates


@dataclass(frozen=True)
class Refusal:
    path: str  # the entry's path in the repository, escaped (:func:`escape_name`)
    message: str

    def as_dict(self) -> dict:
        return {"path": self.path, "severity": "error", "message": self.message}


def escape_name(name: str) -> str:
    """``name`` with a backslash, every control or non-printable character and every byte
    that is not UTF-8 written as a backslash escape: shown as is, it cannot move a
    terminal's cursor, and two different names never look the same."""
    out = []
    for ch in name:
        n = ord(ch)
        if 0xDC80 <= n <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{n - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        elif n <= 0xFF:
            out.append(f"\\x{n:02x}")
        elif n <= 0xFFFF:
            out.append(f"\\u{n:04x}")
        else:
            out.append(f"\\U{n:08x}")
    return "".join(out)


def git(args: list[str], cwd: Path, *, limit: int = MAX_LISTING_BYTES, stdin: bytes = b"") -> bytes:
    """The standard output of ``git ARGS``: at most ``limit`` bytes within :data:`TIMEOUT`."""
    where = escape_name(f"git {' '.join(args)}")
    try:
        with (
            tempfile.TemporaryFile() as err,
            subprocess.Popen(
                ["git", *args],
                cwd=str(cwd),
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err,
            ) as proc,
        ):
            timer = threading.Timer(TIMEOUT, proc.kill)
            timer.start()
            try:
                if stdin:  # the caller bounds the answer (the sizes of the blobs it asks for)
                    out, _ = proc.communicate(stdin, timeout=TIMEOUT)
                else:
                    assert proc.stdout is not None
                    out = proc.stdout.read(limit + 1)
                    if len(out) <= limit:
                        proc.wait(timeout=TIMEOUT)
            finally:
                timer.cancel()
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
            err.seek(0)
            msg = err.read(64 * 1024).decode("utf-8", "replace").strip().splitlines()
    except (OSError, subprocess.SubprocessError) as exc:
        raise ReviewError(f"{where}: {exc}") from None
    if len(out) > limit:
        raise ReviewError(f"{where}: more than {limit:,} bytes of output; not read")
    if proc.returncode != 0:
        why = escape_name(msg[-1]) if msg else f"failed (status {proc.returncode})"
        raise ReviewError(f"{where}: {why}")
    return out


def check_rev(rev: str) -> None:
    """Refuse a revision git would take for an option (one starting with ``-``)."""
    if rev.startswith("-"):
        raise ReviewError(
            f"--base {escape_name(rev)}: a revision cannot start with `-` "
            "(a directory named so: pass it as ./NAME)"
        )


def list_tree(oid: str, top: Path, *, recursive: bool) -> list[Entry]:
    args = ["ls-tree", "-z", "-l", *(["-r"] if recursive else []), oid]
    out = git(args, top)
    records = out.removesuffix(b"\0").split(b"\0") if out else []
    if len(records) > MAX_ENTRIES:
        raise ReviewError(f"git {' '.join(args)}: more than {MAX_ENTRIES:,} entries; not read")
    entries = []
    for rec in records:
        meta, tab, name = rec.partition(b"\t")
        fields = meta.split()
        if not tab or len(fields) != 4 or not _OID.fullmatch(fields[2]):
            raise ReviewError(f"git {' '.join(args)}: unexpected output")
        mode, typ, eoid, size = (f.decode("ascii", "replace") for f in fields)
        n = int(size) if size.isdigit() else None
        entries.append(Entry(mode, typ, eoid, n, name.decode("utf-8", "surrogateescape")))
    return entries


def subtree(commit: str, parts: list[str], top: Path) -> str | None:
    """The tree at ``parts`` (exact names, one level at a time) under ``commit``, or None."""
    tree = git(["rev-parse", "--verify", "--end-of-options", commit + "^{tree}"], top)
    oid = tree.strip().decode("ascii", "replace")
    for part in parts:
        entries = list_tree(oid, top, recursive=False)
        trees = [e for e in entries if e.name == part and e.type == "tree"]
        if not trees:
            return None
        oid = trees[0].oid
    return oid


def read_blobs(oids: list[str], top: Path, total: int) -> dict[str, bytes]:
    """Blobs whose sizes add up to ``total`` (checked by the caller), in one cat-file --batch."""
    if not oids:
        return {}
    unique = sorted(set(oids))
    ask = ("\n".join(unique) + "\n").encode("ascii")
    out = git(["cat-file", "--batch"], top, stdin=ask, limit=total + 100 * len(unique))
    blobs: dict[str, bytes] = {}
    at = 0
    for oid in unique:
        nl = out.find(b"\n", at)
        head = out[at:nl].split() if nl >= 0 else []
        if len(head) != 3 or head[0].decode("ascii", "replace") != oid or head[1] != b"blob":
            raise ReviewError(f"git cat-file --batch: unexpected output for {oid}")
        size = int(head[2])
        blobs[oid] = out[nl + 1 : nl + 1 + size]
        at = nl + 1 + size + 1
    return blobs


def path_problem(name: str) -> str | None:
    """Why the tree path ``name`` may not be written under a directory, or None."""
    if any(0xDC80 <= ord(c) <= 0xDCFF for c in name):
        return "its path is not UTF-8"
    if name.startswith("/"):
        return "its path is absolute"
    if "\\" in name:
        return "its path has a backslash"
    if any(not c.isprintable() for c in name):
        return "its path has a control or other non-printable character"
    for part in name.split("/"):
        if part in ("", ".", ".."):
            return f"its path has {'an empty' if not part else 'a `' + part + '`'} part"
        if ":" in part:
            return "its path has a `:` (a drive or stream name)"
    return None


def mode_problem(entry: Entry) -> str | None:
    """Why ``entry`` is not a regular file that may be written, or None."""
    if entry.mode == "120000":
        return "it is a symbolic link (mode 120000); not followed, not created"
    if entry.mode == "160000" or entry.type == "commit":
        return f"it is a submodule (mode {entry.mode}); not read"
    if entry.type != "blob" or entry.mode not in REGULAR_MODES:
        return f"it is not a regular file (mode {entry.mode}); not read"
    if entry.size is None:
        return "git gave no size for it; not read"
    big = too_big(entry.size)
    return f"it is {big}" if big else None


def write_confined(root: Path, name: str, data: bytes) -> str | None:
    """Write ``data`` at ``root/name`` (a path :func:`path_problem` accepts), making the
    parent directories here and never following a symbolic link or replacing a file;
    None, or why it was not written."""
    parts = name.split("/")
    d = real_root = os.path.realpath(root)
    try:
        for part in parts[:-1]:
            d = os.path.join(d, part)
            with contextlib.suppress(FileExistsError):
                os.mkdir(d, 0o700)
            if not stat.S_ISDIR(os.lstat(d).st_mode):
                return "another entry of the tree is in its way; not written"
        if os.path.commonpath([os.path.realpath(d), real_root]) != real_root:
            return "it would resolve outside the temporary directory; not written"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY
        fd = os.open(os.path.join(d, parts[-1]), flags, 0o600)
    except FileExistsError:
        return "another entry of the tree has the same path; not written"
    except OSError as exc:
        return f"it cannot be written ({exc.strerror or type(exc).__name__})"
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return None


def wanted(sub: str) -> bool:
    """Whether the profile needs the file ``sub`` (relative to the profile directory)."""
    return sub == "registry.yaml" or sub.startswith("templates/") or sub.endswith(".py")


def materialise(rev: str, head_dir: Path, tmp: Path) -> list[Refusal]:
    """Copy the profile directory ``head_dir`` at revision ``rev`` into ``tmp``; the refusals."""
    top = Path(git(["rev-parse", "--show-toplevel"], head_dir).decode("utf-8", "replace").strip())
    check_rev(rev)
    out = git(["rev-parse", "--verify", "--end-of-options", rev + "^{commit}"], top).strip()
    if not _OID.fullmatch(out):
        raise ReviewError(f"--base {escape_name(rev)}: git rev-parse gave no object id")
    commit = out.decode("ascii")
    rel = os.path.relpath(os.path.realpath(head_dir), os.path.realpath(top)).replace(os.sep, "/")
    parts = [] if rel == "." else rel.split("/")
    prefix = "".join(p + "/" for p in parts)
    oid = subtree(commit, parts, top)
    entries = list_tree(oid, top, recursive=True) if oid is not None else []
    if not any(e.name == "registry.yaml" for e in entries):
        raise ReviewError(
            f"--base {escape_name(rev)}: `{escape_name(prefix)}registry.yaml` does not exist "
            f"at {escape_name(rev)}"
        )
    refused, chosen, total = _choose(entries, prefix)
    blobs = read_blobs([e.oid for e in chosen], top, total)
    for e in chosen:
        why = write_confined(tmp, e.name, blobs[e.oid])
        if why is not None:
            refused.append(Refusal(escape_name(prefix + e.name), why))
    return sorted(set(refused), key=lambda r: (r.path, r.message))


def _choose(entries: list[Entry], prefix: str) -> tuple[list[Refusal], list[Entry], int]:
    """(the entries refused, the entries to write, their total size). An entry the
    profile does not need is refused only when its path is unsafe (a crafted tree); one
    it needs, or a directory on the way to one (``templates`` as a symbolic link), must
    also be a regular blob within the size limits."""
    needed = [e.name for e in entries if wanted(e.name)]
    on_the_way = {n.rsplit("/", i)[0] for n in needed for i in range(1, n.count("/") + 1)}
    refused, chosen, total = [], [], 0
    for e in entries:
        relevant = wanted(e.name) or e.name in on_the_way
        why = path_problem(e.name)
        if why is None and not relevant:
            continue
        why = why or mode_problem(e)
        if why is None and total + (e.size or 0) > MAX_TOTAL_BYTES:
            why = f"the files read would pass {MAX_TOTAL_BYTES:,} bytes in all; not read"
        if why is not None:
            refused.append(Refusal(escape_name(prefix + e.name), why))
            continue
        chosen.append(e)
        total += e.size or 0
    return refused, chosen, total
