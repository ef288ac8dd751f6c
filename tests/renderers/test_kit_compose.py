"""``kit_compose`` puts a text's masks and box together from its glyphs' cached ones (issue 28): the very pixels
and box FreeType gives for the whole text, for every anchor, stroke and size the kit draws."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import kit, kit_compose, kit_masks
from tests.renderers.masks import assert_same_masks

_LETTERS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ·:;,.'!?★⚄àèéìòùÈ-—()→÷«»’…/+×%"
            "fffiiilllxKYVAkj")  # f, i and l again (ligatures), and the letters whose right edge hides in the advance
PROBE = "".join(chr(c) for c in range(0x20, 0x7F)) + "àèéìíòóùúÀÈÉÌÒÙçÇñÑüÜöÖäÄß’‘“”«»–—…·×÷→←↑↓★⚄"
"""The letters the games' own words are made of."""
_ANCHORS = ("la", "lt", "lm", "ls", "ld", "lb", "ma", "mt", "mm", "ms", "md", "mb", "ra", "rt", "rm", "rs", "rd", "rb")


def _composed(size: int, text: str, stroke: int, anchor: str, fill: bool = True) -> kit_masks.Masks:
    found = kit_compose.masks(kit.font(size), text, stroke, anchor, fill=fill)
    assert found is not None, f"{text!r} was not put together"
    left, top, fill_core, stroke_core = found
    as_image = kit_masks._BLANK._new
    return left, top, as_image(fill_core), None if stroke_core is None else as_image(stroke_core)


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=_LETTERS, min_size=1, max_size=36).filter(lambda t: t.strip()), size=st.integers(9, 48),
       stroke=st.sampled_from((0, 0, 1, 2, 3, 4)), anchor=st.sampled_from(_ANCHORS), fill=st.booleans())
def test_a_text_put_together_is_freetypes_text(text: str, size: int, stroke: int, anchor: str, fill: bool) -> None:
    fill = fill or not stroke
    expected = kit_masks.rasterised(kit.font(size), text, stroke, anchor, fill=fill)
    assert_same_masks(_composed(size, text, stroke, anchor, fill), expected)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=_LETTERS, min_size=1, max_size=36), size=st.integers(9, 48),
       stroke=st.sampled_from((0, 1, 2, 3)), anchor=st.sampled_from(_ANCHORS))
def test_a_box_put_together_is_freetypes_box(text: str, size: int, stroke: int, anchor: str) -> None:
    found = kit_compose.box(kit.font(size), text, anchor, stroke)
    if text.strip():  # a text of spaces has no height: FreeType measures it
        assert found is not None
    if found is not None:
        assert found == kit.font(size).getbbox(text, anchor=anchor, stroke_width=stroke)


@pytest.mark.parametrize("size", [11, 16])
def test_every_pair_of_the_games_letters_is_its_two_glyphs_or_a_ligature_named(size: int) -> None:
    """A ligature the font has and ``LIGATURES`` does not name would draw two glyphs where FreeType draws one;
    a kerning not read as the shaper applies it would move the second. Every pair of the probe letters is drawn both
    ways (the kit's bold, whose stroke shows a one-pixel shift as well)."""
    face = kit.font(size)
    wrong = []
    for first, second in itertools.product(PROBE, repeat=2):
        text = first + second
        if not text.strip():
            continue
        found = kit_compose.masks(face, text, 1, "ls", fill=False)
        expected = kit_masks.rasterised(face, text, 1, "ls", fill=False)
        if found is None or found[:2] != expected[:2] or bytes(found[3]) != expected[3].tobytes():
            wrong.append(text)
    assert wrong == []


def test_the_ligatures_named_are_the_fonts() -> None:
    """Each ligature ``LIGATURES`` names is one glyph the font draws otherwise than its letters side by side
    (the test above fails on a ligature it leaves out); taken as one, it is FreeType's."""
    face = kit.font(20)
    for ligature in ("fi", "fl", "ff", "ffi", "ffl"):
        assert kit_compose.LIGATURES.findall(ligature) == [ligature]
        joined = face.getmask2(ligature, "L", anchor="ls", ink=255)[0]
        apart = face.getmask2(ligature, "L", anchor="ls", ink=255, features=["-liga"])[0]
        assert bytes(joined) != bytes(apart)
        assert_same_masks(_composed(20, ligature, 0, "ls"), kit_masks.rasterised(face, ligature, 0, "ls"))


def test_a_right_edge_hidden_by_the_advance_is_measured_by_freetype() -> None:
    """A glyph whose right edge lies within its own advance ("x": its last ink column is blank) leaves the box in
    doubt at the end of a text; FreeType measures that box, and the masks are still put together."""
    doubtful = [(size, text) for size in range(9, 49) for text in ("x", "·Y", "e(ìy÷x", "!…qQzN!z«Z9g%JmkbéUUNiZmuY")
                if (layout := kit_compose.face(kit.font(size)).layout(text)) is not None and layout.right is None]
    assert doubtful, "no text left its box in doubt: the test no longer reaches that path"
    for size, text in doubtful:
        assert kit_compose.box(kit.font(size), text, "la") == kit.font(size).getbbox(text)
        assert_same_masks(_composed(size, text, 2, "mm"), kit_masks.rasterised(kit.font(size), text, 2, "mm"))


@pytest.mark.parametrize("text", ["Ελένη", "Дима", "שלום", "مرحبا", "e\u0301", "a\u200db", "a\tb", ""])
def test_a_text_that_could_shape_otherwise_is_left_to_freetype(text: str) -> None:
    assert kit_compose.masks(kit.font(14), text, 0, "la") is None
    assert kit_compose.box(kit.font(14), text) is None
    if text:
        face = kit.font(14)
        assert_same_masks(kit_masks.masks(face, text, 0, "la"), kit_masks.rasterised(face, text, 0, "la"))


def test_another_font_is_left_to_freetype() -> None:
    from PIL import ImageFont

    other = ImageFont.truetype(str(kit_masks.FONT_FILE), size=14, layout_engine=ImageFont.Layout.BASIC)
    assert kit_compose.face(other) is None and kit_compose.masks(other, "Turn 3", 0, "la") is None


def test_a_faces_caches_start_again_past_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names typed by players in any script must not grow a long-lived worker's memory."""
    monkeypatch.setattr(kit_compose, "FACE_ENTRIES", 50)
    face = kit_compose.Face(kit.font(15))
    for code in range(0x100, 0x17F):  # Latin Extended-A, beyond the probe letters
        face.layout(chr(code) + "a" + chr(code))
        assert len(face._glyphs) <= 50 and len(face._inks) <= 50 and len(face._kerns) <= 50
    assert kit_compose.box(face.font, "Ŧa") == face.font.getbbox("Ŧa")


def test_forgotten_layouts_are_placed_again_the_same_way() -> None:
    """``bench/text.py`` times new labels by forgetting the layouts; the glyphs stay, the layout is the same."""
    face = kit_compose.face(kit.font(kit.Scale(1200).min_text))
    kept = face.layout("Forgotten layouts")
    assert face.layout("Forgotten layouts") is kept
    face.forget_layouts()
    again = face.layout("Forgotten layouts")
    assert again is not kept and again == kept
