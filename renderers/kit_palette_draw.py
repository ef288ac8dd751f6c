"""Pictures drawn straight on their palette: no RGB canvas, no quantizing afterwards (issue 28).

Why: a board picture is encoded on a fixed palette (``kit_palette``), so it was drawn in RGB and then
quantized pixel by pixel (~1 ns a pixel: 1.6 ms for a 1200 x 1400 Warlord table, as much as the rest
of its drawing), on a canvas four times the size of the palette picture. Every shape a renderer draws
is one flat colour of the palette, so drawn on the palette picture it is that colour's index; text is
the only blend, and a text over a known ground (``kit_ink``) is cut into flat fills whose colours are
known before they are pasted (``Draw.fills``). So a picture can be drawn on the palette picture itself.

Why the pixels are the same: what is kept true is that each index is the quantized colour (``Palette.quantize``)
of the pixel the RGB canvas would hold. A flat colour of the palette is its own index (a fill of a text
cut by colour too); a text blitted over one colour (``bitmap``: the colour found under it) is drawn
the kit's way on a swatch of that colour and quantized, away from the canvas; over several, each level
is looked up per index of the ground (``_blend_table``). Either is right where the ground's RGB colour
is a palette colour. The one place it is not: a pixel earlier given a
colour the palette does not hold exactly (a text edge whose blend was dropped), which ``dirty`` marks;
a blend over such a pixel, or a flat colour the palette lacks, makes the drawing ``exact = False`` and
the caller draws that picture the RGB way (``kit.to_png``). Tests draw the games' pictures both ways.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops

from renderers import kit, kit_bytes, kit_marks, kit_masks, kit_png
from renderers.kit import RGB
from renderers.kit_palette import Palette

_NONZERO = [255 if v else 0 for v in range(256)]
_KEPT = 4096
"""Masks whose levels are remembered (by identity, kept alive with them)."""


class _Kept(kit_bytes.Budget):
    """Pictures remembered by what they are made of, the oldest kept let go whenever they would pass
    ``budget`` heap bytes (``kit_bytes``: Pillow's and Python's overhead is most of a small mask's): a render
    worker keeps a few MB of them, whatever it draws. Read with ``get`` (no lock, no reordering).

    A key names a mask by its id (the entry holds the mask, or checks it is the same one) and a palette by
    the palette itself: WoW Miniatures' map palettes leave their ``lru_cache`` after 16 maps, and a key
    holding only the id of a freed palette could match a later palette given the same address, whose
    extra colours sit at other indexes."""

    def keep(self, key: Any, value: Any, *pictures: Image.Image | None) -> Any:  # type: ignore[override]
        size = kit_bytes.ENTRY + kit_bytes.held_bytes(key) + sum(kit_bytes.image_bytes(p) for p in pictures
                                                                 if p is not None)
        return super().keep(key, value, size)


def _same_masks(kept: Any, masks: tuple[Image.Image, ...]) -> bool:
    """Whether a kept blend was made of these very masks (identity: ids alone may be reused)."""
    return isinstance(kept, tuple) and len(kept) == len(masks) and all(a is b for a, b in zip(kept, masks,
                                                                                            strict=True))


_point = kit_masks.table_point


@lru_cache(maxsize=8)
def _indexes(palette: Palette) -> dict[RGB, int]:
    return {colour: index for index, colour in enumerate(palette.colours)}


@lru_cache(maxsize=4096)
def _quantized(palette: Palette, colour: RGB) -> int:
    """The index ``palette.quantize`` gives ``colour`` (its own index when the palette holds it)."""
    return palette.quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))  # type: ignore[return-value]


@lru_cache(maxsize=256)
def _blend_table(palette: Palette, colour: RGB, level: int) -> tuple[list[int], list[int] | None]:
    """For each index of a ground: the index of ``colour`` blitted over its palette colour at coverage
    ``level`` (Pillow's own blend, quantized), and 255 where that blend is not a palette colour (None:
    nowhere)."""
    colours = palette.colours
    strip = Image.new("RGB", (len(colours), 1))
    for x, entry in enumerate(colours):
        strip.putpixel((x, 0), entry)
    kit.Draw(strip).bitmap((0, 0), Image.new("L", strip.size, level), fill=colour)
    indexes = list(palette.quantize(strip).tobytes())
    held = _indexes(palette)
    blends = [strip.getpixel((x, 0)) for x in range(strip.width)]
    table = indexes + [0] * (256 - len(indexes))
    dirty = [0 if blends[i] in held else 255 for i in range(len(blends))] + [0] * (256 - len(blends))
    return table, dirty if any(dirty) else None


class Draw(kit.Draw):
    """``kit.Draw`` on a "P" picture whose palette is ``palette``: the same calls, the quantized pixels."""

    def __init__(self, image: Image.Image, palette: Palette) -> None:
        super().__init__(image)
        self.picture = image
        self.fixed = palette
        self.held = _indexes(palette)
        self.exact = True
        self.dirty: kit_marks.Marks | None = None  # pixels whose RGB colour the palette does not hold

    def _index(self, colour: Any) -> int | None:
        if colour is None:
            return None
        if type(colour) is int:
            return colour
        index = self.held.get(colour)
        if index is None:  # a flat colour the palette lacks: its pixels' RGB is not known from their index
            self.exact = False
            return _quantized(self.fixed, tuple(colour)[:3])  # type: ignore[arg-type]
        return index

    def _getink(self, ink: object, fill: object = None) -> tuple[int | None, int | None]:  # type: ignore[override]
        return super()._getink(self._index(ink), self._index(fill))

    def _mark(self, xy: tuple[int, int], mask: Image.Image) -> None:
        self._mark_core((xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height), mask.im)

    def _mark_core(self, box: tuple[int, int, int, int], mask: Any) -> None:
        """The pixels of ``mask`` (an image core the size of ``box``) marked as a colour the palette lacks."""
        if self.dirty is None:
            self.dirty = kit_marks.Marks(self.picture.size)
        self.dirty.add(box, mask)

    def marked(self, region: tuple[int, int, int, int]) -> bool:
        """Whether a pixel of ``region`` is marked as holding a colour the palette lacks."""
        return self.dirty is not None and self.dirty.any_in(region)

    def _over_dirty(self, xy: tuple[int, int], mask: Image.Image) -> bool:
        if self.dirty is None:
            return False
        box = (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height)
        marks = self.dirty.crop(box)
        if marks is None or marks.getbbox() is None:
            return False
        return marks.chop_and(_level_mask(mask, 0).im).getbbox() is not None  # (ImageChops.logical_and's core)

    def bitmap(self, xy: Any, bitmap: Image.Image, fill: Any = None) -> None:
        """A mask blitted in ``fill``: a two-level mask is that colour's index; the levels between (a text's
        edges) are each ground's blend, looked up by its index (``_blend_table``)."""
        at = (int(xy[0]), int(xy[1]))
        levels = _levels(bitmap)
        if not levels:
            return
        if levels == (255,):
            index = self.held.get(fill)
            if index is None:  # a text part whose blend the palette dropped: known here, marked
                index = _quantized(self.fixed, fill)
                self._mark(at, bitmap)
            self.draw.draw_bitmap(at, bitmap.im, index)
            return
        if self._over_dirty(at, bitmap):  # a blend over a colour this picture cannot know
            self.exact = False
        box = (at[0], at[1], at[0] + bitmap.width, at[1] + bitmap.height)
        core = self.picture.im
        ground_core = core.crop(box)
        if box[0] >= 0 and box[1] >= 0 and box[2] <= core.size[0] and box[3] <= core.size[1]:
            low, high = ground_core.getextrema()
            if low == high:  # the whole box one colour: the swatch and the ground around it, pasted as is
                quantized, _written, unheld = _on_ground(self.fixed, bitmap, fill, low)  # type: ignore[arg-type]
                core.paste(quantized.im, box)
                if unheld is not None:
                    self._mark(at, unheld)
                return
            counts = ground_core.histogram((0, 0), _level_mask(bitmap, 0).im)
            if counts.count(0) == 255:  # one colour under what it inks (a chip, a panel): its swatch, pasted
                quantized, written, unheld = _on_ground(self.fixed, bitmap, fill,  # type: ignore[arg-type]
                                                        counts.index(max(counts)))
                core.paste(quantized.im, box, written.im)
                if unheld is not None:
                    self._mark(at, unheld)
                return
            key = (id(bitmap), self.fixed, fill, kit_png.pixels(ground_core))  # (the palette itself: see _Kept)
            found = _kept_blends.get(key)
            if found is None or found[0] is not bitmap:  # (an HP number on its two-tone strip, a name on its
                ground = self.picture._new(ground_core)  # token: the same again and again)
                found = _blended(self.fixed, bitmap, fill, ground, levels)
                _kept_blends.keep(key, found, found[1], found[2], bitmap)
            core.paste(found[1].im, box, _level_mask(bitmap, 0).im)
            if found[2] is not None:
                self._mark(at, found[2])
            return
        ground = self.picture._new(ground_core)  # (partly off the picture: looked up here, pasted clipped)
        _mask, region, marks = _blended(self.fixed, bitmap, fill, ground, levels)
        core.paste(region.im, box, _level_mask(bitmap, 0).im)
        if marks is not None:
            self._mark(at, marks)

    def paste_over(self, box: tuple[int, int, int, int], picture: Image.Image, ground: RGB) -> bool:
        """``picture`` (RGB, drawn on ``ground``) pasted whole at ``box`` where this picture still holds
        only ``ground`` there (its index, no pixel of another colour of that index); False when not."""
        index = self.held.get(ground)
        if index is None or self.picture.crop(box).getextrema() != (index, index):
            return False
        if self.marked(box):
            return False
        quantized, unheld = _sprite(self.fixed, picture, _whole(picture.size))
        self.picture.paste(quantized, box[:2])
        if unheld is not None:
            self._mark(box[:2], unheld)
        return True

    def blits(self, xy: Any, height: int, masks: tuple[tuple[Image.Image, Any], ...]) -> None:
        """Masks blitted at one place in turn (``kit.draw_text`` gives an outlined text as its stroke then
        its fill): two-level ones as one paste of their indexes (``fills``), a lone blended one as
        ``bitmap``, several blended ones as one, looked up by the ground under them (the name on a
        token, a count on the ring's chip: the same ground again and again)."""
        at = (int(xy[0]), int(xy[1]))
        if len(masks) == 1:
            self.bitmap(at, masks[0][0], masks[0][1])
            return
        if all(mask.mode == "1" for mask, _colour in masks):
            self.fills(at, masks)
            return
        size = masks[0][0].size
        box = (at[0], at[1], at[0] + size[0], at[1] + size[1])
        core = self.picture.im
        if any(mask.size != size or mask.mode != "L" for mask, _colour in masks) or box[0] < 0 or box[1] < 0 \
                or box[2] > core.size[0] or box[3] > core.size[1] \
                or any(self._over_dirty(at, mask) for mask, _colour in masks):
            for mask, colour in masks:
                self.bitmap(at, mask, colour)
            return
        ground_core = core.crop(box)
        low, high = ground_core.getextrema()
        # one colour under the whole box (an outlined number on the panel): no bytes to key
        under = low if low == high else kit_png.pixels(ground_core)
        key = (self.fixed, *((id(mask), colour) for mask, colour in masks), under)
        held = tuple(mask for mask, _colour in masks)
        found = _kept_blends.get(key)
        # The key holds the masks' ids, so the entry holds every mask: a mask let go by the glyph cache
        # (a text's stroke) could otherwise hand its id to a new mask, and a stale blend would be pasted.
        if found is None or not _same_masks(found[0], held):
            blended = _blended_in_turn(self.fixed, masks, self.picture._new(ground_core))
            if blended is None:  # a blend over a colour the palette lacks, made by the mask before: not known
                for mask, colour in masks:
                    self.bitmap(at, mask, colour)
                return
            found = (held, blended[1], blended[2])
            _kept_blends.keep(key, found, found[1], found[2], *held)
        core.paste(found[1].im, box, _union(masks).im)
        if found[2] is not None:
            self._mark(at, found[2])

    def fills(self, xy: tuple[int, int], masks: tuple[tuple[Image.Image, RGB], ...]) -> None:
        """Two-level masks of one size filled in turn, each in its colour's index (``kit_ink``'s text cut by
        colour, a chip's fill and rim), straight onto the picture; the pixels whose colour the palette does not
        hold marked.

        Why not kept (issue 28): the fills were once made into a palette picture and a mask of the pixels
        written, kept by the masks' identity and pasted at once. Making one cost ~0.1 ms against a few tens
        of µs for pasting its 2-4 colours here, a kept one saved less than that, and at scale (thousands of
        tables, ``bench/render_caches.py``) a worker made ~22 a Warlord picture that the 4 MB let go before
        their next use: without them Warlord's pictures took 13-16 % less CPU (against Krosmaster's in the
        same run), WoW Miniatures' 5-8 %, a table's consecutive pictures the same, and each worker holds
        4 MB less. The pixels are the same: the
        kept ones were these pastes, in this order, made on a blank picture first."""
        width, height = masks[0][0].size
        box = (xy[0], xy[1], xy[0] + width, xy[1] + height)
        whole = (0, 0, width, height)
        core = self.picture.im
        held = self.held
        # An image core, not an Image: ~50 fills a Warlord picture mark a text's edges over a panel, and
        # Pillow's wrappers cost more than the pastes.
        unheld: Any = None
        for mask, colour in masks:
            index = held.get(colour)
            if index is None:
                index = _quantized(self.fixed, colour)
                if unheld is None:
                    unheld = Image.core.fill("1", (width, height), 0)
                unheld.paste(1, whole, mask.im)
            elif unheld is not None:
                unheld.paste(0, whole, mask.im)  # a later fill over an unheld pixel: held again
            core.paste(index, box, mask.im)
        if unheld is not None:
            self._mark_core(box, unheld)

    def on_one_colour(self, key: Hashable, region: tuple[int, int, int, int], drawer: Callable[[], None],
                      ground: RGB | None = None) -> None:
        """What ``drawer`` draws inside ``region`` (x0, y0, x1, y1, exclusive: it draws nowhere else), pasted
        as the indexes it left there when ``region`` held one index before, as it did when kept. ``ground``:
        the colour the caller knows the whole region holds (``kit_ink``'s ``Ground``), taken at its word as
        ``fills`` takes it; None: the region is looked at.

        Why (issue 28): a text or a chip of a Warlord table is three or four colours pasted through masks over
        its whole box, a branch a pixel: ~3.5 ns a pixel, a text 25 µs and a chip 80 µs, a fifth of a picture.
        Over one colour, what the drawing leaves there depends only on what it draws (``key``), on that
        colour (its index, with this palette), so the same drawing again is one copy of the region's rows.
        ``key`` must name everything else the pixels depend on: a drawing that rounds a half-pixel centre
        (``round`` goes to the even side) names the parity of its corner. Kept at its second sighting
        (``kit_sprites``'s reason), and only from a region seen to hold one index and no mark, so a copy is
        never of what a careless caller left there (the warm-up draws on its own scratch over and over), and
        only while the picture stays exact; the marks the drawing made are kept with it and made again."""
        core = self.picture.im
        x0, y0, x1, y1 = region
        if x0 < 0 or y0 < 0 or x1 > core.size[0] or y1 > core.size[1] or x0 >= x1 or y0 >= y1 \
                or kit.is_recording():
            drawer()
            return
        low = self.held.get(ground) if ground is not None else self._one_index(region)
        if low is None:
            drawer()
            return
        kept_key = (key, self.fixed, low)  # (the palette itself: see _Kept)
        found = _kept_drawn.get(kept_key)
        if found is not None:
            core.paste(found[0], region)
            if found[1] is not None:
                self._mark_core(region, found[1])
            return
        if not _sighted_drawn.again(kept_key) or (ground is not None and self._one_index(region) != low):
            drawer()
            return
        exact = self.exact
        drawer()
        if not (exact and self.exact):
            return
        size = (x1 - x0, y1 - y0)
        indexes = Image.core.fill("L", size, 0)  # (an "L" copy: a "P" one carries a 1 KB palette)
        indexes.paste(core.crop(region), (0, 0, *size))
        marks = self.dirty.crop(region) if self.dirty is not None else None
        if marks is not None and marks.getbbox() is None:
            marks = None
        _kept_drawn.keep(kept_key, (indexes, marks), kit_bytes.ENTRY + _KEY_BYTES + kit_bytes.image_bytes(indexes)
                         + kit_bytes.image_bytes(marks))

    def _one_index(self, region: tuple[int, int, int, int]) -> int | None:
        """The one index ``region`` holds, with none of its pixels marked; None if it holds more."""
        low, high = self.picture.im.crop(region).getextrema()
        if low != high or self.marked(region):
            return None
        return low  # type: ignore[no-any-return]


DRAWN_BYTES = 2 << 20
"""Heap bytes of drawings kept by what they are over (``Draw.on_one_colour``), per process: ~400 texts and chips
(~5 KB each). A Warlord game's pictures then take 1.5 ms a picture for their texts against 3.1 ms drawn, and 3 MB
gave 1.4 ms (``bench/README.md``, seventeenth session): not worth a MB more in each render worker."""
_KEY_BYTES = 400
"""A kept drawing's key (a tuple of the text's or chip's words, sizes and colours, the palette and the index),
bytes: its strings are the callers' own, so only the tuples are counted (walking each key to size it
cost ~10 µs)."""
_kept_drawn = kit_bytes.Budget(DRAWN_BYTES)
_sighted_drawn = kit_bytes.Sightings(4096)


def _blended(palette: Palette, mask: Image.Image, fill: RGB, ground: Image.Image, levels: tuple[int, ...]
             ) -> tuple[Image.Image, Image.Image, Image.Image | None]:
    """``mask`` blitted in ``fill`` over ``ground`` (a palette picture of its size), each level looked up by
    the ground's index (``_blend_table``): (the mask, the palette picture, the pixels given a colour the
    palette does not hold, None for none)."""
    region = ground.copy()
    marks: Image.Image | None = None
    for level in levels:
        part = _level_mask(mask, level)
        if level == 255:
            index = _indexes(palette).get(fill)
            if index is None:
                index = _quantized(palette, fill)
                marks = part if marks is None else ImageChops.logical_or(marks, part)
            region.paste(index, (0, 0), part)
            continue
        table, unheld = _blend_table(palette, fill, level)
        region.paste(_point(ground, table), (0, 0), part)
        if unheld is not None:
            found = ImageChops.logical_and(_point(ground, unheld, "1"), part)
            if found.getbbox() is not None:
                marks = found if marks is None else ImageChops.logical_or(marks, found)
    return mask, region, marks


_kept_blends = _Kept(2 << 20)
_kept_unions = _Kept(1 << 20)


def _union(masks: tuple[tuple[Image.Image, Any], ...]) -> Image.Image:
    """Every pixel some of ``masks`` covers, as a two-level mask (kept by the masks' identity)."""
    key = tuple(id(mask) for mask, _colour in masks)
    found = _kept_unions.get(key)
    if found is not None and all(a is b for a, (b, _colour) in zip(found[0], masks, strict=True)):
        return found[1]  # type: ignore[no-any-return]
    union = _level_mask(masks[0][0], 0)
    for mask, _colour in masks[1:]:
        union = ImageChops.logical_or(union, _level_mask(mask, 0))
    _kept_unions.keep(key, (tuple(mask for mask, _colour in masks), union), union)
    return union


def _blended_in_turn(palette: Palette, masks: tuple[tuple[Image.Image, Any], ...], ground: Image.Image
                     ) -> tuple[Image.Image, Image.Image, Image.Image | None] | None:
    """``masks`` blitted in turn over ``ground`` (``_blended`` each): (the first mask, the palette picture,
    the pixels given a colour the palette does not hold), or None when a mask blends over such a pixel
    the one before it made (its colour is not known from the index)."""
    region, marks = ground, None
    for mask, colour in masks:
        if marks is not None and ImageChops.logical_and(marks, _level_mask(mask, 0)).getbbox() is not None:
            return None
        _mask, region, new = _blended(palette, mask, colour, region, _levels(mask))
        if new is not None:
            marks = new if marks is None else ImageChops.logical_or(marks, new)
    return masks[0][0], region, marks
_kept_levels: dict[int, tuple[weakref.ref[Image.Image], tuple[int, ...]]] = {}
"""A mask's coverage levels by its id, with a weak reference to tell a reused id (issue 28): the masks are the
glyph cache's and the other caches', and holding them here kept up to 4,096 of them alive past their own
caches, 7-9 MB of every render worker at 5,000 live games."""
_kept_parts = _Kept(3 << 20)
_kept_sprites = _Kept(1 << 20)


def _levels(mask: Image.Image) -> tuple[int, ...]:
    """The coverage levels a mask holds besides 0 (masks are the kit's cached ones: kept by identity)."""
    found = _kept_levels.get(id(mask))
    if found is not None and found[0]() is mask:
        return found[1]
    if mask.mode == "1":
        levels: tuple[int, ...] = (255,) if mask.getbbox() is not None else ()
    else:
        histogram = mask.histogram()
        levels = tuple(v for v in range(1, 256) if histogram[v])
    if len(_kept_levels) >= _KEPT:
        _kept_levels.clear()
    _kept_levels[id(mask)] = (weakref.ref(mask), levels)
    return levels


@lru_cache(maxsize=64)
def _whole(size: tuple[int, int]) -> Image.Image:
    return Image.new("1", size, 1)


@lru_cache(maxsize=256)
def _equal(level: int) -> list[int]:
    return [255 if v == level else 0 for v in range(256)]


def _level_mask(mask: Image.Image, level: int) -> Image.Image:
    """The pixels of ``mask`` at ``level`` as a two-level mask (level 0: every pixel it covers)."""
    found = _kept_parts.get((id(mask), level))
    if found is not None and found[0] is mask:
        return found[1]
    part = _point(mask, _equal(level) if level else _NONZERO, "1")
    _kept_parts.keep((id(mask), level), (mask, part), part, mask)
    return part


def _quantize(palette: Palette, picture: Image.Image, written: Image.Image) -> tuple[Image.Image, Image.Image | None]:
    """``picture`` (RGB) on the palette, and the pixels of ``written`` whose colour the palette does not
    hold (None: none)."""
    quantized = palette.quantize(picture)
    differs = _point(ImageChops.difference(quantized.convert("RGB"), picture).convert("L"), _NONZERO, "L")
    unheld = ImageChops.multiply(differs, written.convert("L"))
    return quantized, unheld.convert("1") if unheld.getbbox() is not None else None


def _sprite(palette: Palette, picture: Image.Image, written: Image.Image) -> tuple[Image.Image, Image.Image | None]:
    """``_quantize``, remembered for pictures pasted again and again (``paste_over``: kept by identity)."""
    found = _kept_sprites.get((id(picture), id(palette)))
    if found is not None and found[0] is picture and found[1] is palette:
        return found[2], found[3]
    quantized, unheld = _quantize(palette, picture, written)
    _kept_sprites.keep((id(picture), id(palette)), (picture, palette, quantized, unheld), quantized, unheld)
    return quantized, unheld


_kept_grounds = _Kept(2 << 20)  # heap bytes: 2.4 MB when it counted 1 MB of pixels


def _on_ground(palette: Palette, mask: Image.Image, fill: RGB, ground: int
               ) -> tuple[Image.Image, Image.Image, Image.Image | None]:
    """``mask`` blitted in ``fill`` over the palette colour ``ground``, the kit's way, quantized: the
    palette picture (the ground's index where the mask is empty), the pixels written, and those whose
    colour the palette does not hold (None: none)."""
    key = (id(mask), palette, fill, ground)
    found = _kept_grounds.get(key)
    if found is not None and found[0] is mask:
        return found[1], found[2], found[3]
    swatch = Image.new("RGB", mask.size, palette.colours[ground])
    kit.Draw(swatch).bitmap((0, 0), mask, fill=fill)
    written = _level_mask(mask, 0)
    quantized, unheld = _quantize(palette, swatch, written)
    _kept_grounds.keep(key, (mask, quantized, written, unheld), quantized, unheld, mask, written)
    return quantized, written, unheld


def blank(size: tuple[int, int], colour: RGB, palette: Palette) -> Image.Image:
    """``canvas`` of a static layer of one colour, made without quantizing it."""
    picture = Image.new("P", size, _quantized(palette, colour))
    picture.putpalette(palette.quantize(Image.new("RGB", (1, 1), colour)).getpalette() or [])
    return picture


def png(picture: Image.Image) -> bytes | None:
    """The PNG ``kit.to_png`` writes for this palette picture's RGB twin (None where it would not write
    one band by band: then draw it the RGB way)."""
    return kit_png.encode(picture, level=kit.PNG_LEVEL) if kit_png.suits(picture) else None
