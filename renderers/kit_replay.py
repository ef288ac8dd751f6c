"""Recorded pictures replayed straight on their palette indexes: no RGB canvas, no quantizing (issue 28).

Why: a lone picture (a table's first, what the bot draws most at scale) paid for drawing on an RGB
canvas, then for looking every pixel up in the palette (``Palette.quantize``, ~1 ns a pixel: ~1 ms
for a map) before compressing the rows. But the renderers' shapes are not anti-aliased, so each
shape's pixels get one palette colour, and Pillow draws a shape on a palette ("P") image exactly
where it draws it on an RGB one. So ``replay`` draws a ``kit_scene.Recorder``'s calls on the static
layer's indexes (quantized once per layer, ``layer``), each colour turned into the index the
quantizer gives it (``Inks``), and the rows are compressed as they are.

The one kind of call that blends is an anti-aliased mask (text): its edge pixels are a mix of the ink
and what lies under them. Where the mask's box lies on one colour (text on a chip, on the panel), the
box's pixels after the blit depend on that colour only: they are drawn once the kit's way on an RGB
tile of that colour, quantized, kept (``_tile``) and pasted. Elsewhere the box is taken back to RGB
(its palette colours), blended the kit's way and quantized again. Both give the whole picture's
pixels as long as the picture's colours are its palette's, which the games' palette tests check
(a blend missing from the palette would already come out changed by the quantizer); the games' tests
compare a recorded game's pictures with whole-picture encodes. A call with alpha (``mode="RGBA"``)
cannot be drawn on indexes: such a picture goes through ``kit_scene`` as before.

(``kit_palette_draw`` draws on indexes as a picture is drawn, for renderers that draw directly; this module
replays what a ``kit_scene.Recorder`` kept, finding each text's ground itself.)

``encode`` is ``kit_scene.encode`` on indexes (same scenes, same bands: the two interleave) and
``png`` a lone picture's encode.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from PIL import Image

from renderers import kit, kit_bytes, kit_png, kit_scene
from renderers.kit_palette import Palette

Entry = kit_scene.Entry
Static = Any
"""A static layer: an RGB ``Image.Image`` or a ``kit.Layer`` (what ``kit_scene.encode`` takes)."""


class Inks:
    """Palette indexes of colours, as the quantizer maps them (the exact entry, else the nearest)."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self._known: dict[Any, int] = {}
        self._lock = threading.Lock()
        self.palette_data = palette.image.getpalette() or [0, 0, 0]

    def __call__(self, colour: Any) -> int | None:
        if colour is None:
            return None
        found = self._known.get(colour)
        if found is None:
            found = self.palette._index.get(colour) if type(colour) is tuple and len(colour) == 3 else None
            if found is None:
                pixel = Image.new("RGB", (1, 1), colour)
                found = int(self.palette.quantize(pixel).getpixel((0, 0)))  # type: ignore[arg-type]
            with self._lock:
                self._known[colour] = found
        return found

    def rgb(self, index: int) -> tuple[int, int, int]:
        return self.palette.colours[index]


_lock = threading.Lock()
_inks: OrderedDict[int, tuple[Palette, Inks]] = OrderedDict()
"""By the palette's id; each value keeps its palette alive, so an id in a key is never a later one's
(the same holds for every cache below: its values keep alive what its keys name by id)."""
LAYER_BYTES = 6 << 20
"""Heap bytes of static layers kept as indexes (~1 byte a pixel: 0.1-1.2 MB each; a ``kit.Layer`` is made
from the indexes of its parts). An entry holds its source image weakly: the renderer that made it
decides how long it lives (a layer kept here once pinned 16 RGB sources of up to 6 MB)."""
_layers = kit_bytes.Budget(LAYER_BYTES, lambda _key, value: kit_bytes.ENTRY + kit_bytes.image_bytes(value[2]))
"""(id of the source, id of the palette) → (a weak reference to the source, the palette, its indexes)."""


def inks(palette: Palette) -> Inks:
    """The palette's ``Inks``."""
    with _lock:
        found = _inks.get(id(palette))
        if found is not None:
            _inks.move_to_end(id(palette))
            return found[1]
        made = Inks(palette)
        _inks[id(palette)] = (palette, made)
        while len(_inks) > 16:
            _inks.popitem(last=False)
        return made


def _indexes_of(image: Image.Image, palette: Palette) -> Image.Image:
    """``image`` (RGB) quantized, once per image and palette (callers copy or crop it)."""
    key = (id(image), id(palette))
    found = _layers.found(key)
    if found is not None and found[0]() is image and found[1] is palette:
        return found[2]  # type: ignore[no-any-return]
    indexed = palette.quantize(image)
    _layers.keep(key, (weakref.ref(image), palette, indexed))
    return indexed


def layer(static: Static, palette: Palette) -> Image.Image:
    """A fresh copy of the static layer as palette indexes."""
    if isinstance(static, kit.Layer):
        ink = inks(palette)
        image = Image.new("P", static.size, ink(static.ground))
        image.putpalette(ink.palette_data)  # read back by a blend that goes through RGB
        for box, colour in static.fills:
            image.paste(ink(colour), box)
        for source, box, at in static.parts:
            part = _indexes_of(source, palette)
            image.paste(part if box is None else part.crop(box), at)
        return image
    return _indexes_of(static, palette).copy()


def indexable(entries: Sequence[Entry]) -> bool:
    """Whether every call can be drawn on indexes (none blends with alpha)."""
    return all(entry[0][1] != "RGBA" for entry in entries)


# -- masks -------------------------------------------------------------------------------------------

_LIMIT = 2048
"""Blits and level masks remembered (each cache), keyed by the masks' ids as the recorded command holds
them. Each keeps its masks alive, so this also bounds the masks held past the kit's own caches."""
_blits: OrderedDict[Any, tuple[tuple[Image.Image, ...], bool, int, int]] = OrderedDict()
TILE_BYTES = 3 << 20
"""Heap bytes of text tiles kept (``_tile``), the masks each keeps alive counted with it: 2,048 tiles by
count had grown to ~19 MB a render worker."""


def _tile_bytes(key: Any, value: tuple[tuple[Image.Image, ...], Palette, Image.Image]) -> int:
    return kit_bytes.ENTRY + kit_bytes.held_bytes(key) + kit_bytes.image_bytes(value[2]) + \
        sum(kit_bytes.image_bytes(mask) for mask in value[0])


_tiles = kit_bytes.Budget(TILE_BYTES, _tile_bytes)


def _blit_info(ids: Any, masks: tuple[tuple[Image.Image, Any], ...]) -> tuple[tuple[Image.Image, ...], bool, int,
                                                                              int]:
    """(the masks, whether they hold only 0 and 255 so a blit copies them as they are, the width and
    height of their box)."""
    binary = all(mask.mode == "1" or not any(mask.histogram()[1:255]) for mask, _c in masks)
    info = (tuple(mask for mask, _c in masks), binary, max(mask.size[0] for mask, _c in masks),
            max(mask.size[1] for mask, _c in masks))
    with _lock:
        _blits[ids] = info
        while len(_blits) > _LIMIT:
            _blits.popitem(last=False)
    return info


def _tile(masks: tuple[tuple[Image.Image, Any], ...], size: tuple[int, int], ground: int, ink: Inks,
          ids: Any) -> Image.Image:
    """A blit of ``masks`` (in order) on a box of one palette colour, as indexes."""
    key = (id(ink.palette), ground, ids)
    found = _tiles.found(key)
    if found is not None:
        return found[2]
    tile = Image.new("RGB", size, ink.rgb(ground))
    draw = kit.Draw(tile)
    for mask, colour in masks:
        if colour is not None:
            draw.bitmap((0, 0), mask, fill=colour)
    # kept as "L": pasted on the picture's core, the same indexes without a palette (1.3 KB) per tile
    indexed = Image.frombytes("L", size, ink.palette.quantize(tile).tobytes())
    _tiles.keep(key, (tuple(mask for mask, _c in masks), ink.palette, indexed))
    return indexed


def _blend(image: Image.Image, at: tuple[int, int], masks: tuple[tuple[Image.Image, Any], ...], ink: Inks,
           ids: Any, width: int, height: int) -> None:
    """Anti-aliased masks blitted on indexes: a tile where their box lies on one colour, else the box
    blended in RGB and quantized back. (Pillow's core calls: its wrappers cost more than the work.)"""
    x, y = at
    size = image.size
    box = (max(0, x), max(0, y), min(size[0], x + width), min(size[1], y + height))
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    low, high = image.im.crop(box).getextrema()
    if low == high and box[0] == x and box[1] == y and box[2] == x + width and box[3] == y + height:
        image.im.paste(_tile(masks, (width, height), low, ink, ids).im, box)
        return
    if len(masks) == 1 and masks[0][1] is not None and box[2] - box[0] == width and box[3] - box[1] == height:
        _mapped(image, box, masks[0][0], masks[0][1], ink)
        return
    rgb = image.crop(box).convert("RGB")
    draw = kit.Draw(rgb)
    for mask, colour in masks:
        if colour is not None:
            draw.bitmap((x - box[0], y - box[1]), mask, fill=colour)
    image.paste(ink.palette.quantize(rgb), box)


_levels: OrderedDict[int, tuple[Image.Image, tuple[tuple[int, Image.Image], ...]]] = OrderedDict()
_tables: dict[tuple[int, Any, int], tuple[Palette, list[int]]] = {}


def _level_masks(mask: Image.Image) -> tuple[tuple[int, Image.Image], ...]:
    """A mask's coverage levels, each with a two-level mask of its pixels."""
    found = _levels.get(id(mask))
    if found is not None:
        return found[1]
    histogram = mask.histogram()
    parts = tuple((level, mask.point([255 if v == level else 0 for v in range(256)]).convert("1"))
                  for level in range(1, 256) if histogram[level])
    with _lock:
        _levels[id(mask)] = (mask, parts)
        while len(_levels) > _LIMIT:
            _levels.popitem(last=False)
    return parts


def _table(ink: Inks, colour: Any, level: int) -> list[int]:
    """Per palette index: the index of that colour with ``colour`` blitted over it at ``level``
    (the blend computed by Pillow, then quantized)."""
    key = (id(ink.palette), colour, level)
    found = _tables.get(key)
    if found is not None:
        return found[1]
    colours = ink.palette.colours
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    kit.Draw(strip).bitmap((0, 0), Image.new("L", strip.size, level), fill=colour)
    mapped = list(ink.palette.quantize(strip).tobytes())
    table = mapped + list(range(len(mapped), 256))
    with _lock:
        _tables[key] = (ink.palette, table)
    return table


def _mapped(image: Image.Image, box: tuple[int, int, int, int], mask: Image.Image, colour: Any, ink: Inks) -> None:
    """One anti-aliased mask over several colours: each coverage level's pixels looked up in a table
    of the palette's blends (right where the colours under it are the palette's own)."""
    region = image.im.crop(box)
    for level, part in _level_masks(mask):
        image.im.paste(region.point(_table(ink, colour, level), None), box, part.im)


GROUND_BYTES = 2 << 20
"""Heap bytes of blends over several colours remembered by the pixels under them (``_blend_kept``): each
holds its box twice (the key's bytes under it, and the "P" core after, with its palette: ~4-6 KB for a
token's label), its masks counted with it."""


def _ground_bytes(key: Any, value: tuple[tuple[Image.Image, ...], Palette, Any]) -> int:
    return kit_bytes.ENTRY + kit_bytes.held_bytes(key) + kit_bytes.image_bytes(value[2]) + \
        sum(kit_bytes.image_bytes(mask) for mask in value[0])


_grounds = kit_bytes.Budget(GROUND_BYTES, _ground_bytes)


def _blend_kept(image: Image.Image, at: tuple[int, int], masks: tuple[tuple[Image.Image, Any], ...], ink: Inks,
                ids: Any, width: int, height: int) -> None:
    """``_blend``, with what it gives over several colours remembered by the indexes it was given.

    Why (``replay(kept=True)``): a label over a token and the squares around it, or a number with its
    outline, lies on the same few grounds picture after picture (a piece's token on a light or a dark
    square), and blending it through RGB and quantizing back costs ten times a look-up. A blit's pixels
    depend only on its masks, their colours and the indexes under its box, which make the key, so a
    remembered box is the very result."""
    x, y = at
    size = image.size
    box = (max(0, x), max(0, y), min(size[0], x + width), min(size[1], y + height))
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    core = image.im
    region = core.crop(box)
    low, high = region.getextrema()
    if low == high and box == (x, y, x + width, y + height):
        core.paste(_tile(masks, (width, height), low, ink, ids).im, box)
        return
    key = (id(ink.palette), ids, box[0] - x, box[1] - y, box[2] - box[0], box[3] - box[1],
           kit_png.pixels(region))
    found = _grounds.found(key)
    if found is not None:
        core.paste(found[2], box)
        return
    _blend(image, at, masks, ink, ids, width, height)
    _grounds.keep(key, (tuple(mask for mask, _c in masks), ink.palette, core.crop(box)))


# -- drawing -----------------------------------------------------------------------------------------


def replay(image: Image.Image, entries: Sequence[Entry], palette: Palette, reach: Sequence[int] | None = None,
           *, kept: bool = False) -> None:
    """``kit_scene.replay`` on a palette image (``layer``): the same pixels the RGB replay gives once
    quantized (see the module's docstring); ``reach`` as there; ``kept``: remember blends over several
    colours by the indexes under them (``_blend_kept``)."""
    blend = _blend_kept if kept else _blend
    ink = inks(palette)
    draw = kit.Draw(image)
    raw = draw.draw
    rows = kit_png.BAND_ROWS
    last_band = len(reach) - 2 if reach is not None else 0
    infos = _blits
    for command, top, bottom, masks in entries:
        if reach is not None:
            first, last = max(0, top // rows), min(last_band, bottom // rows)
            if first > last or reach[last + 1] == reach[first]:
                continue
        name = command[0]
        if name == "blits":
            assert masks is not None
            ids = command[3]
            info = infos.get(ids) or _blit_info(ids, masks)
            if info[1]:
                for mask, colour in masks:
                    index = ink(colour)
                    if index is not None:
                        raw.draw_bitmap(command[2], mask.im, index)
            else:
                blend(image, command[2], masks, ink, ids, info[2], info[3])
        elif name == "polygon" and command[5] > 1 and command[4] is not None and command[4] != command[3]:
            _polygon(image, draw, command[2], ink(command[3]), ink(command[4]), command[5])
        elif name == "line":
            draw.line(command[2], ink(command[3]), command[4], command[5])
        elif name == "rounded_rectangle":
            draw.rounded_rectangle(command[2], command[3], ink(command[4]), ink(command[5]), command[6],
                                   corners=command[7])
        else:  # rectangle, ellipse, polygon: (xy, fill, outline, width)
            getattr(draw, name)(command[2], ink(command[3]), ink(command[4]), command[5])


_masks = threading.local()


def _polygon(image: Image.Image, draw: kit.Draw, xy: Any, fill: int | None, outline: int | None, width: int) -> None:
    """Pillow's wide-outlined polygon (``ImageDraw.polygon``), with its clipping mask kept and wiped
    after use instead of a new picture-sized mask each time (~30 us a shield)."""
    if fill is not None:
        draw.draw.draw_polygon(xy, fill, 1)
    if outline is None:
        return
    mask = getattr(_masks, "image", None)
    if mask is None or mask.size != image.size:
        mask = _masks.image = Image.new("1", image.size)
    raw = Image.core.draw(mask.im, 0)
    raw.draw_polygon(xy, 1, 1)
    draw.draw.draw_polygon(xy, outline, 0, width * 2 - 1, mask.im)
    raw.draw_polygon(xy, 0, 1)  # the same pixels back to 0: the mask is blank for the next one


def settle() -> None:
    """Leave the CPU's vector registers clean after ISA-L has compressed bands.

    Why: ISA-L's deflate (``kit_png``, through python-isal) returns with the upper halves of the vector
    registers in use, and every SSE instruction the thread runs afterwards pays for it: on this
    machine Pillow's drawing got ~10 % slower and zlib (Pillow's PNG encoder, ``zlib.compress``)
    2.2-2.5 times slower, in that thread and in threads it starts, until something clears them.
    OpenSSL's SHA-512 runs AVX code that ends by clearing them (``VZEROUPPER``): hashing nothing
    costs ~0.5 us. (A thread that ran no ISA-L code is not affected.)"""
    hashlib.sha512(b"").digest()


def png(static: Static, palette: Palette, entries: list[Entry], *, level: int = kit.PNG_LEVEL,
        kept: bool = False) -> bytes:
    """A lone picture: ``entries`` drawn on the static layer's indexes and encoded (what
    ``kit.to_png`` of the RGB picture gives); through RGB when a call blends with alpha. ``kept``
    as for ``replay``."""
    if not indexable(entries):
        image = static.copy()
        kit_scene.replay(image, entries)
        picture = kit.to_png(image, palette=palette, level=level)
        settle()
        return picture
    image = layer(static, palette)
    replay(image, entries, palette, kept=kept)
    width, height = image.size
    bands = kit_png.pack_picture(image, level=level)
    settle()
    return kit_png.assemble(width, height, kit_png.palette_bytes(palette.image), bands)


def encode(key: Hashable, static: Static, palette: Palette, entries: list[Entry], *,
           level: int = kit.PNG_LEVEL, kept: bool = False) -> bytes:
    """``kit_scene.encode`` drawn on indexes: only the bands that differ from scene ``key``'s previous
    picture are drawn and compressed again, with no quantizing. Same scenes and bytes as
    ``kit_scene.encode``, which takes the pictures whose calls blend with alpha. ``kept`` as for
    ``replay``."""
    if not indexable(entries):
        picture = kit_scene.encode(key, static, palette, entries, level=level)
        settle()
        return picture
    width, height = static.size
    rows = kit_png.BAND_ROWS
    count = (height + rows - 1) // rows
    hashes = [hash(entry[0]) for entry in entries]
    before = kit_scene._take(key)
    if before is not None and before.static is static and before.palette is palette:
        dirty = kit_scene._changed_bands(before, entries, hashes, count)
        bands = list(before.bands)
    else:
        dirty, bands = [True] * count, []
    if all(dirty):
        image = layer(static, palette)
        replay(image, entries, palette, kept=kept)
        bands = kit_png.pack_picture(image, level=level)
    elif any(dirty):
        image = layer(static, palette)
        replay(image, entries, palette, kit_scene._reach(dirty), kept=kept)
        band = 0
        while band < count:
            if not dirty[band]:
                band += 1
                continue
            end = band
            while end < count and dirty[end]:
                end += 1
            strip = image.crop((0, band * rows, width, min(height, end * rows)))
            bands[band:end] = kit_png.pack_picture(strip, level=level)
            band = end
    settle()
    kit_scene._keep(key, kit_scene._Picture(static, palette, entries, hashes, bands))
    kit_scene.COUNTS.bands += count
    kit_scene.COUNTS.redrawn += sum(dirty)
    return kit_png.assemble(width, height, kit_png.palette_bytes(palette.image), bands)
