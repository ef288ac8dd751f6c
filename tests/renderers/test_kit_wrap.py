"""``kit.wrap`` measures a line in FreeType only where its words' advances leave the answer in doubt (issue
28): the lines are those of measuring every prefix, for any words, sizes, strokes and widths."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import kit

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789·:;,.'!?★⚄àèéìòùÈ-—()→÷jfgyQ\"/«»%+…TVWAYL"


def measured_wrap(text: str, size: int, max_width: int, stroke: int = 0) -> list[str]:
    """``kit.wrap`` as it was: every longer prefix of a line measured."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and kit.text_width(candidate, size, stroke) > max_width:
            lines.append(current)
            candidate = word
        current = candidate
    if current or not lines:
        lines.append(current)
    return [kit.fit(line, size, max_width, stroke) for line in lines]


@settings(max_examples=400, deadline=None)
@given(words=st.lists(st.text(alphabet=_LETTERS, min_size=1, max_size=12), max_size=14),
       size=st.integers(9, 48), stroke=st.sampled_from((0, 0, 1, 2, 3, 4)), max_width=st.integers(20, 700))
def test_wrap_gives_the_measured_lines(words: list[str], size: int, stroke: int, max_width: int) -> None:
    text = " ".join(words)
    assert kit.wrap(text, size, max_width, stroke) == measured_wrap(text, size, max_width, stroke)


def test_wrap_decides_most_breaks_without_measuring() -> None:
    """What the change is for: a long log line is measured a few times, not once per word."""
    kit.text_width.cache_clear()
    line = "alice's Warlord Thane Brannoc Ironvow strikes bob's Horde Grunt for 3 damage and it falls out of play"
    lines = kit.wrap(line, 27, 420)
    assert len(lines) > 1
    assert kit.text_width.cache_info().misses <= 2 * len(lines) + len(lines)  # ≤ 2 per break, 1 per fit
