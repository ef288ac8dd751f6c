"""A kept blend of several masks must keep every mask its key names alive.

Found by CI after the glyph cache became bounded by bytes: the blend of a text's (stroke, fill) was kept
with only the stroke alive; the fill, let go by the caches, could hand its id to a new mask, the key would
match, and the old text's pixels were pasted (a Mage Knight title that differed from its golden picture
only after hundreds of other tests had churned the caches)."""

from __future__ import annotations

import gc
import weakref

from PIL import Image, ImageDraw

from renderers import kit, kit_palette_draw
from renderers.mageknight import palette

SIZE = (30, 12)


def _mask(seed: int) -> Image.Image:
    """An anti-aliased looking mask (levels 0, 85, 170, 255) that differs with ``seed``."""
    mask = Image.new("L", SIZE, 0)
    draw = ImageDraw.Draw(mask)
    for i in range(4):
        x = (seed * 7 + i * 5) % (SIZE[0] - 4)
        draw.rectangle((x, 2 + i, x + 3, 6 + i), fill=(85, 170, 255, 170)[i])
    return mask


def _picture(pal: object, masks: tuple[tuple[Image.Image, object], ...]) -> bytes:
    image = Image.new("RGB", (SIZE[0] + 8, SIZE[1] + 8), kit.BACKGROUND)
    picture = pal.quantize(image)  # type: ignore[attr-defined]
    draw = kit_palette_draw.Draw(picture, pal)  # type: ignore[arg-type]
    draw.blits((2, 2), SIZE[1], masks)
    return picture.tobytes()


def test_a_kept_blend_keeps_alive_every_mask_its_key_names() -> None:
    pal = palette.palette()
    stroke, rim, ink = _mask(1), kit.INK_DARK, kit.INK  # a text's stroke first, then its fill
    fill = _mask(2)
    kit_palette_draw._kept_blends.clear()  # a full cache (earlier tests' pictures) would evict one to keep this one
    kept_before = len(kit_palette_draw._kept_blends)
    first = _picture(pal, ((stroke, rim), (fill, ink)))  # kept: the blend of (stroke, fill) over this ground
    assert len(kit_palette_draw._kept_blends) == kept_before + 1
    for other in (kit_palette_draw._kept_levels, kit_palette_draw._kept_parts, kit_palette_draw._kept_unions):
        other.clear()  # the caches that also held the fill let it go, as they do in a busy worker
    alive = weakref.ref(fill)
    del fill  # and so does the glyph cache: only the kept blend's key still names it
    gc.collect()
    assert alive() is not None, "a kept blend's key names a mask nothing holds: a new mask may take its id"
    assert _picture(pal, ((stroke, rim), (alive(), ink))) == first  # found again, and the same pixels


def test_a_masks_remembered_levels_do_not_keep_it_alive() -> None:
    """Issue 28: the levels of a mask are remembered by its id, and a mask the caches let go must be freed:
    held here, up to 4,096 masks stayed alive past their own caches (7-9 MB of a render worker)."""
    mask = _mask(5)
    assert kit_palette_draw._levels(mask) == (85, 170, 255)
    alive = weakref.ref(mask)
    del mask
    gc.collect()
    assert alive() is None
    another = Image.new("L", SIZE, 0)  # may take the freed id: its own levels, never the stale entry's
    ImageDraw.Draw(another).rectangle((3, 3, 9, 9), fill=255)
    assert kit_palette_draw._levels(another) == (255,)
