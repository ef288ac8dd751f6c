"""The blends ``kit_palette_draw`` keeps hold the palette they were made for (issue 28's review).

Why it matters: WoW Miniatures draws each map on a palette of its own (``palette.for_map``, an
``lru_cache`` of 16). A kept blend named its palette by ``id`` only, so once a map's palette left every
cache and was freed, a later palette given the same address would have found that blend, quantized for
another palette whose extra colours sit at other indexes. A key that holds the palette keeps its id from
being reused while the entry lives."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw

from renderers import kit, kit_palette, kit_palette_draw
from renderers.kit_palette import Palette

GROUND = (240, 236, 224)
OTHER = (60, 110, 170)  # the second ground colour: a text over both blends over several grounds
INK = (20, 20, 20)


def _palette() -> Palette:
    """A palette of its own, as ``for_map`` builds one per map (not any renderer's shared one)."""
    flats = [GROUND, OTHER, INK, (255, 255, 255)]
    return Palette(flats, kit_palette.text_blends(INK, [GROUND, OTHER], kit.COVERAGE_LEVELS))


def _text_mask(text: str) -> Image.Image:
    """An anti-aliased mask with levels between 0 and 255, as a text's is."""
    mask = Image.new("L", (90, 24))
    ImageDraw.Draw(mask).text((2, 2), text, fill=255, font=kit.font(16))
    assert len(mask.histogram()) == 256 and sum(1 for n in mask.histogram() if n) > 2
    return mask


def _uncached() -> None:
    """Forget every cache of ``kit_palette_draw`` that holds palettes as such, so only the kept blends
    can still hold one."""
    for cached in (kit_palette_draw._indexes, kit_palette_draw._quantized, kit_palette_draw._blend_table):
        cached.cache_clear()
    gc.collect()


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    kit_palette_draw._kept_blends.clear()
    kit_palette_draw._kept_grounds.clear()
    yield
    kit_palette_draw._kept_blends.clear()
    kit_palette_draw._kept_grounds.clear()
    _uncached()


def _draw_on(pal: Palette, masks: list[Image.Image]) -> Image.Image:
    picture = kit_palette_draw.blank((200, 60), GROUND, pal)
    draw = kit_palette_draw.Draw(picture, pal)
    draw.rectangle((0, 30, 199, 59), fill=OTHER)  # two grounds: a text across y=30 lies on both
    draw.bitmap((4, 4), masks[0], INK)  # on one ground: kept by its ground's index (_kept_grounds)
    draw.bitmap((4, 20), masks[0], INK)  # across both grounds: kept by the indexes under it (_kept_blends)
    chip = Image.new("L", masks[0].size, 255)  # a chip under a text: blits in turn (_kept_blends)
    draw.blits((100, 20), 24, ((chip, OTHER), (masks[0], INK)))
    assert draw.exact
    return picture


@pytest.mark.parametrize("cache", ["_kept_blends", "_kept_grounds"])
def test_a_kept_blend_keeps_its_palette_alive_so_no_later_palette_takes_its_id(cache: str) -> None:
    masks = [_text_mask("Gul'dan 3")]
    pal = _palette()
    _draw_on(pal, masks)
    assert len(getattr(kit_palette_draw, cache)) > 0
    alive = weakref.ref(pal)
    del pal
    _uncached()
    assert alive() is not None  # held by the kept entries' keys
    kit_palette_draw._kept_blends.clear()
    kit_palette_draw._kept_grounds.clear()
    gc.collect()
    assert alive() is None  # and by nothing else: the entries' budgets still bound what is held


def test_the_kept_blends_give_the_pixels_drawn_afresh_on_a_second_palette() -> None:
    masks = [_text_mask("Gul'dan 3")]
    first = _draw_on(_palette(), masks)
    afresh = _draw_on(_palette(), masks)  # another palette of the same colours: its own entries
    kit_palette_draw._kept_blends.clear()
    kit_palette_draw._kept_grounds.clear()
    assert afresh.tobytes() == first.tobytes() == _draw_on(_palette(), masks).tobytes()
