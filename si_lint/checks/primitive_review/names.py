"""What the rules look for, by qualified name: the nondeterministic names of SI503, the
``re`` functions of SI504 and the mutating methods of SI506."""

from __future__ import annotations

#: SI503: the category a message shows -> the names that count as it. A qualified name
#: matches a name when it equals it or starts with it followed by a dot.
_CATEGORIES = {
    "the clock": "time datetime.datetime.now datetime.datetime.utcnow datetime.datetime.today "
    "datetime.date.today",
    "randomness": "random secrets os.urandom os.getrandom numpy.random",
    "uuid generation": "uuid.uuid1 uuid.uuid4 uuid.getnode",
    "the environment": "os.environ os.environb os.getenv os.getenvb os.putenv os.unsetenv "
    "os.path.expandvars os.path.expanduser sys.argv os.getcwd os.getpid locale platform "
    "getpass datetime.datetime.fromtimestamp datetime.date.fromtimestamp",
    "file I/O": "builtins.open builtins.input io.open io.FileIO pathlib os.open os.read "
    "os.write os.listdir os.scandir os.walk os.stat os.lstat os.remove os.unlink os.mkdir "
    "os.makedirs os.rename os.replace os.rmdir os.path.exists os.path.lexists os.path.isfile "
    "os.path.isdir os.path.islink os.path.getsize os.path.getmtime os.path.getatime "
    "os.path.getctime os.path.abspath os.path.realpath os.path.samefile shutil tempfile glob "
    "fileinput sys.stdin sqlite3 shelve dbm",
    "a subprocess": "subprocess os.system os.popen os.fork os.spawnl os.spawnv os.execv "
    "os.execl pty",
    "network I/O": "socket ssl urllib http requests httpx aiohttp ftplib smtplib poplib "
    "imaplib telnetlib xmlrpc",
    "threads": "threading _thread multiprocessing concurrent.futures",
    "a dynamic import (its target cannot be reviewed)": "builtins.__import__ "
    "importlib.import_module importlib.__import__",
    "dynamic code (it cannot be reviewed)": "builtins.eval builtins.exec builtins.compile",
    "the interpreter's hash seed or object addresses": "builtins.hash builtins.id",
}
_NONDET = {name: category for category, names in _CATEGORIES.items() for name in names.split()}

# SI504: `re` functions and the pattern argument
RE_FUNCS = {
    f"{mod}.{fn}"
    for mod in ("re", "regex")
    for fn in "compile search match fullmatch findall finditer sub subn split".split()
}
RE_ESCAPE = {"re.escape", "regex.escape"}

# SI506: methods that mutate the object they are called on
MUTATORS = set(
    "append extend insert remove pop popitem clear update setdefault add discard sort reverse "
    "appendleft extendleft __setitem__ __delitem__ difference_update intersection_update "
    "symmetric_difference_update".split()
)


def nondet_category(qname: str) -> str | None:
    """The SI503 category of ``qname``: of its longest dotted prefix that is a listed name."""
    parts = qname.split(".")
    prefixes = (".".join(parts[:i]) for i in range(len(parts), 0, -1))
    return next((_NONDET[p] for p in prefixes if p in _NONDET), None)
