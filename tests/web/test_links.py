"""Signed links (web/links.py): what a token grants is exactly what was signed, until it expires."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from web.links import Link, read, sign

KEY = b"k" * 32


def test_a_signed_link_reads_back_until_it_expires() -> None:
    link = Link(game_id=42, seat=1, expires=2_000, generation=3)
    token = sign(KEY, link)
    assert read(KEY, token, now=1_999) == link
    assert read(KEY, token, now=2_000) is None  # expired at its second
    assert read(b"other key" * 4, token, now=1_000) is None
    public = Link(game_id=42, seat=None, expires=2_000, generation=0)
    assert read(KEY, sign(KEY, public), now=1) == public


@given(st.integers(0, 2**40), st.one_of(st.none(), st.integers(0, 5)), st.integers(0, 2**16),
       st.data())
def test_any_change_to_a_token_is_refused(game_id: int, seat: int | None, generation: int, data: st.DataObject) -> None:
    """One character changed anywhere (a forged seat, game or expiry) never reads as a link."""
    token = sign(KEY, Link(game_id, seat, 10_000, generation))
    where = data.draw(st.integers(0, len(token) - 1))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    char = data.draw(st.sampled_from(alphabet).filter(lambda c: c != token[where]))
    forged = token[:where] + char + token[where + 1:]
    found = read(KEY, forged, now=0)
    # The last character carries 2 padding bits base64 ignores: a change there may decode to the same bytes.
    assert found is None or found == Link(game_id, seat, 10_000, generation)


def test_garbage_is_refused_without_an_error() -> None:
    for token in ("", "x", "%%%", "a" * 500, "é" * 10, sign(KEY, Link(1, 0, 10, 0)) + "AAAA"):
        assert read(KEY, token, now=0) is None
