"""The pinned text rules of SPEC §5: normalisation, identifier/phrase matching, sentences,
echo exclusion. Every expectation below is derived by hand from the SPEC wording."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import si_lint.evaluator.text as text_module
from si_lint.evaluator import EvaluationError
from si_lint.evaluator.text import (
    Reading,
    echo_filter,
    echo_test,
    normalize,
    sentence_spans,
    split_lines,
)


def positions(pattern, text):
    """Every delimited start of ``pattern`` in ``text`` (§3.1), overlaps included."""
    return list(text_module._matches(pattern, text))


def m(pattern, text):
    return bool(positions(normalize(pattern), normalize(text)))


# -- normalisation -----------------------------------------------------------------------


def test_normalize_is_casefold_of_nfc():
    assert normalize("SMTP_PORT") == "smtp_port"
    assert normalize("Cafe\u0301") == "caf\u00e9"  # NFD in, NFC out
    assert normalize("Stra\u00dfe") == "strasse"  # casefold, not lower()
    assert normalize("\u212b") == "\u00e5"  # Angstrom sign: NFC Å, casefold å


# -- identifier matching (§3.1) ----------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("SMTP_PORT_OLD and smtp_port", True),  # the first occurrence fails, the second holds
        ("SMTP_PORT_OLD", False),
        ("smtp_port", True),
        ("xSMTP_PORT", False),
        ("-SMTP_PORT", False),  # '-' is in the identifier class
        ("SMTP_PORT-2", False),
        ("(SMTP_PORT)", True),
        ("SMTP_PORT.", True),
        ("key=SMTP_PORT;", True),
        ("\u00e9SMTP_PORT", True),  # é is outside the ASCII class
        ("SMTP_PORT\u00df", False),  # ß casefolds to ss: 'SMTP_PORTss'
        ("SMTP_POR", False),
        ("", False),
    ],
)
def test_identifier_boundaries(text, expected):
    assert m("SMTP_PORT", text) is expected


def test_every_start_index_overlaps_included():
    # "x x" occurs at 0 and at 2 (overlapping); both are delimited
    assert positions("x x", "x x x") == [0, 2]
    # 'aa' in 'aaa' at 0 and 1, but neither is delimited
    assert positions("aa", "aaa") == []
    assert positions("smtp_port", "smtp_port_old and smtp_port") == [18]


def test_nfc_and_nfd_match_each_other():
    assert m("caf\u00e9", "the cafe\u0301 service")  # NFC pattern, NFD text
    assert m("cafe\u0301", "the caf\u00e9 service")  # NFD pattern, NFC text
    assert m("CAF\u00c9", "the cafe\u0301 service")  # and case-insensitive


def test_empty_pattern_is_an_error():
    with pytest.raises(EvaluationError):
        positions("", "anything")


# -- synonym phrases (§3.3) --------------------------------------------------------------


@pytest.mark.parametrize(
    "phrase, text, expected",
    [
        ("unset", "SMTP_PORT is unset", True),
        ("unset", "the matter is unsettled", False),  # whole tokens only
        ("lacks", "the map lacking the key", False),
        ("lacking", "the map lacking the key", True),
        ("not set", "SMTP_PORT NOT SET", True),
        ("not set", "not  set", False),  # two spaces: not the phrase
        ("not set", "not settled", False),
        ("doesn't exist", "it doesn't exist", True),
        ("doesn't exist", "it doesn\u2019t exist", False),  # typographic apostrophe
        ("missing", "MISSING", True),
    ],
)
def test_phrases_are_whole_tokens(phrase, text, expected):
    assert m(phrase, text) is expected


# -- sentences (§3.2) --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, sentences",
    [
        ("Pi is 3.14 today. SMTP_PORT is missing", ["Pi is 3.14 today.", " SMTP_PORT is missing"]),
        ("see e.g. SMTP_PORT", ["see e.g.", " SMTP_PORT"]),
        ("v1.2.3 is out", ["v1.2.3 is out"]),
        ("Why? Because! Done.", ["Why?", " Because!", " Done."]),
        ("a\nb", ["a", "b"]),
        ("a.\nb", ["a.", "b"]),
        ("a.\u00a0b", ["a.", "\u00a0b"]),  # NBSP is whitespace (str.isspace)
        ("a.\u2028b", ["a.", "\u2028b"]),  # so is LINE SEPARATOR, but...
        ("a\u2028b", ["a\u2028b"]),  # ...it is not a newline
        ("a\rb", ["a\rb"]),
        ("end.", ["end."]),
        ("", []),
    ],
)
def test_sentence_split(text, sentences):
    assert [text[a:b] for a, b in sentence_spans(text) if b > a] == sentences


def test_sentence_spans_cover_breaks():
    assert sentence_spans("a. b\nc") == [(0, 2), (2, 4), (5, 6)]


# -- echo exclusion (§2.1) ---------------------------------------------------------------


def test_split_lines_drops_exactly_one_cr_and_only_splits_on_lf():
    assert split_lines("a\r\nb\r\r\nc\u2028d\x0be") == ["a", "b\r", "c\u2028d\x0be"]


def test_echo_filter_verbatim_only():
    src = ["2026-11-29 relay: config: SMTP_PORT not set, defaulting to 25\n"]
    text = (
        "config: SMTP_PORT not set, defaulting to 25\n"  # a verbatim substring
        "config: SMTP_PORT not set, defaulting to 25.\n"  # near-verbatim: kept
        "Config: SMTP_PORT not set\r\n"  # case differs: kept
        "config: SMTP_PORT not set\r\n"  # one \r dropped: excluded
        "config: SMTP_PORT not set\r\r"
    )  # one \r left: kept
    assert echo_filter(text, src) == (
        "config: SMTP_PORT not set, defaulting to 25.\n"
        "Config: SMTP_PORT not set\n"
        "config: SMTP_PORT not set\r"
    )


def test_echo_lines_are_not_stripped():
    src = ["SMTP_PORT missing"]
    assert echo_filter("  SMTP_PORT missing", src) == "  SMTP_PORT missing"
    assert echo_filter("SMTP_PORT missing", src) == ""


def test_no_tool_responses_excludes_nothing():
    assert echo_filter("a\nb", []) == "a\nb"


def test_transcript_scope_is_normalised_after_filtering():
    t = Reading(
        {
            "events": [
                {"kind": "tool_call", "response": "Cafe\u0301 SMTP_PORT"},
                {
                    "kind": "agent_response",
                    "text": "Cafe\u0301 SMTP_PORT\nCafe\u0301 IS DOWN",
                    "final": True,
                },
            ]
        }
    )
    # the raw NFD line is a verbatim substring: removed before normalising
    assert t.scope("agent_response", True) == "caf\u00e9 is down"
    assert t.scope("agent_response", False) == "caf\u00e9 smtp_port\ncaf\u00e9 is down"


def test_echo_sources_are_each_response_separately():
    src = ["SMTP_HOST: a", "SMTP_PORT missing"]
    assert echo_test(src)("PORT miss") is True  # inside the second response
    assert echo_test(src)("a") is True
    assert echo_test(src)("aSMTP_PORT") is False  # would straddle the two responses
    assert echo_test(src)("a SMTP_PORT") is False


# -- echo exclusion's index answers as the plain substring test ----------------------------

_ECHO_ALPHABET = st.sampled_from(list("ab_-. \n\r!?ßSsK\u212a/"))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.text(_ECHO_ALPHABET, max_size=80), max_size=4),
    st.text(_ECHO_ALPHABET, max_size=80),
)
def test_the_echo_index_is_the_verbatim_substring_test(bodies, line):
    """With the index forced on short text (no direct search, 2-character slices every 3rd
    position), every candidate line gets the answer of ``any(line in body)``."""
    saved = text_module.DIRECT, text_module.GRAM, text_module.SAMPLE
    text_module.DIRECT, text_module.GRAM, text_module.SAMPLE = -1, 2, 3
    try:
        test = text_module.echo_test(bodies)
        cands = [line] + [
            b[i:j] for b in bodies for i in range(0, len(b), 7) for j in (i + 5, i + 31)
        ]
        for cand in cands:
            if "\n" not in cand:
                assert test(cand) == any(cand in b for b in bodies), (bodies, cand)
    finally:
        text_module.DIRECT, text_module.GRAM, text_module.SAMPLE = saved


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.text(_ECHO_ALPHABET, max_size=60),
    st.lists(st.text(_ECHO_ALPHABET, min_size=1, max_size=5), max_size=8),
)
def test_the_identifier_runs_answer_as_the_identifier_rule(raw, patterns):
    """Reading._at (through the scope's identifier runs) equals the delimited starts (positions)."""
    reading = Reading({"events": [{"kind": "agent_response", "text": raw, "final": True}]})
    text = reading.scope("agent_response", False)
    for p in (normalize(p) for p in patterns):
        if p:
            assert list(reading._at(p, "agent_response", False)) == positions(p, text)
            assert reading.occurs(p, "agent_response", False) == bool(positions(p, text))
