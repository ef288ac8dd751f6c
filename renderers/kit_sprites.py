"""Parts of a palette picture drawn once and pasted afterwards: a Warlord card tile (issue 28).

Why: a Warlord table draws 9-16 card tiles a picture (frame, band, bold name, content lines, pips), ~0.25 ms
each, and a move changes one or two of them: the rest are the very pixels of the table's last picture, only
moved, since a rank's height or a new card shifts every row below it. ``kit_scene`` re-draws by position, so a
shift defeats it; these parts are kept by what they show, wherever they go.

Why the pixels are the same: a part is kept as the pixels its own drawing left in its box, cropped from the
picture right after, and only when that drawing owns its box (its caller's promise: it first fills the whole
box, and draws nothing outside it, so what lay below and what comes next cannot change those pixels), the
picture is still exact, and no pixel of the box is marked as a colour the palette lacks (``kit_palette_draw``'s
``dirty``). The drawing must also be the same wherever it goes, which Pillow gives for whole-pixel
rectangles, ellipses, text at whole pixels and wide lines at 45° (their offsets are integers), not for any
polygon (a wide outline's edges are intersected in floating point, and a thin triangle moved by whole pixels
came out a pixel apart: ``tests/renderers`` history, issue 28). A part is kept at its second sighting only:
the first is drawn as before, with nothing to crop or size (what ``kit_palette_draw`` does with fills). Tests
draw playouts with the parts kept and drawn afresh and compare the pictures byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from renderers import kit, kit_bytes, kit_palette_draw

Box = tuple[int, int, int, int]
"""Inclusive corners, as ``ImageDraw.rectangle`` takes them."""

SIGHTED = 4096
"""Keys of parts seen once and not kept, remembered at most."""


class Sprites:
    """One renderer's parts, by key, within ``budget`` heap bytes (``kit_bytes``)."""

    def __init__(self, budget: int, owner: str) -> None:
        self.owner = owner  # the module that holds it: where ``gm.workers.render_memory.caches`` names it
        self.kept = kit_bytes.Budget(budget)
        self.sighted = kit_bytes.Sightings(SIGHTED)
        self.hits = self.misses = 0

    def draw(self, draw: Any, key: Hashable, box: Box, drawer: Callable[[], None]) -> None:
        """The part ``drawer`` draws in ``box`` on ``draw`` (it must fill the box first and stay inside it):
        pasted when kept, else drawn, and kept at its second sighting."""
        if type(draw) is not kit_palette_draw.Draw or kit.is_recording():  # an RGB picture, a recorder, marks
            drawer()
            return
        x0, y0, x1, y1 = box
        region = (x0, y0, x1 + 1, y1 + 1)
        width, height = draw.picture.size
        inside = x0 >= 0 and y0 >= 0 and x1 < width and y1 < height
        found = self.kept.found(key) if inside else None
        if found is not None:
            self.hits += 1
            draw.picture.im.paste(found, region)
            return
        self.misses += 1
        drawer()
        if not inside:
            return
        if not self.sighted.again(key):
            return
        if draw.exact and not draw.marked(region):
            core = draw.picture.im.crop(region)
            self.kept.keep(key, core, kit_bytes.ENTRY + kit_bytes.held_bytes(key) + kit_bytes.image_bytes(core))

    def cache_info(self) -> kit_bytes.CacheInfo:
        """``functools.lru_cache``'s figures and the bytes kept, as the byte-bounded caches give them."""
        return kit_bytes.CacheInfo(self.hits, self.misses, self.kept.budget, len(self.kept), self.kept.used)

    def clear(self) -> None:
        self.kept.clear()
        self.sighted.clear()
        self.hits = self.misses = 0
