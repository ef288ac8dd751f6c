"""``kit_marks.Marks`` answers as the board-sized "1" picture it replaced (issue 28): the same pixels for any
region, whatever the two-level marks (partly off the board, overlapping, across bands, crowded), and never
fewer marked pixels for a mask with levels between."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from renderers import kit_marks

SIZE = (90, 140)  # five bands of 32 rows, the last one short

boxes = st.tuples(st.integers(-20, 100), st.integers(-20, 150), st.integers(1, 40), st.integers(1, 70)).map(
    lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3]))


@st.composite
def masks(draw: st.DrawFn, blended: bool = False) -> tuple[tuple[int, int, int, int], Image.Image]:
    box = draw(boxes)
    width, height = box[2] - box[0], box[3] - box[1]
    mode = draw(st.sampled_from(("1", "L")))
    levels = (0, 1, 90, 127, 128, 200, 255) if blended and mode == "L" else (0, 255)
    pixels = draw(st.lists(st.sampled_from(levels), min_size=width * height, max_size=width * height))
    mask = Image.new("L", (width, height))
    mask.putdata(pixels)
    return box, mask.convert("1") if mode == "1" else mask


def _pixels(core: object) -> bytes:
    return _WRAPPER._new(core).tobytes()


_WRAPPER = Image.new("1", (1, 1))


@settings(max_examples=120, deadline=None)
@given(st.lists(masks(), max_size=8), st.lists(boxes, min_size=1, max_size=6), st.sampled_from((2, 8)))
def test_marks_answer_as_the_board_sized_picture(marked: list[tuple[tuple[int, int, int, int], Image.Image]],
                                                 regions: list[tuple[int, int, int, int]], crowded: int) -> None:
    """With a band's marks pasted into one after 2 of them, and after 8 (the product's)."""
    dense = Image.new("1", SIZE)
    sparse = kit_marks.Marks(SIZE)
    kept = kit_marks.CROWDED
    kit_marks.CROWDED = crowded
    try:
        for box, mask in marked:
            dense.im.paste(1, box, mask.im)
            sparse.add(box, mask.im)
    finally:
        kit_marks.CROWDED = kept
    assert sparse.whole().tobytes() == dense.tobytes()
    for region in regions:
        expected = dense.im.crop(region)
        found = sparse.crop(region)
        if found is None:
            assert expected.getbbox() is None, region
        else:
            assert _pixels(found) == _pixels(expected), region
        assert sparse.any_in(region) == (expected.getbbox() is not None), region


def test_a_region_no_mark_reaches_is_answered_without_a_picture() -> None:
    sparse = kit_marks.Marks(SIZE)
    sparse.add((10, 40, 20, 50), Image.new("1", (10, 10), 1).im)
    assert sparse.crop((0, 0, 90, 39)) is None  # band 0 and band 1 above the mark
    assert sparse.crop((21, 40, 60, 50)) is None  # its band, beside it
    assert sparse.any_in((19, 49, 30, 60))
    assert list(sparse.bands) == [1]


def test_a_mark_across_bands_is_listed_in_each_and_cut_to_the_board() -> None:
    sparse = kit_marks.Marks(SIZE)
    sparse.add((80, 20, 100, 70), Image.new("1", (20, 50), 1).im)  # 10 columns off the board, over three bands
    assert {band: [mark[:4] for mark in marks] for band, marks in sparse.bands.items()} == {
        0: [(80, 20, 90, 70)], 1: [(80, 20, 90, 70)], 2: [(80, 20, 90, 70)]}
    assert sparse.bands[0][0][4].size == (10, 50)
    assert sparse.crop((80, 0, 90, 140)) is not None and sparse.whole().getbbox() == (80, 20, 90, 70)
    sparse.add((-5, 200, 5, 210), Image.new("1", (10, 10), 1).im)  # wholly below the board: nothing kept
    assert len(sparse.bands) == 3


@settings(max_examples=60, deadline=None)
@given(st.lists(masks(blended=True), max_size=6))
def test_a_mask_with_levels_between_marks_no_fewer_pixels(marked: list[tuple[tuple[int, int, int, int], Image.Image]]
                                                        ) -> None:
    dense = Image.new("1", SIZE)
    sparse = kit_marks.Marks(SIZE)
    for box, mask in marked:
        dense.im.paste(1, box, mask.im)
        sparse.add(box, mask.im)
    missed = ImageChops.subtract(dense.convert("L"), sparse.whole().convert("L"))
    assert missed.getbbox() is None


def test_a_crowded_band_is_one_mark_of_its_whole_width() -> None:
    sparse = kit_marks.Marks(SIZE)
    for k in range(kit_marks.CROWDED + 1):
        sparse.add((k, 33, k + 2, 35), Image.new("1", (2, 2), 1).im)
    assert [mark[:4] for mark in sparse.bands[1]] == [(0, 32, 90, 64)]
    assert sparse.any_in((kit_marks.CROWDED, 33, 90, 35)) and not sparse.any_in((kit_marks.CROWDED + 2, 32, 90, 64))
    assert sparse.whole().getbbox() == (0, 33, kit_marks.CROWDED + 2, 35)
