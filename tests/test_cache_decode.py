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
