"""The shared kit the next games will copy: scale, wrapping, flows, recording, colour maths."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from renderers import kit, kit_panel
from renderers.kit_colour import delta_e, delta_e_lab, simulate, worst_delta


def _draw() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("RGB", (400, 300)))


def test_scale_converts_preview_pixels() -> None:
    scale = kit.Scale(1000)
    assert scale(11) == 22 and scale.min_text == 22 and scale.preview(22) == 11
    assert kit.Scale(1200).min_text == 27  # 26.4 rounded up: never below 11 px at 500 px


def test_wrap_keeps_every_word() -> None:
    text = "The opponent lost its last GG to tension"
    lines = kit.wrap(text, 22, 180)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(kit.text_width(line, 22) <= 180 for line in lines)
    assert kit.wrap("short", 22, 180) == ["short"] and kit.wrap("", 22, 180) == [""]
    assert kit.wrap("Supercalifragilistic", 22, 60)[0].endswith("…")  # only a word wider than the line


def test_fits_and_flow_never_overlap() -> None:
    assert kit_panel.fits([30, 30, 30], 0, 70, 5) == 2
    widths = [40, 60, 50, 80, 30]
    places, extra = kit_panel.flow(widths, [(100, 200, 0)], lambda n: (10, 200, 30 * (n + 1)), 5)
    boxes = [(x, y, x + w, y + 20) for (x, y), w in zip(places, widths, strict=True)]
    assert all(b[2] <= 200 for b in boxes) and extra >= 1
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] == b[1] for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert places[0] == (100, 0)  # the given span first
    wide, lines = kit_panel.flow([500], [], lambda n: (0, 100, n * 30), 5)
    assert wide == [(0, 0)] and lines == 1  # wider than a line: alone on a new line, never on text


def test_flow_groups_keep_a_card_with_its_statuses() -> None:
    layout, lines = kit_panel.flow_groups([[50, 30], [50, 30], [50, 30, 60, 60]], 0, 200, 4, 10)
    assert [line for _x, line in layout[0]] == [0, 0] and [line for _x, line in layout[1]] == [0, 0]
    assert layout[2][0][1] == 1  # the wide group starts a fresh line
    assert lines == 3  # it wrapped: its last status alone, nothing after it on that line


def test_banner_measures_what_it_draws() -> None:
    args = ("Bob wins!", ["The opponent lost its last GG to tension"], kit.TEAM_COLOURS[1], 28, 22)
    measured = kit_panel.banner(_draw(), 0, 0, 200, *args, measure=True)
    with kit.recording() as marks:
        drawn = kit_panel.banner(_draw(), 0, 0, 200, *args)
    assert measured == drawn and max(m.box[3] for m in marks) <= drawn
    assert " ".join(m.text for m in marks[1:]) == "The opponent lost its last GG to tension"


def test_recording_is_off_outside_its_context() -> None:
    with kit.recording() as marks:
        kit.draw_text(_draw(), (10, 10), "A", 22)
        with kit.region("panel"):
            kit_panel.draw_chip(_draw(), 0, 0, kit_panel.Chip("+1 AP", kit.HP_LEFT), 22)
    kit.draw_text(_draw(), (10, 10), "B", 22)
    assert [(m.kind, m.text, m.region) for m in marks] == [("text", "A", ""), ("text", "+1 AP", "panel"),
                                                           ("chip", "+1 AP", "panel")]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),  # Sharma, Wu & Dalal (2005), pair 1
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),  # pair 7
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),  # pair 17
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),  # pair 25
])
def test_ciede2000_matches_published_test_data(lab1: tuple[float, float, float], lab2: tuple[float, float, float],
                                               expected: float) -> None:
    assert delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_colour_vision_simulation() -> None:
    assert delta_e((255, 255, 255), (0, 0, 0)) == pytest.approx(100, abs=0.01)
    grey = (128, 128, 128)
    assert all(max(abs(a - b) for a, b in zip(simulate(grey, v), grey, strict=True)) <= 2
               for v in ("protan", "deutan", "tritan"))
    red, green = (213, 94, 0), (0, 158, 115)  # vermillion and bluish green: apart for everyone...
    assert worst_delta(red, green)[0] > 15
    pure_red, pure_green = (200, 60, 40), (90, 140, 40)  # ...unlike a plain red and green for a deuteranope
    assert delta_e(simulate(pure_red, "deutan"), simulate(pure_green, "deutan")) < delta_e(pure_red, pure_green) / 2


# -- kit.Draw ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_kit_draw_rounded_rectangles_are_pillows_pixel_for_pixel(mode: str) -> None:
    """kit.Draw blits cached masks instead of Pillow's slices: same pixels, every size and radius
    the renderers use (pills, HP strips, chips), with and without fill or outline."""
    from PIL import Image, ImageChops, ImageDraw

    cases = [(w, h, r, width, fill, outline) for w in (0, 1, 5, 14, 37, 60, 159) for h in (0, 3, 10, 26, 49)
             for r in (0, 2, 5, 13, 30) for width, fill, outline in ((1, kit.PANEL, None), (2, kit.INK, kit.INK_DARK),
                                                                     (3, None, kit.HIGHLIGHT), (0, kit.MUTED, None))]
    ours, pillows = Image.new("RGB", (200, 60)), Image.new("RGB", (200, 60))
    for w, h, r, width, fill, outline in cases:
        for image in (ours, pillows):
            image.paste(kit.BACKGROUND, (0, 0, 200, 60))
        kit.Draw(ours, mode).rounded_rectangle((7, 3, 7 + w, 3 + h), radius=r, fill=fill, outline=outline, width=width)
        ImageDraw.Draw(pillows, mode).rounded_rectangle((7, 3, 7 + w, 3 + h), radius=r, fill=fill, outline=outline,
                                                        width=width)
        assert ImageChops.difference(ours, pillows).getbbox() is None, (w, h, r, width, fill, outline)


_POINT = st.tuples(st.integers(-6, 70), st.integers(-6, 70))


@settings(max_examples=150, deadline=None)
@given(points=st.lists(_POINT, min_size=3, max_size=8), width=st.integers(1, 5),
       mode=st.sampled_from(("RGB", "L", "P")), filled=st.booleans(), floats=st.booleans())
def test_kit_draw_outlined_polygons_are_pillows_pixel_for_pixel(points: list[tuple[int, int]], width: int, mode: str,
                                                                 filled: bool, floats: bool) -> None:
    """An outline wider than 1 px is drawn in the polygon's box only (a hex map drew a mask of the whole picture
    per hex): the pixels are Pillow's, near the picture's edge (Pillow's way) and with points given as floats."""
    xy: list[tuple[float, float]] = [(x + 0.4, y) for x, y in points] if floats else list(points)
    colours = {"RGB": ((200, 30, 40), (10, 120, 200)), "L": (90, 200), "P": (5, 9)}[mode]
    ours = Image.new(mode, (64, 64), {"RGB": (250, 250, 240), "L": 17, "P": 2}[mode])
    pillows = ours.copy()
    fill = colours[0] if filled else None
    kit.Draw(ours).polygon(xy, fill=fill, outline=colours[1], width=width)
    ImageDraw.Draw(pillows).polygon(xy, fill=fill, outline=colours[1], width=width)
    assert ours.tobytes() == pillows.tobytes()


def test_a_hex_outline_is_drawn_in_its_box() -> None:
    """The map's hexes (whole pixels, well inside the picture) take the box's way, not Pillow's."""
    hex_points = [(130, 200), (115, 226), (85, 226), (70, 200), (85, 174), (115, 174)]
    assert kit._polygon_box(hex_points, 2, (1200, 1800)) == (68, 172, 133, 229)
    assert kit._polygon_box([(0, 0), (10, 0), (5, 5)], 2, (1200, 1800)) is None  # at the edge: Pillow's way
