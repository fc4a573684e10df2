"""Cache files are decoded by msgspec where it can and by the stdlib where it refuses:
the value is always the one ``json.loads`` gives (si_lint.cache.signed.decode_json)."""

from __future__ import annotations

import json

from conftest import python_floats
from hypothesis import given
from hypothesis import strategies as st

from si_lint.cache.signed import decode_json, dumps


def _json_values(floats):
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(10**30), max_value=10**30)
        | floats
        | st.text()  # lone surrogates included
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
        ),
        max_leaves=20,
    )


#: any float64 bits, NaNs with payloads included
values = _json_values(st.floats(allow_nan=True, allow_infinity=True))
#: what ``dumps`` is given: the NaNs Python makes (conftest.python_floats)
python_values = _json_values(python_floats())


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


@given(python_values)
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


def test_integers_that_hold_a_nan_s_bits_keep_msgspec_s_text(monkeypatch):
    """The bytes of an integer's msgpack may look like a NaN's (``cb 7f f1``, any NaN's
    bits): only Python's own NaN and infinities (``cb 7f f8 00..``) send a value to the
    stdlib, so a large table of integers is not written twice."""
    import msgspec

    from si_lint.cache import signed

    value = {"a": None, "b": [0x00CB7FF100000005, 0x00CBFFF800000000, 7]}
    assert b"\xcb\x7f\xf1" in msgspec.msgpack.encode(value)
    stdlib = signed._ENCODE
    monkeypatch.setattr(signed, "_ENCODE", None)  # calling it fails the test
    assert dumps(value) == msgspec.json.encode(value) == _stdlib_text(value)
    monkeypatch.setattr(signed, "_ENCODE", stdlib)
    for nan in (float("nan"), -float("nan"), float("inf") - float("inf")):
        assert dumps([None, nan]) == b"[null,NaN]"
