"""``kit.Draw.polygon`` draws a wide outline on the polygon's own box (``kit_polygon``, issue 28): the pixels of
Pillow's ``ImageDraw.polygon``, which masks it with a picture-sized copy of the fill, on RGB and palette
pictures, with and without a fill, whatever the polygon."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from renderers import kit, kit_palette_draw
from renderers.wowminis import palette

SIZE = (90, 70)
_points = st.lists(st.tuples(st.integers(-5, SIZE[0] + 4), st.integers(-5, SIZE[1] + 4)), min_size=3, max_size=7)


@settings(max_examples=300, deadline=None)
@given(points=_points, width=st.integers(1, 6), filled=st.booleans(), mode=st.sampled_from(("RGB", "P", "L")))
def test_wide_outlines_are_pillows(points: list[tuple[int, int]], width: int, filled: bool, mode: str) -> None:
    fill = kit.OKABE_ITO["blue"] if filled else None
    outline = kit.INK_DARK
    if mode == "L":
        fill, outline = (90 if filled else None), 200
    pictures = []
    for drawer in (kit.Draw, ImageDraw.Draw):
        image = Image.new(mode, SIZE, 0)
        if mode == "P":
            image.putpalette([v for colour in palette.shared().colours for v in colour])
            held = {colour: index for index, colour in enumerate(palette.shared().colours)}
            ink, ground = held[outline], held[kit.OKABE_ITO["blue"]] if filled else None
            drawer(image).polygon(points, fill=ground, outline=ink, width=width)
        else:
            drawer(image).polygon(points, fill=fill, outline=outline, width=width)
        pictures.append(image.tobytes())
    assert pictures[0] == pictures[1]


def test_a_palette_picture_gets_its_colours_indexes() -> None:
    """On a palette picture the colours are looked up (``kit_palette_draw.Draw``), then drawn on the box."""
    pal = palette.shared()
    hexagon = [(10, 30), (25, 5), (55, 5), (70, 30), (55, 55), (25, 55)]
    ours = kit_palette_draw.blank(SIZE, kit.BACKGROUND, pal)
    kit_palette_draw.Draw(ours, pal).polygon(hexagon, fill=kit.OKABE_ITO["blue"], outline=kit.INK_DARK, width=3)
    reference = Image.new("RGB", SIZE, kit.BACKGROUND)
    ImageDraw.Draw(reference).polygon(hexagon, fill=kit.OKABE_ITO["blue"], outline=kit.INK_DARK, width=3)
    assert ours.convert("RGB").tobytes() == reference.tobytes()
