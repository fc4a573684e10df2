"""Cache files are decoded by msgspec where it can and by the stdlib where it refuses:
the value is always the one ``json.loads`` gives (si_lint.cache.signed.decode_json)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from si_lint.cache.signed import decode_json, dumps

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # lone surrogates included
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@given(values)
def test_decode_json_is_json_loads(value):
    body = dumps(value)
    assert repr(decode_json(body)) == repr(json.loads(body))


def test_what_msgspec_refuses_the_stdlib_reads():
    for body, expected in (
        (b"[NaN,Infinity,-Infinity]", "[nan, inf, -inf]"),
        (b'"\\ud800"', "'\\ud800'"),
        (b"1e400", "inf"),
        (b"123456789012345678901234567890", "123456789012345678901234567890"),
    ):
        assert repr(decode_json(body)) == expected


def test_what_neither_reads_is_none():
    for body in (b"not json", b"[1,", b"[" * 100_000 + b"]" * 100_000, b"\xff"):
        assert decode_json(body) is None


def _stdlib_text(value) -> bytes:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")


@given(values)
def test_dumps_writes_what_reads_back_as_the_stdlib_s_text_does(value):
    assert repr(json.loads(dumps(value))) == repr(json.loads(_stdlib_text(value)))


def test_dumps_gives_to_the_stdlib_what_msgspec_would_write_otherwise():
    for value, expected in (
        ([None, float("nan")], b"[null,NaN]"),  # msgspec: [null,null]
        ({"a": None, "b": [float("-inf"), float("inf")]}, b'{"a":null,"b":[-Infinity,Infinity]}'),
        (["a\udc80"], b'["a\\udc80"]'),  # msgspec raises on a lone surrogate
        ([None, 2**70], b"[null,1180591620717411303424]"),  # its msgpack raises past 64 bits
    ):
        assert dumps(value) == expected == _stdlib_text(value)
    # the rest is msgspec's: the same value, UTF-8 rather than \\u escapes
    assert dumps({"é": [None, 1.5e300, -0.0]}) == '{"é":[null,1.5e300,-0.0]}'.encode()


def test_dumps_without_msgspec_is_the_stdlib_s(monkeypatch):
    from si_lint.cache import signed

    monkeypatch.setattr(signed, "_FAST", [None])
    assert dumps({"é": [None, 1.5e300]}) == b'{"\\u00e9":[null,1.5e+300]}'
