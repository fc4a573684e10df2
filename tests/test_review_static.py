"""Static review of primitive implementations (SPEC §2.1 "Static review, pinned")."""

from __future__ import annotations

import textwrap

import pytest

from si_lint.checks.primitive_review.parsed import StaticFinding
from si_lint.checks.primitive_review.source_review import review_source


def codes_at(source: str, func: str = "p", params=("a",)) -> list[tuple[str, int, int]]:
    src = textwrap.dedent(source)
    return [(f.code, f.line, f.col) for f in review_source(src, func, list(params))]


CLEAN = '''\
import re
import unicodedata

_DELIM = re.compile(r"[A-Za-z0-9_-]")


def _norm(s):
    return unicodedata.normalize("NFC", s).casefold()


def p(evidence, *, a):
    """Reads time.time() and random.random() -- only in a docstring."""
    # open("x") in a comment does not count
    text = _norm(" ".join(e.get("text", "") for e in evidence.get("events", [])))
    pat = re.compile(r"\\b" + re.escape(_norm(a)) + r"\\b")
    label = "time.time()"
    return bool(pat.search(text)) and bool(label)
'''


def test_clean_implementation_has_no_findings():
    assert review_source(CLEAN, "p", ["a"]) == []


# -- SI501 ------------------------------------------------------------------------------
def test_missing_function_is_si501():
    assert review_source("def q(evidence, *, a):\n    return True\n", "p", ["a"]) == [
        StaticFinding("SI501", 1, 1, "no module-level function `p` in the implementation")
    ]


def test_function_shadowed_by_later_assignment_is_missing():
    src = "def p(evidence, *, a):\n    return True\np = None\n"
    assert [f.code for f in review_source(src, "p", ["a"])] == ["SI501"]


def test_nested_function_is_not_module_level():
    src = "def outer():\n    def p(evidence, *, a):\n        return True\n"
    assert [f.code for f in review_source(src, "p", ["a"])] == ["SI501"]


def test_unparsable_module_is_si501_not_a_traceback():
    out = review_source("def p(evidence, *, a:\n", "p", ["a"])
    assert [f.code for f in out] == ["SI501"]
    assert out[0].message.startswith("implementation module does not parse")


# -- SI502 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "sig",
    [
        "evidence, *, a, b",
        "evidence, *, b, a",  # order free
        "evidence, /, *, a, b",  # positional-only evidence is fine
        "evidence, *, a=1, b=False",  # defaults are free
    ],
)
def test_signature_matches(sig):
    assert codes_at(f"def p({sig}):\n    return True\n", params=("a", "b")) == []


@pytest.mark.parametrize(
    "sig,detail",
    [
        ("evidence, *, a", "missing keyword-only `b`"),
        ("evidence, *, a, b, c", "keyword-only parameter(s) not in the registry: `c`"),
        (
            "evidence, a, b",
            "exactly one positional parameter `evidence` is required "
            "(got evidence, a, b); missing keyword-only `a`, `b`",
        ),
        ("ev, *, a, b", "exactly one positional parameter `evidence` is required (got ev)"),
        ("evidence, *args, a, b", "`*args` is not allowed"),
        ("evidence, *, a, b, **kw", "`**kw` is not allowed"),
        ("*, a, b", "exactly one positional parameter `evidence` is required (got none)"),
    ],
)
def test_signature_differs(sig, detail):
    src = f"\n\ndef p({sig}):\n    return True\n"
    assert review_source(src, "p", ["a", "b"]) == [
        StaticFinding(
            "SI502",
            3,
            5,
            "`p` parameters differ from the registry's (`evidence, *, a, b`): " + detail,
        )
    ]


# -- SI503 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "imports,expr,shown",
    [
        ("import time", "time.time()", "time.time"),
        ("from time import time as t", "t()", "time.time"),
        ("from time import monotonic", "monotonic()", "time.monotonic"),
        ("import datetime as d", "d.datetime.now()", "datetime.datetime.now"),
        ("from datetime import datetime", "datetime.now().isoformat()", "datetime.datetime.now"),
        ("from datetime import date", "date.today()", "datetime.date.today"),
        ("import random", "random.random()", "random.random"),
        ("from random import choice as pick", "pick([1])", "random.choice"),
        ("import uuid", "uuid.uuid4()", "uuid.uuid4"),
        ("import os", "os.environ['X']", "os.environ"),
        ("import os", "os.environ.get('X')", "os.environ.get"),
        ("from os import environ", "environ.get('X')", "os.environ.get"),
        ("import os", "os.getenv('X')", "os.getenv"),
        ("import os.path", "os.path.exists('x')", "os.path.exists"),
        ("import sys", "open('x')", "builtins.open"),
        ("from pathlib import Path", "Path('x').read_text()", "pathlib.Path"),
        ("import pathlib as pl", "pl.Path('x')", "pathlib.Path"),
        ("import subprocess", "subprocess.run(['ls'])", "subprocess.run"),
        ("from subprocess import check_output as co", "co(['ls'])", "subprocess.check_output"),
        ("import socket", "socket.gethostname()", "socket.gethostname"),
        ("import urllib.request", "urllib.request.urlopen('http://x')", "urllib.request.urlopen"),
        ("import requests", "requests.get('http://x')", "requests.get"),
        ("import threading", "threading.Thread(target=None)", "threading.Thread"),
        (
            "from concurrent.futures import ThreadPoolExecutor",
            "ThreadPoolExecutor()",
            "concurrent.futures.ThreadPoolExecutor",
        ),
        ("import importlib", "importlib.import_module('time')", "importlib.import_module"),
        ("import os", "eval('1')", "builtins.eval"),
        ("from datetime import datetime as dt", "dt.utcnow()", "datetime.datetime.utcnow"),
        ("import os.path as osp", "osp.exists('x')", "os.path.exists"),
        ("from os import path", "path.isfile('x')", "os.path.isfile"),
        ("import secrets", "secrets.token_hex()", "secrets.token_hex"),
        ("from multiprocessing import Pool", "Pool()", "multiprocessing.Pool"),
        ("import os", "hash(a)", "builtins.hash"),
    ],
)
def test_nondeterminism_however_imported(imports, expr, shown):
    src = f"{imports}\n\n\ndef p(evidence, *, a):\n    x = 1\n    return bool({expr})\n"
    out = review_source(src, "p", ["a"])
    assert [(f.code, f.line, f.col) for f in out] == [("SI503", 6, 17)]
    assert out[0].message.startswith(f"`{shown}` is nondeterministic (")


def test_nondeterminism_read_without_call_counts():
    src = "import time\n\ndef p(evidence, *, a):\n    clock = time.time\n    return clock() > 0\n"
    assert codes_at(src) == [("SI503", 4, 13)]


def test_function_local_import_counts():
    src = "def p(evidence, *, a):\n    import random as r\n    return r.random() > 0.5\n"
    assert codes_at(src) == [("SI503", 3, 12)]


def test_names_in_strings_comments_docstrings_and_locals_do_not_count():
    src = '''\
    def p(evidence, *, a):
        """time.time(), random.random(), open('x')"""
        # os.environ['HOME']
        time = "random.random()"
        random = [time]
        return bool(random) and "open(x)" != a
    '''
    assert codes_at(src) == []


def test_shadowed_builtin_open_is_not_io():
    src = "def open(x):\n    return x\n\ndef p(evidence, *, a):\n    return bool(open(a))\n"
    assert codes_at(src) == []


def test_helpers_are_followed_transitively_and_reported_where_they_read():
    src = """\
    from time import time as now

    def _stamp():
        return now()

    def _inner(x):
        return _stamp() > x

    def unrelated():
        import random
        return random.random()

    def p(evidence, *, a):
        return _inner(0)
    """
    out = review_source(textwrap.dedent(src), "p", ["a"])
    assert out == [
        StaticFinding(
            "SI503",
            4,
            12,
            "`time.time` is nondeterministic (the clock): a primitive must be a pure function "
            "of its arguments (in helper `_stamp`, reached from `p`)",
        )
    ]


def test_helper_passed_by_reference_is_followed():
    src = """\
    import random

    def _key(x):
        return random.random()

    def p(evidence, *, a):
        return sorted(a, key=_key)[0] == a
    """
    assert codes_at(src) == [("SI503", 4, 12)]


def test_recursive_helpers_terminate():
    src = """\
    def _a(n):
        return _b(n - 1) if n else True

    def _b(n):
        return _a(n)

    def p(evidence, *, a):
        return _a(3) and p(evidence, a=a)
    """
    assert codes_at(src) == []


def test_default_values_are_reviewed():
    src = "import time\n\ndef p(evidence, *, a=time.time()):\n    return True\n"
    assert codes_at(src) == [("SI503", 3, 22)]


def test_annotations_are_not_reads():
    src = "import time\n\ndef p(evidence: time.struct_time, *, a: 'x') -> bool:\n    return True\n"
    assert codes_at(src) == []


# -- SI504 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body,expected",
    [
        ("re.search(a, text)", [("SI504", 5, 17)]),
        ("re.compile(r'\\b' + a + r'\\b').search(text)", [("SI504", 5, 17)]),
        ("re.match(f'({a})', text)", [("SI504", 5, 17)]),
        ("re.findall(pattern=a, string=text)", [("SI504", 5, 17)]),
        ("re.search('|'.join(a), text)", [("SI504", 5, 17)]),
        ("re.search(re.escape(a), text)", []),
        ("re.search(rf'\\b{re.escape(a)}\\b', text)", []),
        ("re.search('|'.join(re.escape(x) for x in a), text)", []),
        ("re.search('|'.join(map(re.escape, a)), text)", []),
        ("re.search('|'.join(x for x in a), text)", [("SI504", 5, 17)]),
        ("re.search(r'\\d+', a)", []),  # the parameter is the text, not the pattern
        ("re.sub(r'\\s+', ' ', a)", []),
        ("re.search(text, 'x')", []),  # a local not derived from a parameter
    ],
)
def test_regex_from_parameter(body, expected):
    src = f"import re\n\ndef p(evidence, *, a):\n    text = 'abc'\n    return bool({body})\n"
    assert codes_at(src) == expected


def test_regex_taint_flows_through_locals():
    src = """\
    import re as regexp

    def p(evidence, *, a):
        lowered = a.lower()
        parts = []
        for x in lowered.split():
            parts.append(x)
        joined = "|".join(parts)
        safe = regexp.escape(joined)
        ok = regexp.search(safe, "t")
        return bool(regexp.compile(joined)) or bool(ok)
    """
    assert codes_at(src) == [("SI504", 11, 17)]


def test_regex_escaping_reassignment_clears_taint():
    src = """\
    import re

    def p(evidence, *, a):
        a = re.escape(a)
        return bool(re.search(a, "t"))
    """
    assert codes_at(src) == []


def test_regex_taint_from_either_branch():
    src = """\
    import re

    def p(evidence, *, a):
        if evidence:
            pat = a
        else:
            pat = "x"
        return bool(re.search(pat, "t"))
    """
    assert codes_at(src) == [("SI504", 8, 17)]


def test_regex_from_evidence_counts_too():
    src = """\
    from re import search

    def p(evidence, *, a):
        first = evidence["events"][0]["text"]
        return bool(search(first, "t"))
    """
    assert codes_at(src) == [("SI504", 5, 17)]


# -- SI505 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "it,expected",
    [
        ("{'x', 'y'}", [("SI505", 4, 14)]),
        ("set(a)", [("SI505", 4, 14)]),
        ("frozenset(a)", [("SI505", 4, 14)]),
        ("{v for v in a}", [("SI505", 4, 14)]),
        ("sorted(set(a))", []),
        ("a", []),
        ("[v for v in a]", []),
    ],
)
def test_set_iteration_with_early_exit(it, expected):
    src = f"\n\ndef p(evidence, *, a):\n    for k in {it}:\n        if k:\n            return k\n    return None\n"
    assert codes_at(src) == expected


def test_set_iteration_without_early_exit_is_fine():
    src = "def p(evidence, *, a):\n    n = 0\n    for k in set(a):\n        n += 1\n    return n > 0\n"
    assert codes_at(src) == []


def test_set_iteration_break_of_inner_loop_does_not_count_but_return_does():
    inner_break = (
        "def p(evidence, *, a):\n    for k in set(a):\n        for j in a:\n"
        "            break\n    return True\n"
    )
    assert codes_at(inner_break) == []
    outer_break = (
        "def p(evidence, *, a):\n    for k in set(a):\n        while k:\n"
        "            return k\n    return True\n"
    )
    assert codes_at(outer_break) == [("SI505", 2, 14)]
    brk = "def p(evidence, *, a):\n    for k in set(a):\n        if k:\n            break\n    return True\n"
    assert codes_at(brk) == [("SI505", 2, 14)]


def test_set_iteration_return_in_nested_function_does_not_count():
    src = (
        "def p(evidence, *, a):\n    for k in set(a):\n        def g():\n"
        "            return k\n    return True\n"
    )
    assert codes_at(src) == []


# -- SI506 ------------------------------------------------------------------------------
def test_module_state_writes_point_at_the_write():
    src = """\
    import sys
    CACHE = {}
    SEEN = []
    COUNT = 0

    def p(evidence, *, a):
        global COUNT
        local = {}
        local[a] = 1
        COUNT += 1
        CACHE[a] = True
        SEEN.append(a)
        sys.flag = 1
        evidence.get("x")
        return bool(local)
    """
    out = review_source(textwrap.dedent(src), "p", ["a"])
    assert out == [
        StaticFinding(
            "SI506",
            10,
            5,
            "assignment to module-level `COUNT` (declared `global`): "
            "a primitive must not keep state",
        ),
        StaticFinding(
            "SI506", 11, 5, "write to module-level `CACHE`: a primitive must not keep state"
        ),
        StaticFinding(
            "SI506",
            12,
            5,
            "`SEEN.append(...)` mutates module-level state: a primitive must not keep state",
        ),
        StaticFinding(
            "SI506", 13, 5, "write to module-level `sys`: a primitive must not keep state"
        ),
    ]


def test_write_through_globals_is_module_state():
    src = "def p(evidence, *, a):\n    globals()['SEEN'] = a\n    return True\n"
    assert review_source(src, "p", ["a"]) == [
        StaticFinding("SI506", 2, 5, "write through `globals()`: a primitive must not keep state")
    ]


def test_global_declaration_without_write_is_fine():
    src = "X = 1\n\ndef p(evidence, *, a):\n    global X\n    return X == 1\n"
    assert codes_at(src) == []


def test_module_state_write_in_helper():
    src = "MEMO = {}\n\ndef _h(x):\n    MEMO[x] = 1\n    return x\n\ndef p(evidence, *, a):\n    return bool(_h(a))\n"
    assert codes_at(src) == [("SI506", 4, 5)]


def test_local_shadowing_module_name_is_not_module_state():
    src = "CACHE = {}\n\ndef p(evidence, *, a):\n    CACHE = {}\n    CACHE[a] = 1\n    CACHE.update({})\n    return True\n"
    assert codes_at(src) == []


def test_findings_are_deterministic_and_sorted():
    src = """\
    import random, re
    S = set()

    def p(evidence, *, b):
        for k in {1, 2}:
            return re.search(b, random.choice("ab")) and S.add(k)
    """
    first = review_source(textwrap.dedent(src), "p", ["a"])
    assert [(f.code, f.line, f.col) for f in first] == [
        ("SI502", 4, 5),
        ("SI505", 5, 14),
        ("SI504", 6, 16),
        ("SI503", 6, 29),
        ("SI506", 6, 54),
    ]
    assert review_source(textwrap.dedent(src), "p", ["a"]) == first


def test_regex_taint_follows_module_helpers():
    src = """\
    import re

    def _compile(ids, flags=0):
        joined = "|".join(ids)
        return re.compile(joined, flags)

    def _safe(ids):
        return re.compile("|".join(map(re.escape, ids)))

    def _rec(ids, n):
        return _rec(ids, n - 1) if n else re.search(ids[0], "x")

    def p(evidence, *, a, b):
        x = _compile(a)
        y = _compile(["literal"])
        z = _safe(b)
        w = _rec(n=3, ids=a)
        return bool(x and y and z and w)
    """
    assert review_source(textwrap.dedent(src), "p", ["a", "b"]) == [
        StaticFinding(
            "SI504",
            5,
            12,
            "`re.compile` pattern is built from a parameter without "
            "`re.escape`: a value containing regex metacharacters changes what matches "
            "(in helper `_compile`, reached from `p`)",
        ),
        StaticFinding(
            "SI504",
            11,
            39,
            "`re.search` pattern is built from a parameter without "
            "`re.escape`: a value containing regex metacharacters changes what matches "
            "(in helper `_rec`, reached from `p`)",
        ),
    ]


def test_helper_called_only_with_literals_is_not_tainted():
    src = "import re\n\ndef _h(x):\n    return re.compile(x)\n\ndef p(evidence, *, a):\n    return bool(_h('lit'))\n"
    assert codes_at(src) == []
