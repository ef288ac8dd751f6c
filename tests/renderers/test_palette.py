"""The fixed palette (renderers/kit_palette.py, renderers/krosmaster/palette.py).

A snapshot is quantized against a palette built once per arena instead of one chosen per
picture, so these tests prove what that relies on: every colour the kit and the
Krosmaster renderer name comes back exact; the pictures players see differ from what was
drawn by far less than the golden tolerance; and Pillow's colour cache cannot silently
turn one palette entry into another.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from renderers import kit, kit_board, kit_palette, kit_panel
from renderers import krosmaster as km
from renderers.kit_palette import Palette
from renderers.krosmaster import board, glyphs, layout, palette, panel, preview
from tests.renderers import golden
from tests.renderers.states import midgame, play
from tests.renderers.test_readability import PICTURES

ARENA_JSON = midgame().board.arena.model_dump_json()


def _arena_palette() -> Palette:
    return palette.for_arena(ARENA_JSON)


def test_every_named_colour_comes_back_exact() -> None:
    """Draw a swatch of every module-level colour of the kit and the Krosmaster renderer,
    quantize, and read each swatch back: zero error, whatever colour sits next to it."""
    colours = kit_palette.constants(kit, kit_board, kit_panel, glyphs, layout, panel, board, preview)
    assert kit.INK in colours and glyphs.KAMA_RIM in colours and preview.REACH_SWATCH in colours
    image = Image.new("RGB", (4 * len(colours), 4), kit.BACKGROUND)
    draw = kit.Draw(image)
    for i, colour in enumerate(colours):
        draw.rectangle((4 * i, 0, 4 * i + 3, 3), fill=colour)
    back = _arena_palette().quantize(image).convert("RGB")
    assert ImageChops.difference(back, image).getbbox() is None
    assert _arena_palette().flat_dropped == []


def test_every_text_and_tint_blend_declared_is_in_the_palette_or_within_a_few_levels() -> None:
    """Blends that land in the same 4x4x4 cell of Pillow's colour cache as an earlier entry
    share it; the cost is a few levels on an anti-aliased edge, never a wrong colour."""
    pal = _arena_palette()
    _flats, blends = palette.declared()
    shared = [colour for colour in dict.fromkeys(blends) if colour not in pal]
    assert len(shared) < 30
    for colour, back in zip(shared, _roundtrip(pal, shared), strict=True):
        assert max(abs(a - b) for a, b in zip(colour, back, strict=True)) <= 8, (colour, back)


def test_the_palette_leaves_room_for_a_content_packs_arena() -> None:
    """An arena from a server's pack may add colours of its own (its static layer's)."""
    assert len(_arena_palette()) <= kit_palette.MAX_COLOURS - 32


def _pictures() -> dict[str, Callable[[], Image.Image]]:
    pictures = dict(PICTURES)
    for i, state in enumerate(play(90, seed=3)[::15]):
        pictures[f"engine_game_{i}"] = lambda s=state: km.render_image(s, lang="it")
    return pictures


@pytest.mark.parametrize("name", sorted(_pictures()))
def test_quantizing_a_snapshot_changes_next_to_nothing(name: str) -> None:
    """What players receive against what was drawn: the golden tolerance is a mean of 0.75
    and a worst 16 px tile of 10; quantizing costs < 0.05 and <= 2 (a few edge pixels)."""
    drawn = _pictures()[name]()
    sent = Image.open(io.BytesIO(kit.to_png(drawn, palette=_arena_palette()))).convert("RGB")
    mean, worst_tile, _where = golden.difference(sent, drawn)
    worst_pixel = max(high for _low, high in ImageChops.difference(sent, drawn).getextrema())  # type: ignore[misc]
    assert mean < 0.05 and worst_tile <= 2 and worst_pixel <= 16, (mean, worst_tile, worst_pixel)


def test_render_uses_the_arena_palette_and_stays_deterministic() -> None:
    png = km.render(midgame())
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and len(image.getpalette() or []) // 3 == len(_arena_palette())
    assert km.render(midgame()) == png


def test_text_edges_use_only_the_posterized_coverage_levels() -> None:
    """Text is anti-aliased with ``kit.TEXT_LEVELS`` levels, so its edge colours are known blends."""
    _left, _top, fill, stroke = kit._glyph_masks("Ember Witch 5/8", layout.TEXT, 2, "la")
    assert stroke is not None
    for mask in (fill, stroke):
        used = {level for level, count in enumerate(mask.histogram()) if count}
        assert used <= set(kit.COVERAGE_LEVELS) and len(used) > 2


# -- kit_palette.Palette ------------------------------------------------------------------


def _roundtrip(pal: Palette, colours: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    back = pal.quantize(image).convert("RGB")
    return [back.getpixel((x, 0)) for x in range(len(colours))]  # type: ignore[misc]


def test_pillow_maps_a_whole_cell_to_one_entry_so_the_palette_keeps_the_first() -> None:
    """(213, 94, 0) and (212, 92, 0) share a 4x4x4 cell: Pillow would give both the same
    index, so the second is dropped instead of silently becoming the first."""
    pal = Palette([(213, 94, 0)], [(212, 92, 0), (0, 114, 178)])
    assert pal.colours == [(213, 94, 0), (0, 114, 178)] and pal.dropped == [(212, 92, 0)]
    assert _roundtrip(pal, pal.colours) == pal.colours


def test_an_entry_nearer_another_entrys_cell_corner_is_dropped() -> None:
    """(7, 7, 7) sits at distance 27 from its cell's corner (4, 4, 4); (4, 4, 5) would be
    nearer that corner (distance 1) and steal its pixels, so it is refused."""
    pal = Palette([(7, 7, 7)], [(4, 4, 5)])
    assert pal.dropped == [(4, 4, 5)] and _roundtrip(pal, [(7, 7, 7)]) == [(7, 7, 7)]


def test_a_flat_colour_that_cannot_be_exact_is_reported() -> None:
    pal = Palette([(213, 94, 0), (212, 92, 0)])
    assert pal.flat_dropped == [(212, 92, 0)]


def test_blends_are_what_pillow_draws() -> None:
    ground, ink = glyphs.GROUND_A, kit.INK_DARK
    image = Image.new("RGB", (1, 1), ground)
    kit.Draw(image, "RGBA").bitmap((0, 0), Image.new("L", (1, 1), 85), fill=ink)
    assert kit_palette.text_blends(ink, [ground], [85]) == [image.getpixel((0, 0))]
    image = Image.new("RGB", (1, 1), ground)
    kit.Draw(image, "RGBA").rectangle((0, 0, 0, 0), fill=kit.rgba(kit.REACH, kit.REACH_ALPHA))
    assert kit_palette.tints(kit.REACH, kit.REACH_ALPHA, [ground]) == [image.getpixel((0, 0))]


def test_an_arena_with_colours_of_its_own_extends_the_shared_palette() -> None:
    """A server's arena may draw a colour no list names: it is added after the shared
    entries (which keep their places), and comes back exact."""
    shared = palette.shared()
    odd = (12, 200, 77)
    grown = shared.extended([odd, kit.INK])
    assert grown.colours[:len(shared)] == shared.colours and grown.colours[-1] == odd
    assert _roundtrip(grown, [odd, kit.INK]) == [odd, kit.INK]
    assert shared.extended([kit.INK]) is shared and odd not in shared
